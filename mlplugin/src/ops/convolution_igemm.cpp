// Tile configurations of conv2d_igemm.comp (see its header for the algorithm).
//
// Shared memory per workgroup (16-byte units): the staged input tile + halo, HALO_H x HALO_W
// pixels of 16 channels padded to 3 units (48 bytes: 16 consecutive pixels of a fragment land in
// distinct banks), at least 64 units per subgroup for the epilogue's fp32 patches; and the B
// stage, kyStage x kW x 16 rows of bn() / 8 + 1 units. Both must fit maxComputeSharedMemorySize
// (48 KiB on the H100 under Vulkan).
#include "ops/convolution_igemm.h"
#include "ops/tensor_core_tiles.h"

#include <algorithm>
#include <cstdio>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kSlice = 16;
constexpr uint32_t kMaxProjection = 64;  // output channels of a fused 1x1 projection (its bias matrices stay in registers)

}  // namespace

bool vectorizable16(const TensorDesc& t) {
    if (t.dataType != DataType::Float16 || t.rank != 4) return false;
    auto s = t.effectiveStrides();
    return s[1] == 1 && t.sizes[1] % 8 == 0 && s[0] % 8 == 0 && s[2] % 8 == 0 && s[3] % 8 == 0;
}

std::string IgemmTile::name() const {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "igemm_t%ux%u_w%ux%u_f%ux%u%s%s", tileH, fw * kFrag, wgM, wgN, mf, nf, rowStages ? "_ky1" : "",
                  acc16 ? "_a16" : "");
    return buf;
}

std::optional<IgemmTile> IgemmTile::parse(const std::string& name) {
    IgemmTile t;
    uint32_t tw = 0;
    int used = 0;
    if (std::sscanf(name.c_str(), "igemm_t%ux%u_w%ux%u_f%ux%u%n", &t.tileH, &tw, &t.wgM, &t.wgN, &t.mf, &t.nf, &used) != 6) return std::nullopt;
    std::string rest = name.substr(size_t(used));
    if (rest.starts_with("_ky1")) t.rowStages = true, rest = rest.substr(4);
    if (rest.starts_with("_a16")) t.acc16 = true, rest = rest.substr(4);
    if (!rest.empty() || tw % kFrag || tw == 0) return std::nullopt;
    t.fw = tw / kFrag;
    if (t.tileH == 0 || t.wgM == 0 || t.wgN == 0 || t.mf == 0 || t.nf == 0 || t.wgM * t.mf != t.tileH * t.fw) return std::nullopt;
    return t;
}

bool igemmQualifies(const PlanContext& pc, const ConvolutionDesc& d, const ConvolutionFusion& f) {
    if (!pc.cooperativeMatrix || !pc.fp16Storage || !pc.caps || d.transposed || d.groups != 1) return false;
    if (pc.caps->subgroupSize != kSubgroupSize || !hasFragmentShape(*pc.caps, DataType::Float32)) return false;
    if (d.input.dataType != DataType::Float16 || d.output.dataType != DataType::Float16 || d.input.rank != 4) return false;
    if (f.source && f.source->dataType != DataType::Float16) return false;
    if (f.concat && f.concat->dataType != DataType::Float16) return false;
    if (f.pooledOutput && f.pooledOutput->dataType != DataType::Float16) return false;
    return true;
}

