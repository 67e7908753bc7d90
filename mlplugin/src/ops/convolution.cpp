// PLACEHOLDER until the convolution family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planConvolution(const PlanContext&, const ConvolutionDesc& d) { return unsupported("Convolution '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceConvolution(const ConvolutionDesc& d, const HostTensors&) { return unsupported("Convolution '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
