// PLACEHOLDER until the normalization family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planBatchNormalization(const PlanContext&, const BatchNormalizationDesc& d) { return unsupported("BatchNormalization '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceBatchNormalization(const BatchNormalizationDesc& d, const HostTensors&) { return unsupported("BatchNormalization '" + d.name + "': no CPU reference yet"); }
Result<Plan> planInstanceNormalization(const PlanContext&, const InstanceNormalizationDesc& d) { return unsupported("InstanceNormalization '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceInstanceNormalization(const InstanceNormalizationDesc& d, const HostTensors&) { return unsupported("InstanceNormalization '" + d.name + "': no CPU reference yet"); }
Result<Plan> planMeanVarianceNormalization(const PlanContext&, const MeanVarianceNormalizationDesc& d) { return unsupported("MeanVarianceNormalization '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceMeanVarianceNormalization(const MeanVarianceNormalizationDesc& d, const HostTensors&) { return unsupported("MeanVarianceNormalization '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