std::optional<IgemmLayout> igemmLayout(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f,
                                       const IgemmTile& t) {
    if (!igemmQualifies(pc, d, f)) return std::nullopt;
    if (t.tileH == 0 || t.fw == 0 || t.wgM * t.mf != t.tileH * t.fw || t.subgroups() > 8) return std::nullopt;
    if (t.mf * t.nf > (t.acc16 ? kMaxAccumulators16 : kMaxAccumulators)) return std::nullopt;
    if (t.acc16 && (!pc.fp16Arithmetic || !hasFragmentShape(*pc.caps, DataType::Float16))) return std::nullopt;
    // Pooling pairs tile rows inside one subgroup: rows 2r, 2r + 1 are fragments i, i + 1.
    if (f.pooledOutput && (t.fw != 1 || t.mf % 2 || t.tileH % 2 || f.depthToSpace || f.residual)) return std::nullopt;
    // A fused 1x1 projection multiplies each subgroup's own activated accumulators (the
    // epilogue's registers, no shared memory): one subgroup along N holding every channel in at
    // most two whole fragments, and at most four fragments of projection outputs.
    const bool projected = f.projection.has_value();
    if (projected && (f.depthToSpace || f.pooledOutput || f.residual || f.clampAfterResidual || g.outC % kFrag || t.wgN != 1 || t.nf > 2 ||
                      t.bn() < g.outC || f.projection->output.rank != 4 || f.projection->output.sizes[1] > kMaxProjection))
        return std::nullopt;
    IgemmLayout l;
    l.tile = t;
    l.taps = g.kH * g.kW;
    l.slices = ceilDiv(g.inC, kSlice);
    l.kyStage = t.rowStages ? 1 : g.kH;
    l.nBlocks = ceilDiv(g.outC, t.bn());
    l.haloH = (t.tileH - 1) * d.strides[0] + (g.kH - 1) * d.dilations[0] + 1;
    l.haloW = (t.fw * kFrag - 1) * d.strides[1] + (g.kW - 1) * d.dilations[1] + 1;
    const uint64_t staged = uint64_t(l.haloH) * l.haloW * (kSlice / 8 + 1);
    const uint64_t aSmem = std::max<uint64_t>(staged, uint64_t(t.subgroups()) * 64);
    const uint64_t bSmem = uint64_t(l.kyStage) * g.kW * kSlice * (t.bn() / 8 + 1);
    if ((aSmem + bSmem) * 16 > pc.caps->maxComputeSharedMemoryBytes) return std::nullopt;
    l.aSmem = uint32_t(aSmem), l.bSmem = uint32_t(bSmem);
    // Every input source vectorizable: one 16-byte load per 8 channels.
    if (f.source) {
        bool aligned = f.source->sizes[1] % 8 == 0;
        l.vecIn = vectorizable16(*f.source);
        l.vecIn2 = f.concat && aligned && vectorizable16(*f.concat);
    } else {
        l.vecIn = vectorizable16(d.input);
    }
    const TensorDesc& stored = f.stored(d);
    l.vecOut = !f.pooledOutput && !f.depthToSpace && vectorizable16(stored) &&
               (!f.residual || (vectorizable16(*f.residual) && f.residualScale >= 1 && !f.residualLinear));
    l.vecResidual = l.vecOut && f.residual;
    // The epilogue without the patch (conv2d_igemm.comp, epilogueFragments: where it was measured
    // faster): 16 real channels per fragment, the residual read 1:1, at most two N fragments per
    // subgroup. With a projection: its fragments, 16 real channels each, stored whole.
    const uint32_t storedC = projected ? stored.sizes[1] : g.outC;
    l.fragStore = l.vecOut && storedC % kFrag == 0 && (!f.residual || f.residualScale == 1) && t.nf <= 2;
    uint64_t z = uint64_t(g.batch) * l.nBlocks;
    l.groups = {ceilDiv(g.outW, t.fw * kFrag), ceilDiv(g.outH, t.tileH), uint32_t(std::min<uint64_t>(z, UINT32_MAX))};
    if (l.groups[0] > 65535 || l.groups[1] > 65535 || z > 65535 || l.weightBytes() > UINT32_MAX) return std::nullopt;
    return l;
}

namespace {

// The heuristic tile for `bnFrags` N fragments per workgroup: 8 subgroups, two along N when the
// block is even, as many M fragments per subgroup as the accumulator budget allows (at most 4,
// 8 with fp16 accumulators), tiles 16 pixels wide. One N fragment: 4 subgroups (16 x 16 tiles).
// Blocks of 2 or 3 N fragments stage B one kernel row per phase. Measured on the H100 by the
// tuner (whole networks, fp16 arithmetic, 2026-11-25): 64->32 1.34 vs 1.43 ms (ESPCN), 32->32
// 0.465 vs 0.507 ms (the shipped upscaler at 960x540); for 64 outputs the row stages lost (SRVGG
// 540p 4.91 vs 4.20 ms). Three fragments (48 outputs) were first left out and came in when
// networks nobody had tuned for showed it (2026-11-26, fp16): SRVGG 48 channels x 12 bodies at 540p
// 2.34 -> 1.95 ms, the last 32->48 + depth-to-space 4 of a 32-channel x4 SRVGG 1.59 -> 1.55 ms,
// the U-Nets 4.06 -> 4.00 and 2.70 -> 2.66 ms; no other network moved. One fragment (the RGB
// output layers, usually with depth-to-space) stages every kernel row at once: on the H100
// (2026-11-26, 1080p input, fp16 arithmetic) the shipped upscaler 1.435 -> 1.399 ms and ESPCN
// 1.244 -> 1.227 ms with its tail so; for SRVGG's 64->12 tail it made no difference.
IgemmTile tileFor(uint32_t bnFrags, bool acc16) {
    IgemmTile t;
    t.acc16 = acc16;
    t.wgN = bnFrags % 2 == 0 ? 2 : 1;
    t.nf = bnFrags / t.wgN;
    uint32_t budget = acc16 ? kMaxAccumulators16 : kMaxAccumulators;
    t.mf = std::clamp<uint32_t>(budget / t.nf, 1, acc16 ? 8 : 4);
    t.wgM = (acc16 || bnFrags == 1 ? 4 : 8) / t.wgN;
    t.fw = 1;
    t.tileH = t.wgM * t.mf;
    t.rowStages = bnFrags == 2 || bnFrags == 3;
    return t;
}

// Smaller variants of `t` until one fits: B one kernel row per phase, then fewer M fragments.
std::optional<IgemmLayout> firstFitting(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f,
                                        IgemmTile t) {
    const bool preferRows = t.rowStages;
    for (;;) {
        for (bool rows : {preferRows, !preferRows}) {
            t.rowStages = rows;
            if (auto l = igemmLayout(pc, d, g, f, t)) return l;
        }
        if (t.mf > 2) t.mf /= 2;
        else if (t.wgM > 1) t.wgM /= 2;
        else return std::nullopt;
        t.tileH = t.wgM * t.mf / t.fw;
    }
}

}  // namespace

