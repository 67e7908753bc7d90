// Convolution planner: picks the tiled or the generic kernel, lays out the persistent
// resource (packed filter, bias) and fills the specialization constants of conv2d_params.glsl.
//
// Kernels: conv2d_tiled.comp for ordinary ungrouped convolutions (the bulk of the FLOPs in
// upscalers and denoisers); conv2d.comp, one output per invocation, for groups, transposed
// convolutions and shapes whose tile + halo does not fit shared memory.
// Weights: owned filters are packed at initialization as [outC/16][inC/g * kH * kW][16] in the
// activations' precision (the order the tiled kernel stages them, contiguous per block), owned
// biases as [outC]. Bound filters are read in place through the same address formula, so both
// kernels take either.
// Tensor cores, two kernels: conv2d_igemm.comp (implicit GEMM with both operands staged in shared
// memory, convolution_igemm.cpp for its tiles) for channels-last fp16 inputs and for every fused
// epilogue or input (PReLU slopes, residual, max pool, concat/upsample: kernel.h
// ConvolutionFusion); conv2d_coopmat.comp for the rest (image inputs: unfold-x). A TuningTable
// entry (mlplugin/tuning.h) overrides the choice per shape with a measured one; it may also name
// conv2d_winograd.comp (Winograd F(2x2, 3x3) on tensor cores, convolution_winograd.cpp), which
// the fixed heuristic never picks.
// conv2d_coopmat.comp (implicit GEMM on VK_NV_cooperative_matrix 16x16x16 fp16
// fragments, A staged per subgroup, B from L1) is chosen when the operator qualifies: pc.cooperativeMatrix (the device
// enabled the extension and ExecutionFlagDisableCooperativeMatrix is not set), a 16x16x16 fp16
// shape with fp32 accumulators, subgroups of 32, fp16 input and output, groups 1, not
// transposed, and its shared memory fits. There is no size heuristic, so any qualifying test
// shape runs on it, except the im2col mode below where the tiled kernel takes the shape (on the
// H100 conv 5x5 3->64 at 1080p ran 1.33 ms im2col vs 1.07 ms tiled). Image inputs (kW x inC <= 16:
// RGB 3x3 and 5x5) take the unfold-x mode instead, measured fastest of all three (coopConfig).
// Channels-last fp16 tensors (the graph stores conv -> conv intermediates that way on such
// devices) are read and written 8 channels per 16-byte access. Testing:
// ExecutionFlagForceCooperativeMatrix uses the tensor-core kernel wherever it can run,
// ExecutionFlagDisableCooperativeMatrix never. Its weights are a fp16 B matrix [K rows][N padded to the N block]
// (pack_conv_coopmat.comp): packed at initialization for owned filters, at execution into the
// temporary resource for bound ones.
#include "ml_shaders.h"
#include "ops/convolution_igemm.h"
#include "ops/convolution_shape.h"
#include "ops/convolution_winograd.h"
#include "ops/weight_packing.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <optional>

