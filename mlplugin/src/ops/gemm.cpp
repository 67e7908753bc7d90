// PLACEHOLDER until the gemm family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planGemm(const PlanContext&, const GemmDesc& d) { return unsupported("Gemm '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceGemm(const GemmDesc& d, const HostTensors&) { return unsupported("Gemm '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
