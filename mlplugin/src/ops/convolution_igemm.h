#pragma once
// The shared-memory implicit-GEMM convolution (shaders/ml/conv2d_igemm.comp): its tile
// configurations, which of them can run a convolution, the heuristic default and the candidates
// a tuner chooses between. convolution.cpp builds the plan from an IgemmLayout.
#include "ops/convolution_shape.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace mlplugin::detail {

// One workgroup computes tileH x (16 fw) output pixels x bn() output channels with wgM x wgN
// subgroups of mf x nf 16x16 accumulators each (wgM * mf == tileH * fw).
struct IgemmTile {
    uint32_t tileH = 16, fw = 1, wgM = 4, wgN = 2, mf = 4, nf = 2;
    bool rowStages = false;  // B staged one kernel row per phase (else all rows of a slice at once)
    bool acc16 = false;      // fp16 accumulators (AllowHalfPrecisionComputation only)

    uint32_t subgroups() const { return wgM * wgN; }
    uint32_t bn() const { return wgN * nf * 16; }
    // "igemm_t16x16_w4x2_f4x2" + "_ky1" (row stages) + "_a16" (fp16 accumulators).
    std::string name() const;
    static std::optional<IgemmTile> parse(const std::string& name);
    bool operator==(const IgemmTile&) const = default;
};

// What the kernel's specialization constants and the launch need.
struct IgemmLayout {
    IgemmTile tile;
    uint32_t nBlocks = 1, slices = 1, taps = 1, kyStage = 1, haloH = 1, haloW = 1;
    uint32_t aSmem = 0, bSmem = 0;  // uvec4 (16 bytes) each
    bool vecIn = false, vecIn2 = false, vecOut = false, vecResidual = false;  // 16-byte accesses: input 0 / source, concat part, output, residual
    bool fragStore = false;  // whole 16 x 16 fragments stored straight from the accumulators (conv2d_igemm.comp FRAG_STORE)
    std::array<uint32_t, 3> groups{};
    static constexpr uint32_t kSliceChannels = 16;  // input channels per K slice (CC)
    uint32_t kRows() const { return slices * taps * kSliceChannels; }  // packed B rows per N block
    uint64_t weightBytes() const { return uint64_t(kRows()) * nBlocks * tile.bn() * 2; }
};

// Shape-independent rules: tensor cores usable, fp16 input and output (every source fp16),
// groups 1, not transposed, subgroups of 32.
bool igemmQualifies(const PlanContext& pc, const ConvolutionDesc& d, const ConvolutionFusion& f);
// `t` for `d`: nullopt when its shared memory or dispatch does not fit, or it cannot take `f`.
std::optional<IgemmLayout> igemmLayout(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g,
                                       const ConvolutionFusion& f, const IgemmTile& t);
// The fixed heuristic (no measurement): nullopt when no tile fits.
std::optional<IgemmLayout> igemmDefault(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f);
// The tiles a tuner tries (the default first), each of which fits.
std::vector<IgemmLayout> igemmCandidates(const PlanContext& pc, const ConvolutionDesc& d, const ConvGeometry& g, const ConvolutionFusion& f);

// Channels-last fp16, channel runs a multiple of 8 and every stride a multiple of 8 elements:
// 16-byte accesses of 8 channels.
bool vectorizable16(const TensorDesc& t);

}  // namespace mlplugin::detail