namespace mlplugin::detail {

namespace {

// Specialization constant ids of shaders/ml/conv2d_params.glsl.
enum ConvConst : uint32_t {
    kBatch = 3, kInC, kInH, kInW, kOutC, kOutH, kOutW, kKH, kKW, kStrideY, kStrideX, kDilY, kDilX, kPadT, kPadL,
    kGroupInC, kGroupOutC, kTransposed,
    kInType, kInStrideN, kInStrideC, kInStrideH, kInStrideW,
    kOutType, kOutSlot, kOutStrideN, kOutStrideC, kOutStrideH, kOutStrideW,
    kWSlot, kWType, kWOffset, kWBlock, kWBlockStride, kWLaneStride, kWIcStride, kWKyStride, kWKxStride,
    kHasBias, kBSlot, kBType, kBOffset, kBStride,
    kAct, kActAlpha, kActBeta,
    kCiChunk, kInTileH, kInTileW, kOcBlocks,
    kTapStepY, kTapStepX,
    kConvConstCount
};
// Specialization constant ids of shaders/ml/pack_conv_weights.comp.
enum PackConst : uint32_t {
    kPackOutC = 3, kPackGroupInC, kPackKH, kPackKW, kPackBlock, kPackSrcSlot, kPackSrcType, kPackSrcBlock, kPackSrcBlockStride,
    kPackSrcLaneStride, kPackSrcIcStride, kPackSrcKyStride, kPackSrcKxStride, kPackDstType, kPackDstOffset, kPackConstCount
};

// Specialization constant ids of shaders/ml/conv2d_coopmat.comp (after conv2d_params.glsl's).
enum CoopConst : uint32_t {
    kCcMode = kConvConstCount, kCcTileH, kCcTileW, kCcMF, kCcNF, kCcNBlocks, kCcNPad, kCcIcPad, kCcKChunk,
    kCcKPad, kCcDTileH, kCcDTileW, kCcAPitch, kCcASmem, kCcSubgroups, kCcRawSmem, kCcVecIn, kCcVecOut, kCcConstCount
};
static_assert(kCcMode == 55, "conv2d_coopmat.comp's constant ids start at 55");
// conv2d_params.glsl: a depth-to-space folded into the store (all three kernels).
constexpr uint32_t kD2sBlock = 73, kD2sCrd = 74, kConvSpecCount = 75;
constexpr uint32_t kActTanhFast = 100;  // mirrors ACT_TANH_FAST in common.glsl
static_assert(kCcConstCount <= kD2sBlock, "constant ids overlap");
// Specialization constant ids of shaders/ml/pack_conv_coopmat.comp.
enum CoopPackConst : uint32_t {
    kCPackOutC = 3, kCPackInC, kCPackKH, kCPackKW, kCPackMode, kCPackIcPad, kCPackKRows, kCPackNPad, kCPackSrcSlot, kCPackSrcType,
    kCPackSrcOc, kCPackSrcIc, kCPackSrcKy, kCPackSrcKx, kCPackDstSlot, kCPackDstOffset, kCPackConstCount
};

// Mirror the #defines of shaders/ml/conv2d_tiled.comp.
constexpr uint32_t kTiledTileW = 32, kTiledTileH = 8, kOcBlock = 16;
constexpr uint32_t kTiledInputSmem = 2560, kTiledWeightSmem = 1536;  // floats: 16 KiB together
constexpr uint32_t kGenericLocalSize = 64;

[[maybe_unused]] constexpr uint32_t kConvInputSlot = 0, kConvFilterSlot = 1, kConvBiasSlot = 2, kConvOutputSlot = 3;

// Where and how the kernels read weights (see the address formula in conv2d_params.glsl).
struct WeightSource {
    uint32_t slot = kConvFilterSlot, type = 0, offset = 0;
    uint32_t block = 1, blockStride = 0, laneStride = 0, icStride = 0, kyStride = 0, kxStride = 0;
};

struct BiasSource {
    uint32_t slot = kConvBiasSlot, type = 0, offset = 0, stride = 1;
};

// The filter as bound to its input slot, ordinary or transposed, any strides.
WeightSource filterInSlot(const ConvolutionDesc& d, const ConvGeometry& g) {
    auto s = d.filter.effectiveStrides();
    WeightSource w;
    w.type = shaderType(d.filter.dataType);
    w.kyStride = s[2];
    w.kxStride = s[3];
    if (!d.transposed) {  // [outC, inC/g, kH, kW]
        w.blockStride = s[0];
        w.icStride = s[1];
    } else {  // [inC, outC/g, kH, kW]: output channel oc lives in group oc / (outC/g)
        w.block = g.groupOutC;
        w.blockStride = g.groupInC * s[0];
        w.laneStride = s[1];
        w.icStride = s[0];
    }
    return w;
}

// The persistent layout [outC / kOcBlock][inC/g * kH * kW][kOcBlock].
WeightSource packedFilter(const ConvGeometry& g, DataType type, uint64_t byteOffset) {
    WeightSource w;
    w.slot = kPersistentSlot;
    w.type = shaderType(type);
    w.offset = uint32_t(byteOffset / byteSize(type));
    w.block = kOcBlock;
    w.blockStride = g.groupInC * g.kH * g.kW * kOcBlock;
    w.laneStride = 1;
    w.icStride = g.kH * g.kW * kOcBlock;
    w.kyStride = g.kW * kOcBlock;
    w.kxStride = kOcBlock;
    return w;
}

uint64_t packedFilterElements(const ConvGeometry& g) {
    return uint64_t(divUp(g.outC, kOcBlock)) * kOcBlock * g.groupInC * g.kH * g.kW;
}

void addPackFilter(Plan& plan, const ConvolutionDesc& d, const ConvGeometry& g, DataType dstType, uint64_t byteOffset, bool f16) {
    WeightSource src = filterInSlot(d, g);
    std::vector<uint32_t> spec(kPackConstCount, 0);
    spec[0] = kPackLocalSize;
    spec[1] = spec[2] = 1;
    spec[kPackOutC] = g.outC;
    spec[kPackGroupInC] = g.groupInC;
    spec[kPackKH] = g.kH;
    spec[kPackKW] = g.kW;
    spec[kPackBlock] = kOcBlock;
    spec[kPackSrcSlot] = kConvFilterSlot;
    spec[kPackSrcType] = src.type;
    spec[kPackSrcBlock] = src.block;
    spec[kPackSrcBlockStride] = src.blockStride;
    spec[kPackSrcLaneStride] = src.laneStride;
    spec[kPackSrcIcStride] = src.icStride;
    spec[kPackSrcKyStride] = src.kyStride;
    spec[kPackSrcKxStride] = src.kxStride;
    spec[kPackDstType] = shaderType(dstType);
    spec[kPackDstOffset] = uint32_t(byteOffset / byteSize(dstType));
    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size());
    launch.groups = linearGroups(packedFilterElements(g), kPackLocalSize);
    plan.pipelines.push_back({f16 ? shaders::pack_conv_weights_f16() : shaders::pack_conv_weights_f32(), std::move(spec),
                              "pack_conv_weights"});
    plan.initialize.push_back(launch);
}

struct TiledConfig {
    uint32_t ciChunk = 0, inTileH = 0, inTileW = 0;
    std::array<uint32_t, 3> groups{};
};

// The tiled kernel handles ordinary (not transposed, ungrouped) convolutions whose input tile
// plus halo and weights for at least one input channel fit its shared memory.
std::optional<TiledConfig> tiledConfig(const ConvolutionDesc& d, const ConvGeometry& g) {
    if (d.transposed || d.groups != 1) return std::nullopt;
    uint64_t inTileH = uint64_t(kTiledTileH - 1) * d.strides[0] + uint64_t(g.kH - 1) * d.dilations[0] + 1;
    uint64_t inTileW = uint64_t(kTiledTileW - 1) * d.strides[1] + uint64_t(g.kW - 1) * d.dilations[1] + 1;
    uint64_t ci = std::min<uint64_t>({g.inC, kTiledInputSmem / (inTileH * inTileW), kTiledWeightSmem / (uint64_t(g.kH) * g.kW * kOcBlock)});
    uint64_t z = uint64_t(g.batch) * divUp(g.outC, kOcBlock);
    std::array<uint32_t, 3> groups{divUp(g.outW, kTiledTileW), divUp(g.outH, kTiledTileH), uint32_t(std::min<uint64_t>(z, UINT32_MAX))};
    if (ci == 0 || groups[0] > 65535 || groups[1] > 65535 || z > 65535) return std::nullopt;
    return TiledConfig{uint32_t(ci), uint32_t(inTileH), uint32_t(inTileW), groups};
}

// The tensor-core kernel's shape: 4 subgroups of 32, tiles 32 pixels wide; each subgroup holds
// MF M fragments (16 pixels each) x NF N fragments (up to 64 channels), at most 16 accumulators:
// NF 4 -> MF 4 (a workgroup computes 8 x 32 pixels x 64 channels), NF <= 2 -> MF 8 (16 x 32
// pixels, shader variant conv2d_coopmat_mf8), so narrow outputs read each B fragment for more
// MMAs. Measured on the H100 (3x3 64->64 at 1080p, fp16): 8 subgroups or 64-wide tiles
// 1.63-1.67 ms vs 1.41, MF 2 with NF 4 5.0-5.6 ms; the shipped upscaler 2.55 ms with MF 8 for
// its narrow layers vs 2.76 with MF 4 (all before the benchmarks waited out the GPU's clock
// ramp-up, so indicative).
constexpr uint32_t kCoopSubgroups = 4, kCoopTileW = 32, kCoopMaxAcc = 16, kCoopMaxMF = 8;
constexpr uint32_t kCoopFrag = 16, kCoopMaxNF = 4, kCoopMaxKChunk = 64, kCoopSubgroupSize = 32;
constexpr uint32_t kCoopWorkgroup = kCoopSubgroups * kCoopSubgroupSize;
constexpr uint32_t kCoopDirect = 0, kCoopIm2col = 1, kCoopUnfoldX = 2;

struct CoopConfig {
    uint32_t mode = kCoopDirect, mf = 4, nf = 1, nBlocks = 1, nPad = 16, icPad = 16, kChunk = 16, kPad = 16, kRows = 16;
    uint32_t tileH = 8, dTileH = 1, dTileW = 1, aPitch = 24, aSmem = 8, rawSmem = 8, vecIn = 0, vecOut = 0;
    bool acc16 = false;  // fp16 accumulators (conv2d_coopmat_acc16): always with MF 8
    std::array<uint32_t, 3> groups{};
    uint64_t weightBytes() const { return uint64_t(kRows) * nPad * 2; }
};

bool hasCoopShape(const Capabilities& caps) {
    for (const CooperativeMatrixShape& s : caps.cooperativeMatrixShapes)
        if (s.m == kCoopFrag && s.n == kCoopFrag && s.k == kCoopFrag && s.inputType == DataType::Float16 &&
            s.accumulatorType == DataType::Float32)
            return true;
    return false;
}

uint32_t roundUp(uint32_t a, uint32_t b) { return divUp(a, b) * b; }

// Channels-last fp16 with every pixel's channel run starting 8-byte aligned: the kernel moves 8
// channels per 16-byte access (f16vec4 pairs).
bool vectorChannels(const TensorDesc& t) {
    auto s = t.effectiveStrides();
    return t.dataType == DataType::Float16 && s[1] == 1 && t.sizes[1] % 8 == 0 && s[0] % 4 == 0 && s[2] % 4 == 0 && s[3] % 4 == 0;
}

// The input rows and columns a tileH x kCoopTileW output tile reads.
std::pair<uint64_t, uint64_t> coopInputTile(const ConvolutionDesc& d, const ConvGeometry& g, uint32_t tileH) {
    uint64_t h = uint64_t(tileH - 1) * d.strides[0] + uint64_t(g.kH - 1) * d.dilations[0] + 1;
    uint64_t w = uint64_t(kCoopTileW - 1) * d.strides[1] + uint64_t(g.kW - 1) * d.dilations[1] + 1;
    return {h, w};
}

// Im2col mode's tile and shared memory: the largest M per subgroup and K chunk whose im2col
// chunk fits `smemBytes` next to the raw input tile (staged once, gathered from shared memory),
// else without it (gathered from global memory).
bool coopIm2colLayout(CoopConfig& c, const ConvolutionDesc& d, const ConvGeometry& g, const std::vector<uint32_t>& mfs, uint64_t smemBytes) {
    c.kRows = c.kPad;
    for (bool withRaw : {true, false})
        for (uint32_t mf : mfs) {
            uint32_t tileH = kCoopSubgroups * mf * kCoopFrag / kCoopTileW;
            auto [h, w] = coopInputTile(d, g, tileH);
            // Halves, a multiple of 8 (16-byte aligned arrays); at least 8 x 32, so never the 'none' size 8.
            uint64_t raw = withRaw ? (uint64_t(g.inC) * h * w + 7) / 8 * 8 : 8;
            for (uint32_t kChunk = std::min(kCoopMaxKChunk, c.kPad); kChunk >= kCoopFrag; kChunk -= kCoopFrag) {
                uint64_t aSmem = uint64_t(tileH) * kCoopTileW * (kChunk + 8);
                if ((aSmem + raw) * 2 > smemBytes) continue;
                c.mf = mf, c.tileH = tileH, c.kChunk = kChunk, c.aPitch = kChunk + 8, c.aSmem = uint32_t(aSmem);
                c.rawSmem = uint32_t(raw);
                c.dTileH = uint32_t(h), c.dTileW = uint32_t(w);
                return true;
            }
        }
    return false;
}

std::optional<CoopConfig> coopConfig(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g) {
    if (!pc.cooperativeMatrix || !pc.fp16Storage || !pc.caps || d.transposed || d.groups != 1) return std::nullopt;
    if (d.input.dataType != DataType::Float16 || d.output.dataType != DataType::Float16) return std::nullopt;
    const Capabilities& caps = *pc.caps;
    if (!hasCoopShape(caps) || caps.subgroupSize != kCoopSubgroupSize) return std::nullopt;
    CoopConfig c;
    c.nf = std::min(kCoopMaxNF, divUp(g.outC, kCoopFrag));
    c.nBlocks = divUp(g.outC, c.nf * kCoopFrag);
    c.nPad = c.nBlocks * c.nf * kCoopFrag;
    c.vecIn = vectorChannels(d.input);
    c.vecOut = vectorChannels(d.output);
    uint32_t taps = g.kH * g.kW;
    c.icPad = roundUp(g.inC, kCoopFrag);
    c.kPad = roundUp(g.inC * taps, kCoopFrag);
    const uint64_t outSmem = uint64_t(kCoopSubgroups) * kCoopFrag * kCoopFrag * 4;
    const uint64_t smemLimit = caps.maxComputeSharedMemoryBytes;
    // Larger M per subgroup first, then the 4-fragment fallback when its tile does not fit. Under
    // AllowHalfPrecisionComputation (activations fp16 end to end, checked above) fp16
    // accumulators allow 8 M fragments with 4 N fragments too; they run only with 8 (header of
    // conv2d_coopmat.comp), so the fallback to 4 goes back to fp32 accumulators.
    std::vector<uint32_t> mfs;
    for (uint32_t mf = std::min(kCoopMaxMF, (pc.fp16Arithmetic ? 2 * kCoopMaxAcc : kCoopMaxAcc) / c.nf); mf >= 4; mf /= 2) mfs.push_back(mf);
    // Direct staging pads the channels of every tap to 16; when that would cost more than 1.5x the
    // K of the im2col order (few input channels: 3, 5, 17), gather im2col instead.
    bool direct = uint64_t(c.icPad) * taps * 2 <= uint64_t(c.kPad) * 3;
    c.mode = kCoopIm2col;
    // Unfold-x (few input channels, kW x inC <= 16): K = kH x 16, the tile staged once (3 -> 64
    // 5x5: 80 instead of direct staging's 400). Measured on the H100 at 1080p, fp16: 5x5 3->64
    // 0.40 ms (tiled kernel 1.10, with fp16 arithmetic 0.50), 3x3 3->64 0.27 ms (0.59 / 0.39). It
    // keeps 4 M fragments and fp32 accumulators: for the 5x5, 8 fragments (with fp16 accumulators)
    // took 0.60 ms and 2 or 1 fragments 1.00 / 0.68 ms (against 0.45 before the staging loaded each
    // element once); 10 channels (kW x inC = 30, two K steps per row, an 8-fragment tile with 37 KB
    // of shared memory) made the shipped denoiser 0.3 ms slower than direct staging.
    const bool unfold = g.kW * g.inC <= kCoopFrag && uint64_t(g.kH) * kCoopFrag < uint64_t(c.icPad) * taps;
    if (unfold) {
        const uint32_t mf = 4, tileH = kCoopSubgroups * mf * kCoopFrag / kCoopTileW;
        uint64_t h = coopInputTile(d, g, tileH).first;
        if (h * kCoopTileW * kCoopFrag * 2 + outSmem <= smemLimit) {
            c.mode = kCoopUnfoldX, c.mf = mf, c.tileH = tileH;
            c.dTileH = uint32_t(h), c.dTileW = kCoopTileW;
            c.icPad = kCoopFrag;
            c.aSmem = c.dTileH * kCoopTileW * kCoopFrag;
            c.kRows = g.kH * kCoopFrag;
        }
    }
    for (uint32_t mf : mfs) {
        if (!direct || c.mode == kCoopUnfoldX) break;
        uint32_t tileH = kCoopSubgroups * mf * kCoopFrag / kCoopTileW;
        auto [h, w] = coopInputTile(d, g, tileH);
        if (h * w * kCoopFrag * 2 + outSmem > smemLimit) continue;
        c.mode = kCoopDirect, c.mf = mf, c.tileH = tileH;
        c.dTileH = uint32_t(h), c.dTileW = uint32_t(w);
        c.aSmem = c.dTileH * c.dTileW * kCoopFrag;
        c.kRows = c.icPad * taps;
        break;
    }
    if (c.mode == kCoopIm2col && !coopIm2colLayout(c, d, g, mfs, smemLimit - outSmem)) return std::nullopt;
    c.acc16 = pc.fp16Arithmetic && c.mf == kCoopMaxMF;
    // Few input channels: the portable tiled kernel measured faster (header comment).
    if (c.mode == kCoopIm2col && !(pc.executionFlags & ExecutionFlagForceCooperativeMatrix) && tiledConfig(d, g)) return std::nullopt;
    uint64_t z = uint64_t(g.batch) * c.nBlocks;
    c.groups = {divUp(g.outW, kCoopTileW), divUp(g.outH, c.tileH), uint32_t(std::min<uint64_t>(z, UINT32_MAX))};
    if (c.groups[0] > 65535 || c.groups[1] > 65535 || z > 65535 || c.weightBytes() > UINT32_MAX) return std::nullopt;
    return c;
}

// Packs the filter into the B matrix of `c` at `slot` (persistent or temporary), element offset
// `dstOffset`; the launch goes to `launches` (initialize or execute).
void addPackCoop(Plan& plan, std::vector<Launch>& launches, const ConvolutionDesc& d, const ConvGeometry& g, const CoopConfig& c,
                 uint32_t slot, uint32_t dstOffset) {
    auto s = d.filter.effectiveStrides();
    std::vector<uint32_t> spec(kCPackConstCount, 0);
    spec[0] = kPackLocalSize, spec[1] = spec[2] = 1;
    spec[kCPackOutC] = g.outC, spec[kCPackInC] = g.inC, spec[kCPackKH] = g.kH, spec[kCPackKW] = g.kW;
    spec[kCPackMode] = c.mode, spec[kCPackIcPad] = c.icPad, spec[kCPackKRows] = c.kRows, spec[kCPackNPad] = c.nPad;
    spec[kCPackSrcSlot] = kConvFilterSlot, spec[kCPackSrcType] = shaderType(d.filter.dataType);
    spec[kCPackSrcOc] = s[0], spec[kCPackSrcIc] = s[1], spec[kCPackSrcKy] = s[2], spec[kCPackSrcKx] = s[3];
    spec[kCPackDstSlot] = slot, spec[kCPackDstOffset] = dstOffset;
    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size());
    launch.groups = linearGroups(uint64_t(c.kRows) * c.nPad, kPackLocalSize);
    plan.pipelines.push_back({shaders::pack_conv_coopmat_f16(), std::move(spec), "pack_conv_coopmat"});
    launches.push_back(launch);
}

