// Tile configurations of conv2d_winograd.comp (see its header for the algorithm); F(4x4, 3x3)
// tiles have 36 positions instead of 16 and the same limits.
//
// Registers bound the tiles: a subgroup holds 16 / subgroups positions x MF x NF accumulators
// (MF = blocks / 16), at most 8 with fp32 accumulators (64 registers per invocation, as
// conv2d_igemm's default tile), 16 with fp16 ones. 16 subgroups (512 invocations) hold one
// position each: twice the warps per SM for the same accumulators, at most 128 registers each. Shared memory: two V buffers of 16 positions x blocks x 48 bytes
// (49152 bytes for 32 blocks: exactly the H100's maxComputeSharedMemorySize under Vulkan).
// Weight traffic bounds them from below: a workgroup reads 16 x C x BN fp16 U values for its
// 4 x blocks output pixels; at 32 blocks x 32 channels that is 3.6x the filter bytes per output
// of conv2d_igemm's default tile (9 x C x 64 for 256 pixels x 64 channels), mostly from L1 (a
// 64 -> 64 layer's whole U is 128 KiB).
#include "ops/convolution_winograd.h"
#include "ops/tensor_core_tiles.h"

#include <algorithm>
#include <cstdio>

namespace mlplugin::detail {
namespace {

// Channels-last fp16 with even channel counts and strides: one 32-bit load per channel pair.
bool channelPairs(const TensorDesc& t) {
    if (t.dataType != DataType::Float16 || t.rank != 4) return false;
    auto s = t.effectiveStrides();
    return s[1] == 1 && t.sizes[1] % 2 == 0 && s[0] % 2 == 0 && s[2] % 2 == 0 && s[3] % 2 == 0;
}

}  // namespace

std::string WinogradTile::name() const {
    char buf[96], warps[16] = "";
    if (subgroups != 8) std::snprintf(warps, sizeof(warps), "_w%u", subgroups);
    std::snprintf(buf, sizeof(buf), "winograd%s_b%ux%u_n%u%s%s%s", outBlock == 4 ? "_f4" : "", blocksY, blocksX, nf, warps,
                  acc16 ? "_a16" : "", portable ? "_portable" : "");
    return buf;
}

std::optional<WinogradTile> WinogradTile::parse(const std::string& name) {
    WinogradTile t;
    int used = 0;
    const bool f4 = name.starts_with("winograd_f4_");
    if (std::sscanf(name.c_str(), f4 ? "winograd_f4_b%2ux%2u_n%2u%n" : "winograd_b%2ux%2u_n%2u%n", &t.blocksY, &t.blocksX, &t.nf, &used) != 3)
        return std::nullopt;
    t.outBlock = f4 ? 4 : 2;
    std::string rest = name.substr(size_t(used));
    if (rest.starts_with("_w")) {
        int digits = 0;
        if (std::sscanf(rest.c_str(), "_w%2u%n", &t.subgroups, &digits) != 1 || t.subgroups == 8) return std::nullopt;  // 8: no suffix
        rest = rest.substr(size_t(digits));
    }
    if (rest.starts_with("_a16")) t.acc16 = true, rest = rest.substr(4);
    if (rest.starts_with("_portable")) t.portable = true, rest = rest.substr(9);
    if (!rest.empty() || t.blocksY == 0 || t.blocksX == 0 || t.nf == 0 || t.blocks() % kFrag || (t.acc16 && t.portable)) return std::nullopt;
    if (t.subgroups == 0 || t.positions() % t.subgroups) return std::nullopt;  // whole positions per subgroup
    return t;
}

bool winogradApplies(const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f) {
    if (d.transposed || d.groups != 1 || g.kH != 3 || g.kW != 3) return false;
    if (d.strides[0] != 1 || d.strides[1] != 1 || d.dilations[0] != 1 || d.dilations[1] != 1) return false;
    if (d.input.dataType != DataType::Float16 || d.output.dataType != DataType::Float16 || d.input.rank != 4) return false;
    // The epilogue takes bias, activation and PReLU; the other fusions stay on conv2d_igemm.
    return !f.depthToSpace && !f.residual && !f.source && !f.concat && !f.pooledOutput && !f.projection;
}

std::optional<WinogradLayout> winogradLayout(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g,
                                             const ConvolutionFusion& f, const WinogradTile& t) {
    if (!pc.caps || !pc.fp16Storage || !winogradApplies(d, g, f)) return std::nullopt;
    // Up to 18 subgroups, 576 invocations: Capabilities has no maxComputeWorkGroupInvocations, but
    // the devices with NV cooperative matrices (and lavapipe, for the portable build) offer 1024.
    if (t.blocks() == 0 || t.blocks() % kFrag || t.nf == 0 || (t.outBlock != 2 && t.outBlock != 4)) return std::nullopt;
    if (t.subgroups == 0 || t.subgroups > 18 || t.positions() % t.subgroups) return std::nullopt;
    const uint32_t positions = t.positions() / t.subgroups;  // per subgroup
    const uint32_t accumulators = positions * (t.blocks() / kFrag) * t.nf;
    if (!t.portable) {
        if (!pc.cooperativeMatrix || pc.caps->subgroupSize != kSubgroupSize || !hasFragmentShape(*pc.caps, DataType::Float32)) return std::nullopt;
        if (accumulators > (t.acc16 ? kMaxAccumulators16 : kMaxAccumulators)) return std::nullopt;
        if (t.acc16 && (!pc.fp16Arithmetic || !hasFragmentShape(*pc.caps, DataType::Float16))) return std::nullopt;
    } else if (t.acc16 || positions * t.nf * t.blocks() / 2 > 64) {
        return std::nullopt;  // the emulation keeps positions x blocks x BN / 32 floats per invocation
    }
    WinogradLayout l;
    l.tile = t;
    l.slices = ceilDiv(g.inC, kFrag);
    l.nBlocks = ceilDiv(g.outC, t.bn());
    l.vec2In = channelPairs(d.input);
    if (l.sharedBytes() > pc.caps->maxComputeSharedMemoryBytes) return std::nullopt;
    const uint64_t x = uint64_t(ceilDiv(g.outW, t.outBlock * t.blocksX)) * l.nBlocks;
    l.groups = {uint32_t(std::min<uint64_t>(x, UINT32_MAX)), ceilDiv(g.outH, t.outBlock * t.blocksY), g.batch};
    if (x > 65535 || l.groups[1] > 65535 || l.groups[2] > 65535 || l.weightBytes() > UINT32_MAX) return std::nullopt;
    return l;
}

std::vector<WinogradLayout> winogradCandidates(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g,
                                               const ConvolutionFusion& f) {
    std::vector<WinogradLayout> out;
    if (!winogradApplies(d, g, f)) return out;
    const uint32_t frags = ceilDiv(g.outC, kFrag);
    auto add = [&](WinogradTile t) {
        t.nf = std::min(t.nf, frags);
        auto l = winogradLayout(pc, d, g, f, t);
        if (l && std::none_of(out.begin(), out.end(), [&](const WinogradLayout& o) { return o.tile == l->tile; })) out.push_back(*l);
    };
    // Measured on the H200 (SRVGG 540p with its 64 -> 64 layers on each tile, fp16, 2026-11-25
    // run 2; the implicit GEMM: 4.25 ms): 32 blocks x 64 channels on 16 subgroups 5.91 ms (128
    // registers: the input transformed once for all 64 channels, 16 warps per SM); 16 blocks x 32
    // channels 7.19 (115 registers, two workgroups per SM, but two N blocks transform the input
    // twice); dropped: 32 x 32 on 8 subgroups 8.36 (162 registers) and 16 x 64 on 8
    // subgroups 8.06 (174). fp16 accumulators (run 1, H100): 32 x 64 on 8 subgroups 7.05 vs 9.31
    // for the fp32 32 x 32 tile.
    add({.blocksY = 4, .blocksX = 8, .nf = 4, .subgroups = 16});
    add({.blocksY = 2, .blocksX = 8, .nf = 2});
    // F(4x4, 3x3): 16 blocks (a 16x16-pixel tile) and 36 positions; one V buffer of 27 KiB. 18
    // subgroups hold 2 positions x 4 N fragments each (the input transformed once for 64
    // channels), 9 subgroups 4 x 2.
    add({.blocksY = 4, .blocksX = 4, .nf = 4, .subgroups = 18, .outBlock = 4});
    add({.blocksY = 4, .blocksX = 4, .nf = 2, .subgroups = 9, .outBlock = 4});
    if (pc.fp16Arithmetic) {  // fp16 accumulators: twice the fragments in the same registers
        add({.blocksY = 4, .blocksX = 8, .nf = 4, .subgroups = 16, .acc16 = true});
        add({.blocksY = 4, .blocksX = 8, .nf = 4, .acc16 = true});
        add({.blocksY = 4, .blocksX = 4, .nf = 4, .subgroups = 9, .outBlock = 4, .acc16 = true});
    }
    return out;
}

}  // namespace mlplugin::detail
