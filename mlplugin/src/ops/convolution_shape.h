#pragma once
// Convolution validation and the derived shape, shared by the planner and the CPU reference.
#include "kernel.h"

namespace mlplugin::detail {

// Sizes of a validated ConvolutionDesc, with transposed filters already interpreted.
struct ConvGeometry {
    uint32_t batch = 0, inC = 0, inH = 0, inW = 0;
    uint32_t outC = 0, outH = 0, outW = 0;
    uint32_t kH = 0, kW = 0;
    uint32_t groupInC = 0, groupOutC = 0;  // channels per group
};

// Checks every tensor, size and parameter; messages start with describe("convolution", name).
Status validateConvolution(const ConvolutionDesc& d, const PlanContext& pc);
// Only meaningful after validateConvolution succeeded.
ConvGeometry convolutionGeometry(const ConvolutionDesc& d);

}  // namespace mlplugin::detail