std::vector<uint32_t> convSpecConstants(const ConvolutionDesc& d, const ConvGeometry& g, const WeightSource& w,
                                        const std::optional<BiasSource>& b) {
    std::vector<uint32_t> s(kConvConstCount, 0);
    auto in = d.input.effectiveStrides();
    auto out = d.output.effectiveStrides();
    s[kBatch] = g.batch, s[kInC] = g.inC, s[kInH] = g.inH, s[kInW] = g.inW;
    s[kOutC] = g.outC, s[kOutH] = g.outH, s[kOutW] = g.outW, s[kKH] = g.kH, s[kKW] = g.kW;
    s[kStrideY] = d.strides[0], s[kStrideX] = d.strides[1], s[kDilY] = d.dilations[0], s[kDilX] = d.dilations[1];
    s[kPadT] = d.padBegin[0], s[kPadL] = d.padBegin[1];
    s[kGroupInC] = g.groupInC, s[kGroupOutC] = g.groupOutC, s[kTransposed] = d.transposed;
    s[kInType] = shaderType(d.input.dataType);
    s[kInStrideN] = in[0], s[kInStrideC] = in[1], s[kInStrideH] = in[2], s[kInStrideW] = in[3];
    s[kOutType] = shaderType(d.output.dataType), s[kOutSlot] = kConvOutputSlot;
    s[kOutStrideN] = out[0], s[kOutStrideC] = out[1], s[kOutStrideH] = out[2], s[kOutStrideW] = out[3];
    s[kWSlot] = w.slot, s[kWType] = w.type, s[kWOffset] = w.offset, s[kWBlock] = w.block, s[kWBlockStride] = w.blockStride;
    s[kWLaneStride] = w.laneStride, s[kWIcStride] = w.icStride, s[kWKyStride] = w.kyStride, s[kWKxStride] = w.kxStride;
    s[kHasBias] = b.has_value();
    if (b) s[kBSlot] = b->slot, s[kBType] = b->type, s[kBOffset] = b->offset, s[kBStride] = b->stride;
    s[kAct] = uint32_t(d.activation.type), s[kActAlpha] = asUint(d.activation.alpha), s[kActBeta] = asUint(d.activation.beta);
    s[kTapStepY] = d.transposed ? d.strides[0] / std::gcd(d.strides[0], d.dilations[0]) : 1;
    s[kTapStepX] = d.transposed ? d.strides[1] / std::gcd(d.strides[1], d.dilations[1]) : 1;
    return s;
}

