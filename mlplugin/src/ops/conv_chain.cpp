// Planner for fused convolution chains (graph compilation; see kernel.h ConvChain and
// shaders/ml/conv_chain.comp). The layers were validated as ordinary convolutions when the graph
// was built; here the chain's own constraints are checked, the output tile is chosen so the
// intermediates fit shared memory at the least recomputed halo, and the weights are packed.
#include "kernel.h"
#include "ml_shaders.h"
#include "ops/weight_packing.h"

#include <algorithm>

namespace mlplugin::detail {
namespace {

// Specialization constant ids of shaders/ml/conv_chain.comp.
enum ChainConst : uint32_t {
    kLayers = 3, kImgH, kImgW, kTileW, kTileH, kInType, kInStrideN, kInStrideC, kInStrideH, kInStrideW,
    kOutType, kOutStrideN, kOutStrideC, kOutStrideH, kOutStrideW, kD2sBlock, kD2sCrd, kSmemF16, kSmemX, kSmemY, kSmemX16, kSmemY16,
    kLayer0 = 25,
};
enum LayerConst : uint32_t { kCin, kCout, kKH, kKW, kWOff, kHasB, kBOff, kAct, kAlpha, kBeta, kHY, kHX, kLayerConstCount };
// Specialization constant ids of shaders/ml/pack_conv_weights.comp (PackConst in convolution.cpp).
enum PackConst : uint32_t {
    kPackOutC = 3, kPackGroupInC, kPackKH, kPackKW, kPackBlock, kPackSrcSlot, kPackSrcType, kPackSrcBlock, kPackSrcBlockStride,
    kPackSrcLaneStride, kPackSrcIcStride, kPackSrcKyStride, kPackSrcKxStride, kPackDstType, kPackDstOffset, kPackConstCount
};

// Mirror P and OCB in conv_chain.comp.
constexpr uint32_t kPixelsPerItem = 4, kChannelsPerItem = 8;
// Issued multiply-adds (halos recomputed, idle invocations, padded channel blocks) over the
// layers' own work, at most, for a forced chain.
constexpr double kMaxRecompute = 4.0;

struct LayerShape {
    uint32_t cin, cout, kh, kw, hy, hx;  // hy, hx: halo of the layer's output region
};

struct Tile {
    uint32_t w = 0, h = 0, threads = 0;
    uint64_t smemX = 0, smemY = 0;  // elements
    double cost = 0;                // issued multiply-adds per output pixel, idle invocations included
};

std::vector<LayerShape> layerShapes(const ConvChain& c) {
    std::vector<LayerShape> s;
    for (const ConvolutionDesc& d : c.layers) s.push_back({d.input.sizes[1], d.output.sizes[1], d.filter.sizes[2], d.filter.sizes[3], 0, 0});
    for (size_t l = s.size(); l-- > 1;) {
        s[l - 1].hy = s[l].hy + (s[l].kh - 1) / 2;
        s[l - 1].hx = s[l].hx + (s[l].kw - 1) / 2;
    }
    return s;
}

// Intermediates (and the staged input) are kept in fp16 when the network stores them in fp16.
bool halfIntermediates(const ConvChain& c) {
    return std::all_of(c.layers.begin(), c.layers.end(), [](const ConvolutionDesc& d) { return d.input.dataType == DataType::Float16; });
}

// Empty when the chain can run fused, else why not.
std::string shapeProblem(const ConvChain& c) {
    if (c.layers.size() < 2 || c.layers.size() > kMaxConvChainLayers)
        return "a chain has 2.." + std::to_string(kMaxConvChainLayers) + " convolutions, got " + std::to_string(c.layers.size());
    for (size_t l = 0; l < c.layers.size(); ++l) {
        const ConvolutionDesc& d = c.layers[l];
        std::string at = "layer " + std::to_string(l) + " ('" + d.name + "')";
        if (d.input.rank != 4 || d.filter.rank != 4 || d.output.rank != 4) return at + " is not 2-D (NCHW)";
        if (d.transposed || d.groups != 1) return at + " is transposed or grouped";
        if (d.strides != std::array<uint32_t, 2>{1, 1} || d.dilations != std::array<uint32_t, 2>{1, 1}) return at + " has strides or dilations";
        for (int i = 0; i < 2; ++i) {
            uint32_t k = d.filter.sizes[2 + i];
            if (k % 2 == 0 || d.padBegin[i] != k / 2 || d.padEnd[i] != k / 2) return at + " has no 'same' padding of an odd kernel";
        }
        for (int i = 0; i < 4; ++i)
            if (i != 1 && d.output.sizes[i] != d.input.sizes[i]) return at + " changes the batch or spatial size";
        if (d.filter.sizes[0] != d.output.sizes[1] || d.filter.sizes[1] != d.input.sizes[1]) return at + " filter does not match its channels";
        if (l > 0) {
            const TensorDesc& prev = c.layers[l - 1].output;
            for (int i = 0; i < 4; ++i)
                if (prev.sizes[i] != d.input.sizes[i]) return at + " does not read the previous layer's output as is";
            if (prev.dataType != d.input.dataType) return at + " reads the previous layer's output as another type";
        }
    }
    if (c.depthToSpace) {
        const DepthToSpaceDesc& s = *c.depthToSpace;
        const TensorDesc& last = c.layers.back().output;
        uint32_t b = s.blockSize;
        bool same = s.input.rank == 4 && s.output.rank == 4;
        for (int i = 0; same && i < 4; ++i) same = s.input.sizes[i] == last.sizes[i];
        if (!same || b < 2 || last.sizes[1] % (b * b) != 0 || s.output.sizes[1] != last.sizes[1] / (b * b) ||
            s.output.sizes[2] != last.sizes[2] * b || s.output.sizes[3] != last.sizes[3] * b)
            return "the depth-to-space does not match the last layer's output";
    }
    return {};
}

// The tile with the fewest issued multiply-adds per output pixel. `unbounded`: as if the image
// were infinite (whether fusing pays does not depend on the image size; the tile for a small
// image does).
std::optional<Tile> chooseTile(const ConvChain& c, uint32_t sharedBytes, bool unbounded) {
    std::vector<LayerShape> s = layerShapes(c);
    const TensorDesc& in = c.layers[0].input;
    uint64_t height = in.sizes[2], width = in.sizes[3];
    uint64_t elem = halfIntermediates(c) ? 2 : 4;
    uint64_t inHY = s[0].hy + (s[0].kh - 1) / 2, inHX = s[0].hx + (s[0].kw - 1) / 2;
    std::optional<Tile> best;
    for (uint32_t threads : {128u, 256u}) {
        for (uint32_t th = 1; th <= 32; ++th) {
            for (uint32_t tw = 4; tw <= 64; tw += 4) {
                auto region = [&](uint64_t hy, uint64_t hx) { return (th + 2 * hy) * (tw + 2 * hx); };
                uint64_t x = s[0].cin * region(inHY, inHX);
                if (s.size() > 2) x = std::max(x, uint64_t(s[1].cout) * region(s[1].hy, s[1].hx));
                uint64_t y = uint64_t(s[0].cout) * region(s[0].hy, s[0].hx);
                if ((x + y) * elem > sharedBytes) continue;
                uint64_t groupsX = (width + tw - 1) / tw, groupsY = (height + th - 1) / th;
                if (groupsX > 65535 || groupsY > 65535) continue;
                double perGroup = 0;
                for (const LayerShape& l : s) {
                    uint64_t pixels = region(l.hy, l.hx);
                    uint64_t items = (pixels + kPixelsPerItem - 1) / kPixelsPerItem * ((l.cout + kChannelsPerItem - 1) / kChannelsPerItem);
                    uint64_t rounds = (items + threads - 1) / threads;
                    perGroup += double(rounds) * threads * l.cin * l.kh * l.kw * kPixelsPerItem * kChannelsPerItem;
                }
                double cost = unbounded ? perGroup / (tw * th) : perGroup * double(groupsX * groupsY) / double(width * height);
                if (!best || cost < best->cost) best = Tile{tw, th, threads, x, y, cost};
            }
        }
    }
    return best;
}

double idealCost(const ConvChain& c) {
    double macs = 0;
    for (const LayerShape& l : layerShapes(c)) macs += double(l.cin) * l.cout * l.kh * l.kw;
    return macs;
}

void addPackFilter(Plan& plan, const ConvolutionDesc& d, uint32_t slot, DataType dstType, uint64_t byteOffset, bool f16) {
    auto s = d.filter.effectiveStrides();
    std::vector<uint32_t> spec(kPackConstCount, 0);
    spec[0] = kPackLocalSize;
    spec[1] = spec[2] = 1;
    spec[kPackOutC] = d.filter.sizes[0];
    spec[kPackGroupInC] = d.filter.sizes[1];
    spec[kPackKH] = d.filter.sizes[2];
    spec[kPackKW] = d.filter.sizes[3];
    spec[kPackBlock] = kChannelsPerItem;
    spec[kPackSrcSlot] = slot;
    spec[kPackSrcType] = shaderType(d.filter.dataType);
    spec[kPackSrcBlock] = 1;
    spec[kPackSrcBlockStride] = s[0];
    spec[kPackSrcIcStride] = s[1];
    spec[kPackSrcKyStride] = s[2];
    spec[kPackSrcKxStride] = s[3];
    spec[kPackDstType] = shaderType(dstType);
    spec[kPackDstOffset] = uint32_t(byteOffset / byteSize(dstType));
    uint64_t elements = uint64_t(divUp(d.filter.sizes[0], kChannelsPerItem)) * kChannelsPerItem * d.filter.sizes[1] * d.filter.sizes[2] *
                        d.filter.sizes[3];
    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size());
    launch.groups = linearGroups(elements, kPackLocalSize);
    plan.pipelines.push_back({f16 ? shaders::pack_conv_weights_f16() : shaders::pack_conv_weights_f32(), std::move(spec), "pack_conv_weights"});
    plan.initialize.push_back(launch);
}

}  // namespace

