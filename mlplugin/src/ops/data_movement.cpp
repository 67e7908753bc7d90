// PLACEHOLDER until the data_movement family lands: every entry point reports Unsupported.
#include "kernel.h"

namespace mlplugin::detail {

Result<Plan> planDepthToSpace(const PlanContext&, const DepthToSpaceDesc& d) { return unsupported("DepthToSpace '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceDepthToSpace(const DepthToSpaceDesc& d, const HostTensors&) { return unsupported("DepthToSpace '" + d.name + "': no CPU reference yet"); }
Result<Plan> planSpaceToDepth(const PlanContext&, const SpaceToDepthDesc& d) { return unsupported("SpaceToDepth '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceSpaceToDepth(const SpaceToDepthDesc& d, const HostTensors&) { return unsupported("SpaceToDepth '" + d.name + "': no CPU reference yet"); }
Result<Plan> planConcat(const PlanContext&, const ConcatDesc& d) { return unsupported("Concat '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceConcat(const ConcatDesc& d, const HostTensors&) { return unsupported("Concat '" + d.name + "': no CPU reference yet"); }
Result<Plan> planSplit(const PlanContext&, const SplitDesc& d) { return unsupported("Split '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceSplit(const SplitDesc& d, const HostTensors&) { return unsupported("Split '" + d.name + "': no CPU reference yet"); }
Result<Plan> planSlice(const PlanContext&, const SliceDesc& d) { return unsupported("Slice '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceSlice(const SliceDesc& d, const HostTensors&) { return unsupported("Slice '" + d.name + "': no CPU reference yet"); }
Result<Plan> planPad(const PlanContext&, const PadDesc& d) { return unsupported("Pad '" + d.name + "': not implemented yet"); }
Result<HostTensors> referencePad(const PadDesc& d, const HostTensors&) { return unsupported("Pad '" + d.name + "': no CPU reference yet"); }
Result<Plan> planTranspose(const PlanContext&, const TransposeDesc& d) { return unsupported("Transpose '" + d.name + "': not implemented yet"); }
Result<HostTensors> referenceTranspose(const TransposeDesc& d, const HostTensors&) { return unsupported("Transpose '" + d.name + "': no CPU reference yet"); }

}  // namespace mlplugin::detail