bool anyHalf(const ConvolutionDesc& d) {
    return d.input.dataType == DataType::Float16 || d.filter.dataType == DataType::Float16 || d.output.dataType == DataType::Float16 ||
           (d.bias && d.bias->dataType == DataType::Float16);
}


// The kernel a convolution runs on: the shared-memory implicit GEMM, the tensor-core kernel with
// per-subgroup staging (coopmat), or the portable ones (tiled, generic).
struct KernelChoice {
    std::optional<IgemmLayout> igemm;
    std::optional<CoopConfig> coop;
    std::optional<WinogradLayout> winograd;  // only from a tuning table entry
};

constexpr const char* kCoopCandidate = "coopmat";

// Fusions past the depth-to-space need the implicit GEMM; conv2d_coopmat takes the rest.
bool needsIgemm(const ConvolutionFusion& f) { return f.preluSlope || f.residual || f.needsImplicitGemm(); }

std::string tensorClass(const TensorDesc& t) { return vectorizable16(t) ? "v" : t.isPacked() ? "p" : "s"; }

// The tuning key: the device and driver, then every property of the shape that the candidates'
// relative speed depends on.
std::string tuningKey(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f) {
    std::string k = pc.caps->deviceName + "|" + pc.caps->driverInfo + "|conv";
    auto add = [&](const char* name, auto... v) {
        k += std::string(" ") + name;
        ((k += std::to_string(v) + "x"), ...);
        k.pop_back();
    };
    add("k", g.kH, g.kW);
    add("s", d.strides[0], d.strides[1]);
    add("d", d.dilations[0], d.dilations[1]);
    add("in", g.batch, g.inC);  // not the image size: one measurement serves every resolution
    k += tensorClass(f.source ? *f.source : d.input);
    add("out", g.outC);
    k += tensorClass(d.output);
    if (f.depthToSpace) k += " d2s";
    if (f.pooledOutput) k += " pool";
    if (f.residualLinear) k += " bilinear-residual";
    if (f.source) k += f.concat ? " concat" : " upsampled";
    if (f.projection) {
        add("proj", f.projection->output.sizes[1]);
        k += tensorClass(f.projection->output);
    }
    if (pc.fp16Arithmetic) k += " arith";
    return k;
}

// Every kernel that can run `d` with `f`: implicit-GEMM tiles first (the default first), then
// coopmat, then Winograd tiles (3x3 stride 1 only). Empty: no tensor-core kernel.
struct Candidates {
    std::vector<IgemmLayout> igemm;
    std::vector<WinogradLayout> winograd;
    std::optional<CoopConfig> coop;
};
Candidates tensorCoreCandidates(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f) {
    Candidates c;
    c.igemm = igemmCandidates(pc, d, g, f);
    c.winograd = winogradCandidates(pc, d, g, f);
    if (!needsIgemm(f)) c.coop = coopConfig(pc, d, g);
    return c;
}

KernelChoice chooseKernel(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f) {
    KernelChoice k;
    const bool forced = pc.executionFlags & ExecutionFlagForceCooperativeMatrix;
    if (pc.tuning && pc.caps) {
        if (const TuningEntry* e = pc.tuning->find(tuningKey(pc, d, g, f))) {
            if (e->candidate == kCoopCandidate && !needsIgemm(f)) {
                if ((k.coop = coopConfig(pc, d, g))) return k;
            } else if (auto t = IgemmTile::parse(e->candidate)) {
                if ((k.igemm = igemmLayout(pc, d, g, f, *t))) return k;
            } else if (auto w = WinogradTile::parse(e->candidate)) {
                // Declined (stride, dilation, groups, kernel size, fusion, no tensor cores):
                // the heuristic below decides as if the entry were absent.
                if ((k.winograd = winogradLayout(pc, d, g, f, *w))) return k;
            }
        }
    }
    // The fixed heuristic: the implicit GEMM where its loads are 16-byte vectors (channels-last
    // fp16 intermediates), where the input has kIgemmMinPackedChannels channels or more (packed
    // NCHW inputs too), or where a fusion needs it; coopmat for the rest, images of a few
    // channels, whose unfold-x packs several taps into one K slice where the implicit GEMM would
    // pad 3 channels to 16. Measured on the H100 in whole networks (bench/RESULTS.md, "Clock
    // drift"): coopmat ahead with 3 channels (ESPCN's 5x5 3->64, the upscaler's 3x3 3->32), the
    // implicit GEMM ahead with packed inputs of 9, 10, 16 and 32 channels (the U-Net's first
    // layer, three of the denoiser's: 0.15 ms of its 1.30).
    // ExecutionFlagForceCooperativeMatrix (tests) prefers coopmat wherever it can run.
    constexpr uint32_t kIgemmMinPackedChannels = 8;
    std::optional<IgemmLayout> igemm = igemmDefault(pc, d, g, f);
    if (!needsIgemm(f)) k.coop = coopConfig(pc, d, g);
    const bool igemmLoadsWell = igemm && (igemm->vecIn || g.inC >= kIgemmMinPackedChannels);
    if (igemm && (needsIgemm(f) || (igemmLoadsWell && !(forced && k.coop)))) {
        k.coop.reset();
        k.igemm = igemm;
    } else if (!k.coop && igemm && (forced || !tiledConfig(d, g))) {
        k.igemm = igemm;
    }
    return k;
}

}  // namespace

