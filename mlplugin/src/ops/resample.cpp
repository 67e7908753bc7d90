// PLACEHOLDER until the resample family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planResample(const PlanContext&, const ResampleDesc& d) { return unsupported("Resample '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceResample(const ResampleDesc& d, const HostTensors&) { return unsupported("Resample '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