std::optional<IgemmLayout> igemmDefault(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f) {
    if (!igemmQualifies(pc, d, f)) return std::nullopt;
    uint32_t frags = ceilDiv(g.outC, kFrag);
    if (f.projection) {  // every channel in each subgroup (igemmLayout's rule), 8 subgroups along M
        IgemmTile t = tileFor(frags, false);
        t.wgN = 1, t.nf = frags, t.wgM = 8, t.rowStages = false;
        t.mf = std::clamp<uint32_t>(kMaxAccumulators / t.nf, 1, 4);
        t.tileH = t.wgM * t.mf;
        return firstFitting(pc, d, g, f, t);
    }
    // Up to 4 N fragments per block (64 channels); wider outputs take several N blocks.
    uint32_t bnFrags = frags <= 4 ? frags : (frags % 4 == 0 || frags > 8 ? 4 : frags % 3 == 0 ? 3 : 4);
    return firstFitting(pc, d, g, f, tileFor(bnFrags, false));
}

std::vector<IgemmLayout> igemmCandidates(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f) {
    std::vector<IgemmLayout> out;
    auto add = [&](std::optional<IgemmLayout> l) {
        if (l && std::none_of(out.begin(), out.end(), [&](const IgemmLayout& o) { return o.tile == l->tile; })) out.push_back(*l);
    };
    std::optional<IgemmLayout> def = igemmDefault(pc, d, g, f);
    if (!def) return out;
    // Around the default, most promising first (a tuner may stop after the first few): B one
    // kernel row per phase, 4 subgroups, 32-pixel-wide tiles, fp16 accumulators (twice the M
    // fragments), then half the N block, then one block for up to 8 N fragments.
    auto around = [&](IgemmTile t, bool acc16) {
        t.acc16 = acc16;
        if (acc16) {
            t.mf = std::min(8u, kMaxAccumulators16 / t.nf);
            t.wgM = std::max(1u, 4 / t.wgN);
            t.tileH = t.wgM * t.mf;
        }
        add(firstFitting(pc, d, g, f, t));
        IgemmTile rows = t;
        rows.rowStages = !t.rowStages;
        add(igemmLayout(pc, d, g, f, rows));
        IgemmTile half = t;
        half.wgM = std::max(1u, t.wgM / 2);
        half.tileH = half.wgM * half.mf;
        if (!acc16) add(firstFitting(pc, d, g, f, half));
        IgemmTile wide = t;
        if ((wide.wgM * wide.mf) % 2 == 0 && !f.pooledOutput) {
            wide.fw = 2;
            wide.tileH = wide.wgM * wide.mf / 2;
            add(firstFitting(pc, d, g, f, wide));
        }
    };
    add(def);
    IgemmTile base = def->tile;
    around(base, false);
    if (pc.fp16Arithmetic) around(base, true);
    const uint32_t frags = ceilDiv(g.outC, kFrag), width = base.wgN * base.nf;
    // The whole N block in every subgroup (one subgroup along N): each A fragment a subgroup loads
    // from shared memory then feeds all the block's N fragments instead of half of them.
    if (base.wgN > 1) {
        for (bool acc16 : {false, true}) {
            if (acc16 && !pc.fp16Arithmetic) continue;
            IgemmTile t = base;
            t.acc16 = acc16;
            t.wgN = 1;
            t.nf = width;
            t.fw = 1;
            t.mf = std::clamp<uint32_t>((acc16 ? kMaxAccumulators16 : kMaxAccumulators) / t.nf, 1, acc16 ? 8 : 4);
            for (uint32_t wgM : {8u, 4u}) {
                t.wgM = wgM;
                t.tileH = t.wgM * t.mf;
                add(firstFitting(pc, d, g, f, t));
            }
        }
    }
    if (width >= 4 && width % 2 == 0) add(firstFitting(pc, d, g, f, tileFor(width / 2, false)));
    if (frags > width && frags <= 8) add(firstFitting(pc, d, g, f, tileFor(frags, false)));
    return out;
}

}  // namespace mlplugin::detail