bool convolutionUsesTensorCores(const PlanContext& pc, const ConvolutionDesc& d) {
    if (!validateConvolution(d, pc).ok()) return false;
    KernelChoice k = chooseKernel(pc, d, convolutionGeometry(d), {});
    return k.igemm || k.coop || (k.winograd && !k.winograd->tile.portable);  // all three take channels-last fp16
}

bool convolutionTakesFusion(const PlanContext& pc, const ConvolutionDesc& d, const ConvolutionFusion& f) {
    if (!validateConvolution(d, pc).ok()) return false;
    if (!needsIgemm(f)) return true;  // a depth-to-space alone: every kernel
    return igemmDefault(pc, d, convolutionGeometry(d), f).has_value();
}

ConvolutionTuning convolutionTuning(const PlanContext& pc, const ConvolutionDesc& d, const ConvolutionFusion& f) {
    ConvolutionTuning t;
    if (!validateConvolution(d, pc).ok() || !pc.caps) return t;
    ConvGeometry g = convolutionGeometry(d);
    t.key = tuningKey(pc, d, g, f);
    Candidates c = tensorCoreCandidates(pc, d, g, f);
    for (const IgemmLayout& l : c.igemm) t.candidates.push_back(l.tile.name());
    if (c.coop) t.candidates.push_back(kCoopCandidate);
    // Last: a tuner that stops after the first few (bridge::TuneOptions::maxCandidates) drops
    // Winograd, measured slower than the implicit GEMM on every shape tried, before coopmat.
    for (const WinogradLayout& l : c.winograd) t.candidates.push_back(l.tile.name());
    KernelChoice k = chooseKernel(pc, d, g, f);
    t.chosen = k.igemm ? k.igemm->tile.name() : k.winograd ? k.winograd->tile.name() : k.coop ? kCoopCandidate : "portable";
    return t;
}

namespace {

// What pack_conv_coopmat.comp needs to lay a filter out as tiled B matrices: `mode` (3: the
// implicit GEMM's [nBlocks][kRows][bn]; 4 and 5: Winograd's U = G g G^T in [nBlocks][slices][16 or 36][nf][16][16]),
// `icPad` input channels per K slice, `kRows`, `nBlocks` blocks of `bn` output channels.
struct FilterPacking {
    uint32_t mode, icPad, kRows, nBlocks, bn;
    const char* name;
};

// Packs the filter as `p` says at `slot`, element offset `dstOffset`.
void addPackFilter(Plan& plan, std::vector<Launch>& launches, const ConvolutionDesc& d, const ConvGeometry& g, const FilterPacking& p,
                   uint32_t slot, uint32_t dstOffset, uint32_t srcSlot = kConvFilterSlot) {
    auto s = d.filter.effectiveStrides();
    std::vector<uint32_t> spec(kCPackConstCount + 1, 0);
    spec[0] = kPackLocalSize, spec[1] = spec[2] = 1;
    spec[kCPackOutC] = g.outC, spec[kCPackInC] = g.inC, spec[kCPackKH] = g.kH, spec[kCPackKW] = g.kW;
    spec[kCPackMode] = p.mode, spec[kCPackIcPad] = p.icPad, spec[kCPackKRows] = p.kRows;
    spec[kCPackNPad] = p.nBlocks * p.bn;
    spec[kCPackSrcSlot] = srcSlot, spec[kCPackSrcType] = shaderType(d.filter.dataType);
    spec[kCPackSrcOc] = s[0], spec[kCPackSrcIc] = s[1], spec[kCPackSrcKy] = s[2], spec[kCPackSrcKx] = s[3];
    spec[kCPackDstSlot] = slot, spec[kCPackDstOffset] = dstOffset;
    spec[kCPackConstCount] = p.bn;
    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size());
    launch.groups = linearGroups(uint64_t(p.kRows) * p.nBlocks * p.bn, kPackLocalSize);
    plan.pipelines.push_back({shaders::pack_conv_coopmat_f16(), std::move(spec), p.name});
    launches.push_back(launch);
}

// The implicit GEMM's B matrix [nBlocks][kRows][bn] (pack_conv_coopmat.comp mode 3).
FilterPacking igemmPacking(const IgemmLayout& l) {
    return {3, IgemmLayout::kSliceChannels, l.kRows(), l.nBlocks, l.tile.bn(), "pack_conv_igemm"};
}

// Specialization constant ids of shaders/ml/conv2d_igemm.comp (after conv2d_params.glsl's).
enum IgemmConst : uint32_t {
    kIgTileH = 75, kIgFw, kIgWgM, kIgWgN, kIgMf, kIgNf, kIgNBlocks, kIgCc, kIgSlices, kIgKyStage, kIgHaloH, kIgHaloW, kIgASmem,
    kIgVecIn, kIgVecOut, kIgPreluOffset, kIgResSlot, kIgResType, kIgResStrideN, kIgResStrideC, kIgResStrideH, kIgResStrideW,
    kIgResScale, kIgPool, kIgIn2Slot, kIgIn1C, kIgIn1Scale, kIgIn1StrideN, kIgIn1StrideC, kIgIn1StrideH, kIgIn1StrideW,
    kIgIn1H, kIgIn1W, kIgVecIn2, kIgResLinear, kIgResH, kIgResW, kIgClamp, kIgClampMin, kIgClampMax, kIgFragStore, kIgProjC,
    kIgProjWOffset, kIgProjBOffset, kIgProjAct, kIgProjAlpha, kIgProjBeta, kIgConstCount
};
static_assert(kIgTileH > kD2sCrd && kIgVecIn2 == 108 && kIgFragStore == 115 && kIgProjBeta == 121, "conv2d_igemm.comp's constant ids");

// Where a fused projection's packed weights and bias sit in the persistent resource.
struct ProjectionPlacement {
    uint32_t weightVec4 = 0;              // uvec4 offset of W2^T [outC][nPad] fp16
    uint32_t biasOffset = UINT32_MAX;     // fp32 element offset of b2; ~0: none
};

