#pragma once
// Winograd F(2x2, 3x3) and F(4x4, 3x3) convolution on tensor cores (shaders/ml/conv2d_winograd.comp):
// its tile configurations, which of them can run a convolution, and the candidates a tuner
// chooses between. No default heuristic picks it (see convolution_winograd.cpp); it runs when a tuning
// table names it. convolution.cpp builds the plan from a WinogradLayout.
#include "ops/convolution_shape.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mlplugin::detail {

// One workgroup (`subgroups` subgroups, each owning positions() / subgroups of the positions)
// computes blocksY x blocksX output blocks of outBlock x outBlock pixels (F(2x2, 3x3): 16
// positions; F(4x4, 3x3): 36) x nf 16-channel N fragments; blocksY * blocksX is a multiple of 16
// (the M fragments).
struct WinogradTile {
    uint32_t blocksY = 4, blocksX = 8, nf = 2, subgroups = 8;
    uint32_t outBlock = 2;  // 2: F(2x2, 3x3); 4: F(4x4, 3x3)
    bool acc16 = false;     // fp16 accumulators (AllowHalfPrecisionComputation only)
    bool portable = false;  // tensor-core operations emulated with scalar loops (tests only, never a candidate)

    uint32_t blocks() const { return blocksY * blocksX; }
    uint32_t bn() const { return nf * 16; }
    uint32_t positions() const { return (outBlock + 2) * (outBlock + 2); }
    // "winograd_b4x8_n2" (F(4x4): "winograd_f4_b...") + "_w16" (subgroups other than 8) + "_a16"
    // (fp16 accumulators) or "_portable".
    std::string name() const;
    static std::optional<WinogradTile> parse(const std::string& name);
    bool operator==(const WinogradTile&) const = default;
};

// What the kernel's specialization constants and the launch need.
struct WinogradLayout {
    WinogradTile tile;
    uint32_t nBlocks = 1, slices = 1;
    bool vec2In = false;  // channel-pair (32-bit) input loads
    std::array<uint32_t, 3> groups{};
    uint32_t kRows() const { return slices * tile.positions() * 16; }  // packed U rows per N block
    uint64_t weightBytes() const { return uint64_t(kRows()) * nBlocks * tile.bn() * 2; }
    // The V buffers (two; F(4x4): one), a block row of 16 halves at a pitch of 48 bytes.
    uint64_t sharedBytes() const { return uint64_t(tile.outBlock == 4 ? 1 : 2) * tile.positions() * tile.blocks() * 48; }
};

// Whether the algorithm applies: 3x3, stride 1, dilation 1, groups 1, not transposed, fp16 input
// and output of rank 4, and no fusion but PReLU (bias and the fused activation always).
bool winogradApplies(const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f);
// `t` for `d`: nullopt when the algorithm does not apply, the device lacks what `t` needs
// (tensor cores with subgroups of 32, unless portable; fp16 accumulators only under fp16
// arithmetic), or its shared memory or dispatch does not fit.
std::optional<WinogradLayout> winogradLayout(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g,
                                             const ConvolutionFusion& f, const WinogradTile& t);
// The tiles a tuner tries, each of which fits (empty where Winograd does not apply).
std::vector<WinogradLayout> winogradCandidates(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g,
                                               const ConvolutionFusion& f);

}  // namespace mlplugin::detail
