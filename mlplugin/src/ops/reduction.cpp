// PLACEHOLDER until the reduction family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planReduce(const PlanContext&, const ReduceDesc& d) { return unsupported("Reduce '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceReduce(const ReduceDesc& d, const HostTensors&) { return unsupported("Reduce '" + d.name + "': no CPU reference yet"); }
Result<Plan> planSoftmax(const PlanContext&, const SoftmaxDesc& d) { return unsupported("Softmax '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceSoftmax(const SoftmaxDesc& d, const HostTensors&) { return unsupported("Softmax '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