void fillIgemmConstants(std::vector<uint32_t>& spec, const ConvolutionDesc& d, const ConvolutionFusion& f, const IgemmLayout& l,
                        uint32_t preluOffset, const ProjectionPlacement& projection) {
    spec.resize(kIgConstCount, 0);
    const IgemmTile& t = l.tile;
    spec[0] = t.subgroups() * 32, spec[1] = spec[2] = 1;
    spec[kIgTileH] = t.tileH, spec[kIgFw] = t.fw, spec[kIgWgM] = t.wgM, spec[kIgWgN] = t.wgN, spec[kIgMf] = t.mf, spec[kIgNf] = t.nf;
    spec[kIgNBlocks] = l.nBlocks, spec[kIgCc] = IgemmLayout::kSliceChannels, spec[kIgSlices] = l.slices, spec[kIgKyStage] = l.kyStage;
    spec[kIgHaloH] = l.haloH, spec[kIgHaloW] = l.haloW, spec[kIgASmem] = l.aSmem;
    spec[kIgVecIn] = l.vecIn, spec[kIgVecIn2] = l.vecIn2, spec[kIgVecOut] = l.vecOut, spec[kIgFragStore] = l.fragStore;
    spec[kIgPreluOffset] = preluOffset;
    spec[kIgResSlot] = UINT32_MAX;
    if (f.residual) {
        auto r = f.residual->effectiveStrides();
        spec[kIgResSlot] = kConvResidualSlot, spec[kIgResType] = shaderType(f.residual->dataType);
        spec[kIgResStrideN] = r[0], spec[kIgResStrideC] = r[1], spec[kIgResStrideH] = r[2], spec[kIgResStrideW] = r[3];
        spec[kIgResScale] = f.residualScale;
        spec[kIgResLinear] = f.residualLinear;
        spec[kIgResH] = f.residual->sizes[2], spec[kIgResW] = f.residual->sizes[3];
    }
    if (f.clampAfterResidual) {
        spec[kIgClamp] = 1;
        spec[kIgClampMin] = std::bit_cast<uint32_t>((*f.clampAfterResidual)[0]);
        spec[kIgClampMax] = std::bit_cast<uint32_t>((*f.clampAfterResidual)[1]);
    }
    spec[kIgPool] = f.pooledOutput.has_value();
    spec[kIgProjBOffset] = UINT32_MAX;
    if (f.projection) {  // the stored tensor is the projection's output
        const ConvolutionDesc& p = *f.projection;
        auto out = p.output.effectiveStrides();
        spec[kOutType] = shaderType(p.output.dataType);
        spec[kOutStrideN] = out[0], spec[kOutStrideC] = out[1], spec[kOutStrideH] = out[2], spec[kOutStrideW] = out[3];
        spec[kIgProjC] = p.output.sizes[1];
        spec[kIgProjWOffset] = projection.weightVec4, spec[kIgProjBOffset] = projection.biasOffset;
        spec[kIgProjAct] = uint32_t(p.activation.type);
        spec[kIgProjAlpha] = std::bit_cast<uint32_t>(p.activation.alpha), spec[kIgProjBeta] = std::bit_cast<uint32_t>(p.activation.beta);
    }
    spec[kIgIn2Slot] = UINT32_MAX;
    spec[kIgIn1Scale] = 1;
    if (f.source) {
        auto s = f.source->effectiveStrides();
        spec[kIgIn1C] = f.source->sizes[1], spec[kIgIn1Scale] = f.sourceScale;
        spec[kIgIn1StrideN] = s[0], spec[kIgIn1StrideC] = s[1], spec[kIgIn1StrideH] = s[2], spec[kIgIn1StrideW] = s[3];
        spec[kIgIn1H] = f.source->sizes[2], spec[kIgIn1W] = f.source->sizes[3];
        if (f.concat) {
            auto c = f.concat->effectiveStrides();
            spec[kIgIn2Slot] = kConvConcatSlot;
            spec[kInStrideN] = c[0], spec[kInStrideC] = c[1], spec[kInStrideH] = c[2], spec[kInStrideW] = c[3];
        }
    }
    (void)d;
}

// Specialization constant ids of shaders/ml/conv2d_winograd.comp (after conv2d_params.glsl's).
enum WinogradConst : uint32_t { kWgBlocksY = 75, kWgBlocksX, kWgNf, kWgNBlocks, kWgSlices, kWgPreluOffset, kWgVec2In, kWgSubgroups, kWgConstCount };
static_assert(kWgBlocksY > kD2sCrd && kWgSubgroups == 82, "conv2d_winograd.comp's constant ids");

// U = G g G^T of every filter (pack_conv_coopmat.comp mode 4, F(4x4): mode 5) in
// [nBlocks][slices][positions][nf][16][16].
FilterPacking winogradPacking(const WinogradLayout& l) {
    const bool f4 = l.tile.outBlock == 4;
    return {f4 ? 5u : 4u, 16, l.kRows(), l.nBlocks, l.tile.bn(), f4 ? "pack_conv_winograd4" : "pack_conv_winograd"};
}