bool convChainFits(const ConvChain& c, uint32_t sharedMemoryBytes, bool force) {
    // Not unless forced, yet: on the H100 this FMA kernel lost wherever it was measured, also
    // with nothing recomputed (shipped denoiser, ratio 1.0: 7.7 vs 4.3 ms fp32, 4.6 vs 4.1 ms fp16
    // at 1080p; ESPCN x2, ratio 1.8: 13.2 vs 6.1 ms fp16). The layers are compute-bound there and
    // the per-layer kernels issue their FMAs more efficiently; a cooperative-matrix inner product
    // is what should make the saved memory traffic count.
    if (!force || !shapeProblem(c).empty()) return false;
    std::optional<Tile> tile = chooseTile(c, sharedMemoryBytes, true);
    return tile && tile->cost <= kMaxRecompute * idealCost(c);
}

Result<Plan> planConvChain(const PlanContext& pc, const ConvChain& c) {
    const std::string op = describe("convolution chain", c.name);
    if (std::string why = shapeProblem(c); !why.empty()) return invalidArgument(op + ": " + why);
    const TensorDesc& input = c.layers[0].input;
    const TensorDesc& output = c.output();
    MLP_TRY(checkTensor(input, op, "input", false, pc));
    MLP_TRY(checkTensor(output, op, "output", true, pc));
    bool anyF16 = input.dataType == DataType::Float16 || output.dataType == DataType::Float16;
    for (const ConvolutionDesc& d : c.layers) {
        MLP_TRY(checkTensor(d.filter, op, "filter", false, pc));
        if (d.bias) MLP_TRY(checkTensor(*d.bias, op, "bias", false, pc));
        if (!d.filter.ownedByPlugin() || (d.bias && !d.bias->ownedByPlugin()))
            return invalidArgument(op + ": the filters and biases of '" + d.name + "' must be owned by the plugin (they are packed at initialization)");
        anyF16 |= d.output.dataType == DataType::Float16;
    }
    bool f16Smem = halfIntermediates(c);
    uint32_t sharedBytes = pc.caps && pc.caps->maxComputeSharedMemoryBytes ? pc.caps->maxComputeSharedMemoryBytes : 16384;
    std::optional<Tile> tile = chooseTile(c, sharedBytes, false);
    if (!tile)
        return unsupported(op + ": the intermediates of even the smallest tile need more than the device's " + std::to_string(sharedBytes) +
                           " bytes of shared memory");
    uint32_t batch = input.sizes[0];
    if (batch > 65535) return unsupported(op + ": batch " + std::to_string(batch) + " exceeds 65535 workgroups");

    Plan plan;
    plan.pipelines.push_back({});  // the chain kernel, filled in below
    DataType weightType = f16Smem ? DataType::Float16 : DataType::Float32;
    std::vector<uint32_t> spec(kLayer0 + kMaxConvChainLayers * kLayerConstCount, 0);
    PersistentAllocator persistent;
    std::vector<LayerShape> shapes = layerShapes(c);
    for (size_t l = 0; l < c.layers.size(); ++l) {
        const ConvolutionDesc& d = c.layers[l];
        const LayerShape& s = shapes[l];
        uint32_t* ls = spec.data() + kLayer0 + l * kLayerConstCount;
        uint64_t weights = uint64_t(divUp(s.cout, kChannelsPerItem)) * kChannelsPerItem * s.cin * s.kh * s.kw;
        uint64_t wOffset = persistent.allocate(weights * byteSize(weightType));
        addPackFilter(plan, d, uint32_t(1 + 2 * l), weightType, wOffset, anyF16);
        ls[kCin] = s.cin, ls[kCout] = s.cout, ls[kKH] = s.kh, ls[kKW] = s.kw;
        ls[kWOff] = uint32_t(wOffset / byteSize(weightType) / 4);
        if (d.bias) {
            uint64_t bOffset = persistent.allocate(uint64_t(s.cout) * byteSize(weightType));
            addPackTensor(plan, *d.bias, uint32_t(2 + 2 * l), weightType, bOffset, anyF16);
            ls[kHasB] = 1;
            ls[kBOff] = uint32_t(bOffset / byteSize(weightType));
        }
        ls[kAct] = uint32_t(d.activation.type), ls[kAlpha] = asUint(d.activation.alpha), ls[kBeta] = asUint(d.activation.beta);
        ls[kHY] = s.hy, ls[kHX] = s.hx;
    }
    plan.persistentBytes = persistent.totalBytes();

    auto in = input.effectiveStrides();
    auto out = output.effectiveStrides();
    spec[0] = tile->threads, spec[1] = spec[2] = 1;
    spec[kLayers] = uint32_t(c.layers.size());
    spec[kImgH] = input.sizes[2], spec[kImgW] = input.sizes[3];
    spec[kTileW] = tile->w, spec[kTileH] = tile->h;
    spec[kInType] = shaderType(input.dataType);
    spec[kInStrideN] = in[0], spec[kInStrideC] = in[1], spec[kInStrideH] = in[2], spec[kInStrideW] = in[3];
    spec[kOutType] = shaderType(output.dataType);
    spec[kOutStrideN] = out[0], spec[kOutStrideC] = out[1], spec[kOutStrideH] = out[2], spec[kOutStrideW] = out[3];
    spec[kD2sBlock] = c.depthToSpace ? c.depthToSpace->blockSize : 1;
    spec[kD2sCrd] = c.depthToSpace && c.depthToSpace->order == DepthSpaceOrder::CRD;
    spec[kSmemF16] = f16Smem;
    spec[kSmemX] = f16Smem ? 1 : uint32_t(tile->smemX);
    spec[kSmemY] = f16Smem ? 1 : uint32_t(tile->smemY);
    spec[kSmemX16] = f16Smem ? uint32_t(tile->smemX) : 1;
    spec[kSmemY16] = f16Smem ? uint32_t(tile->smemY) : 1;
    plan.pipelines[0] = {anyF16 ? shaders::conv_chain_f16() : shaders::conv_chain_f32(), std::move(spec), "conv_chain"};

    Launch launch;
    launch.groups = {divUp(input.sizes[3], tile->w), divUp(input.sizes[2], tile->h), batch};
    plan.execute.push_back(launch);
    return plan;
}

}  // namespace mlplugin::detail
