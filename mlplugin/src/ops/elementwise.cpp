// PLACEHOLDER until the elementwise family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planElementWise(const PlanContext&, const ElementWiseDesc& d) { return unsupported("ElementWise '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceElementWise(const ElementWiseDesc& d, const HostTensors&) { return unsupported("ElementWise '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