Result<Plan> planConvolutionStore(const PlanContext& pc, const ConvolutionDesc& d, const ConvolutionFusion& fusion) {
    MLP_TRY(validateConvolution(d, pc));
    ConvGeometry g = convolutionGeometry(d);
    bool f16 = anyHalf(d);
    // Weights are stored at the precision the activations have: fp16 networks keep fp16 weights.
    DataType weightType = d.input.dataType;
    Plan plan;
    plan.pipelines.push_back({});  // the convolution kernel, filled in below

    const DepthToSpaceDesc* d2s = fusion.depthToSpace ? &*fusion.depthToSpace : nullptr;
    KernelChoice kernel = chooseKernel(pc, d, g, fusion);
    if (needsIgemm(fusion) && !kernel.igemm && !kernel.winograd)  // Winograd takes only what it can run
        return unsupported(describe("convolution", d.name) + ": its fused epilogue or input needs the tensor-core implicit GEMM, which cannot run it here");
    std::optional<IgemmLayout>& igemm = kernel.igemm;
    std::optional<CoopConfig>& coop = kernel.coop;
    std::optional<WinogradLayout>& winograd = kernel.winograd;

    PersistentAllocator persistent;
    WeightSource weights = filterInSlot(d, g);
    if (igemm || coop || winograd) {  // only slot and offset of WeightSource matter to the tensor-core kernels
        weights = WeightSource{};
        uint64_t bytes = igemm ? igemm->weightBytes() : winograd ? winograd->weightBytes() : coop->weightBytes();
        auto pack = [&](std::vector<Launch>& launches, uint32_t slot, uint32_t offset) {
            if (igemm) addPackFilter(plan, launches, d, g, igemmPacking(*igemm), slot, offset);
            else if (winograd) addPackFilter(plan, launches, d, g, winogradPacking(*winograd), slot, offset);
            else addPackCoop(plan, launches, d, g, *coop, slot, offset);
        };
        if (d.filter.ownedByPlugin()) {
            uint64_t offset = persistent.allocate(bytes);
            weights.slot = kPersistentSlot, weights.offset = uint32_t(offset / 2);
            pack(plan.initialize, kPersistentSlot, weights.offset);
        } else {
            weights.slot = kTemporarySlot;
            plan.temporaryBytes = bytes;
            pack(plan.execute, kTemporarySlot, 0);
        }
    } else if (d.filter.ownedByPlugin()) {
        uint64_t offset = persistent.allocate(packedFilterElements(g) * byteSize(weightType));
        weights = packedFilter(g, weightType, offset);
        addPackFilter(plan, d, g, weightType, offset, f16);
    }
    std::optional<BiasSource> bias;
    if (d.bias) {
        auto s = d.bias->effectiveStrides();
        bias = BiasSource{kConvBiasSlot, shaderType(d.bias->dataType), 0, d.bias->rank == 1 ? s[0] : s[1]};
        if (d.bias->ownedByPlugin()) {
            uint64_t offset = persistent.allocate(uint64_t(g.outC) * byteSize(weightType));
            bias = BiasSource{kPersistentSlot, shaderType(weightType), uint32_t(offset / byteSize(weightType)), 1};
            addPackTensor(plan, *d.bias, kConvBiasSlot, weightType, offset, f16);
        }
    }
    uint32_t preluOffset = UINT32_MAX;
    if (fusion.preluSlope) {  // fp32 slopes in the persistent resource
        uint64_t offset = persistent.allocate(uint64_t(g.outC) * 4);
        preluOffset = uint32_t(offset / 4);
        addPackTensor(plan, *fusion.preluSlope, kConvSlopeSlot, DataType::Float32, offset, f16);
    }
    ProjectionPlacement projection;
    if (fusion.projection) {  // W2^T as the implicit GEMM's B matrix of a 1x1 filter (one N block), fp32 b2
        const ConvolutionDesc& p = *fusion.projection;
        if (!igemm || !p.filter.ownedByPlugin() || (p.bias && !p.bias->ownedByPlugin()))
            return unsupported(describe("convolution", d.name) + ": a fused 1x1 projection needs owned weights and the tensor-core implicit GEMM");
        const ConvGeometry pg = convolutionGeometry(p);
        const uint32_t nPad = (pg.outC + 15) / 16 * 16;
        uint64_t offset = persistent.allocate(uint64_t(g.outC) * nPad * 2);
        projection.weightVec4 = uint32_t(offset / 16);
        addPackFilter(plan, plan.initialize, p, pg, {3, IgemmLayout::kSliceChannels, g.outC, 1, nPad, "pack_conv_projection"}, kPersistentSlot,
                      uint32_t(offset / 2), kConvProjectionFilterSlot);
        if (p.bias) {
            offset = persistent.allocate(uint64_t(pg.outC) * 4);
            projection.biasOffset = uint32_t(offset / 4);
            addPackTensor(plan, *p.bias, kConvProjectionBiasSlot, DataType::Float32, offset, f16);
        }
    }
    plan.persistentBytes = persistent.totalBytes();

    std::vector<uint32_t> spec = convSpecConstants(d, g, weights, bias);
    spec.resize(kConvSpecCount);
    // With fp16 arithmetic allowed, a tanh into an fp16 output takes the cheaper formula
    // (ACT_TANH_FAST in common.glsl: an exponential and a reciprocal). H100, ESPCN x2 at 1080p:
    // 1.335 -> 1.23 ms, relative L2 error against the fp64 reference unchanged (4.48e-4).
    // The tensor-core kernels then take their F16_ARITH builds, whose ACT_TANH_FAST is an fp16
    // tanh (one hardware instruction): 1.205 -> 1.19 ms more on the same network.
    const bool tanhFast = pc.fp16Arithmetic && d.activation.type == ActivationType::Tanh && d.output.dataType == DataType::Float16;
    if (tanhFast) spec[kAct] = kActTanhFast;
    spec[kD2sBlock] = 1;
    if (d2s) {  // stores land in the depth-to-space output, remapped per element
        auto out = d2s->output.effectiveStrides();
        spec[kOutStrideN] = out[0], spec[kOutStrideC] = out[1], spec[kOutStrideH] = out[2], spec[kOutStrideW] = out[3];
        spec[kD2sBlock] = d2s->blockSize, spec[kD2sCrd] = d2s->order == DepthSpaceOrder::CRD;
        if (coop) coop->vecOut = 0;
    }
    if (fusion.pooledOutput) {
        auto out = fusion.pooledOutput->effectiveStrides();
        spec[kOutStrideN] = out[0], spec[kOutStrideC] = out[1], spec[kOutStrideH] = out[2], spec[kOutStrideW] = out[3];
    }
    Launch launch;
    if (winograd) {
        const WinogradTile& t = winograd->tile;
        spec.resize(kWgConstCount, 0);
        spec[0] = t.subgroups * 32, spec[1] = spec[2] = 1;
        spec[kWgBlocksY] = t.blocksY, spec[kWgBlocksX] = t.blocksX, spec[kWgNf] = t.nf;
        spec[kWgNBlocks] = winograd->nBlocks, spec[kWgSlices] = winograd->slices, spec[kWgPreluOffset] = preluOffset;
        spec[kWgVec2In] = winograd->vec2In, spec[kWgSubgroups] = t.subgroups;
        launch.groups = winograd->groups;
        launch.barrierBefore = !plan.execute.empty();  // reads the weights packed by the launch before
        const bool f4 = t.outBlock == 4;
        std::span<const uint32_t> spirv = t.portable ? (f4 ? shaders::conv2d_winograd4_portable_f16() : shaders::conv2d_winograd_portable_f16())
                                          : t.acc16  ? (f4 ? shaders::conv2d_winograd4_acc16_f16() : shaders::conv2d_winograd_acc16_f16())
                                                     : (f4 ? shaders::conv2d_winograd4_f16() : shaders::conv2d_winograd_f16());
        const char* name = t.portable ? (f4 ? "conv2d_winograd4_portable" : "conv2d_winograd_portable")
                           : t.acc16  ? (f4 ? "conv2d_winograd4_acc16" : "conv2d_winograd_acc16")
                                      : (f4 ? "conv2d_winograd4" : "conv2d_winograd");
        plan.pipelines[0] = {spirv, std::move(spec), name};
    } else if (igemm) {
        fillIgemmConstants(spec, d, fusion, *igemm, preluOffset, projection);
        launch.groups = igemm->groups;
        launch.barrierBefore = !plan.execute.empty();  // reads the weights packed by the launch before
        if (igemm->tile.acc16) plan.pipelines[0] = {shaders::conv2d_igemm_acc16_f16(), std::move(spec), "conv2d_igemm_acc16"};
        else if (tanhFast) plan.pipelines[0] = {shaders::conv2d_igemm_f16_arith(), std::move(spec), "conv2d_igemm_arith"};
        else plan.pipelines[0] = {shaders::conv2d_igemm_f16(), std::move(spec), "conv2d_igemm"};
    } else if (coop) {
        spec[0] = kCoopWorkgroup, spec[1] = 1, spec[2] = 1;
        spec[kCcMode] = coop->mode, spec[kCcTileH] = coop->tileH, spec[kCcTileW] = kCoopTileW, spec[kCcMF] = coop->mf;
        spec[kCcNF] = coop->nf, spec[kCcNBlocks] = coop->nBlocks, spec[kCcNPad] = coop->nPad, spec[kCcIcPad] = coop->icPad;
        spec[kCcKChunk] = coop->kChunk, spec[kCcKPad] = coop->kPad, spec[kCcDTileH] = coop->dTileH, spec[kCcDTileW] = coop->dTileW;
        spec[kCcAPitch] = coop->aPitch, spec[kCcASmem] = coop->aSmem, spec[kCcSubgroups] = kCoopSubgroups;
        spec[kCcRawSmem] = coop->rawSmem, spec[kCcVecIn] = coop->vecIn, spec[kCcVecOut] = coop->vecOut;
        launch.groups = coop->groups;
        launch.barrierBefore = !plan.execute.empty();  // reads the weights packed by the launch before
        if (coop->acc16) plan.pipelines[0] = {shaders::conv2d_coopmat_acc16_f16(), std::move(spec), "conv2d_coopmat_acc16"};
        else if (coop->mf > 4) plan.pipelines[0] = {shaders::conv2d_coopmat_mf8_f16(), std::move(spec), "conv2d_coopmat"};
        else if (tanhFast) plan.pipelines[0] = {shaders::conv2d_coopmat_f16_arith(), std::move(spec), "conv2d_coopmat_arith"};
        else plan.pipelines[0] = {shaders::conv2d_coopmat_f16(), std::move(spec), "conv2d_coopmat"};
    } else if (auto tiled = tiledConfig(d, g)) {
        spec[0] = 8, spec[1] = 8, spec[2] = 1;
        spec[kCiChunk] = tiled->ciChunk, spec[kInTileH] = tiled->inTileH, spec[kInTileW] = tiled->inTileW;
        spec[kOcBlocks] = divUp(g.outC, kOcBlock);
        launch.groups = tiled->groups;
        // fp16 arithmetic only where the activations are fp16 end to end: an fp32 tensor asked
        // for fp32 precision whatever the flag says.
        bool halfArithmetic = pc.fp16Arithmetic && d.input.dataType == DataType::Float16 && d.output.dataType == DataType::Float16;
        std::span<const uint32_t> spirv = halfArithmetic ? shaders::conv2d_tiled_f16_arith()
                                          : f16          ? shaders::conv2d_tiled_f16()
                                                         : shaders::conv2d_tiled_f32();
        plan.pipelines[0] = {spirv, std::move(spec), halfArithmetic ? "conv2d_tiled_f16_arith" : "conv2d_tiled"};
    } else {
        spec[0] = kGenericLocalSize, spec[1] = 1, spec[2] = 1;
        launch.groups = linearGroups(uint64_t(g.batch) * g.outC * g.outH * g.outW, kGenericLocalSize);
        plan.pipelines[0] = {f16 ? shaders::conv2d_f16() : shaders::conv2d_f32(), std::move(spec), "conv2d"};
    }
    plan.execute.push_back(launch);
    return plan;
}

}  // namespace

