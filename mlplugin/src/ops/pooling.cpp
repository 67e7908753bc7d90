// PLACEHOLDER until the pooling family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planPooling(const PlanContext&, const PoolingDesc& d) { return unsupported("Pooling '" + d.name + "': not implemented yet"); }
Result<HostTensors> referencePooling(const PoolingDesc& d, const HostTensors&) { return unsupported("Pooling '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