Result<Plan> planConvolution(const PlanContext& pc, const ConvolutionDesc& d) { return planConvolutionStore(pc, d, {}); }

namespace {

bool sameShape(const TensorDesc& t, std::initializer_list<uint32_t> sizes) {
    if (t.rank != sizes.size()) return false;
    uint32_t i = 0;
    for (uint32_t s : sizes)
        if (t.sizes[i++] != s) return false;
    return true;
}

// The fused tensors against the convolution's shape (graph compilation builds them; a mismatch
// is a compiler bug, reported like any invalid desc).
Status checkFusion(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f, const std::string& op) {
    auto bad = [&](const char* what, const TensorDesc& t) { return invalidArgument(op + ": fused " + what + " " + t.toString() + " does not fit " + d.output.toString()); };
    if (f.preluSlope) {
        const TensorDesc& s = *f.preluSlope;
        bool perChannel = s.elementCount() == g.outC && (s.rank == 1 || (s.rank == 3 && s.sizes[1] == 1 && s.sizes[2] == 1) ||
                                                          (s.rank == 4 && s.sizes[0] == 1 && s.sizes[2] == 1 && s.sizes[3] == 1));
        if (!perChannel) return bad("PReLU slope", s);
        MLP_TRY(checkTensor(s, op, "PReLU slope", false, pc));
    }
    const TensorDesc& stored = f.depthToSpace ? f.depthToSpace->output : d.output;
    if (f.clampAfterResidual && (!f.residual || std::isnan((*f.clampAfterResidual)[0]) || std::isnan((*f.clampAfterResidual)[1])))
        return invalidArgument(op + ": a fused clamp needs a fused residual and numeric bounds");
    if (f.residual) {
        const uint32_t r = f.residualScale;
        if (r == 0 || stored.sizes[2] % r || stored.sizes[3] % r || f.pooledOutput ||
            !sameShape(*f.residual, {g.batch, stored.sizes[1], stored.sizes[2] / r, stored.sizes[3] / r}))
            return bad("residual", *f.residual);
        MLP_TRY(checkTensor(*f.residual, op, "residual", false, pc));
    }
    if (f.source) {
        const TensorDesc& s = *f.source;
        const uint32_t u = f.sourceScale;
        uint32_t c1 = s.rank == 4 ? s.sizes[1] : 0;
        if (u == 0 || s.rank != 4 || s.sizes[0] != g.batch || uint64_t(s.sizes[2]) * u != g.inH || uint64_t(s.sizes[3]) * u != g.inW ||
            c1 == 0 || c1 > g.inC || (c1 < g.inC) != f.concat.has_value())
            return invalidArgument(op + ": fused input source " + s.toString() + " (x" + std::to_string(u) + ") does not fit " + d.input.toString());
        MLP_TRY(checkTensor(s, op, "input source", false, pc));
        if (f.concat) {
            if (!sameShape(*f.concat, {g.batch, g.inC - c1, g.inH, g.inW}))
                return invalidArgument(op + ": fused concat part " + f.concat->toString() + " does not fit " + d.input.toString());
            MLP_TRY(checkTensor(*f.concat, op, "concat part", false, pc));
        }
    } else if (f.concat) {
        return invalidArgument(op + ": a fused concat part needs the first part as the input source");
    }
    if (f.pooledOutput) {
        if (f.depthToSpace || !sameShape(*f.pooledOutput, {g.batch, g.outC, g.outH / 2, g.outW / 2}))
            return bad("2x2 max-pool output", *f.pooledOutput);
        MLP_TRY(checkTensor(*f.pooledOutput, op, "pooled output", true, pc));
    }
    if (f.projection) {
        const ConvolutionDesc& p = *f.projection;
        MLP_TRY(validateConvolution(p, pc));
        const ConvGeometry pg = convolutionGeometry(p);
        bool pointwise = !p.transposed && p.groups == 1 && pg.kH == 1 && pg.kW == 1 && p.strides == std::array<uint32_t, 2>{1, 1} &&
                         p.padBegin == std::array<uint32_t, 2>{0, 0} && p.padEnd == std::array<uint32_t, 2>{0, 0};
        if (!pointwise || f.depthToSpace || f.pooledOutput || f.residual || !sameShape(p.input, {g.batch, g.outC, g.outH, g.outW}) ||
            p.input.dataType != d.output.dataType)
            return invalidArgument(op + ": fused projection '" + p.name + "' (" + p.input.toString() + " -> " + p.output.toString() +
                                   ") is not a 1x1 convolution of " + d.output.toString());
    }
    return {};
}

}  // namespace

Result<Plan> planConvolution(const PlanContext& pc, const ConvolutionDesc& d, const ConvolutionFusion& fusion) {
    const std::string op = describe("convolution", d.name);
    ConvGeometry g = convolutionGeometry(d);
    if (fusion.depthToSpace) {
        const DepthToSpaceDesc& storeThrough = *fusion.depthToSpace;
        const TensorDesc& mid = storeThrough.input;
        const TensorDesc& out = storeThrough.output;
        const uint32_t b = storeThrough.blockSize;
        bool fits = b > 1 && mid.rank == 4 && out.rank == 4 && g.outC % (b * b) == 0 && mid.sizes[1] == g.outC && mid.sizes[2] == g.outH &&
                    mid.sizes[3] == g.outW && out.sizes[0] == g.batch && out.sizes[1] == g.outC / (b * b) && out.sizes[2] == g.outH * b &&
                    out.sizes[3] == g.outW * b && out.dataType == d.output.dataType;
        if (!fits)
            return invalidArgument(op + ": depth-to-space '" + storeThrough.name + "' (block " + std::to_string(b) + ", " + mid.toString() +
                                   " -> " + out.toString() + ") does not match the convolution's output " + d.output.toString());
        MLP_TRY(checkTensor(out, op, "depth-to-space output", true, pc));
    }
    MLP_TRY(checkFusion(pc, d, g, fusion, op));
    return planConvolutionStore(pc, d, fusion);
}

}  // namespace mlplugin::detail
