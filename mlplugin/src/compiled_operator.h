#pragma once
// Internal: a compiled operator: its plan's execute launches resolved to pipelines, the
// binding rules derived from its tensor descs, and what its initializer has to record.
#include "dispatchable_impl.h"
#include "mlplugin/operator_desc.h"

#include <atomic>
#include <memory>

namespace mlplugin::detail {

struct GraphReshapeInfo;

class CompiledOperatorImpl final : public CompiledOperator, public DispatchableImpl {
public:
    BindingProperties bindingProperties() const override;
    const std::string& name() const override { return label; }
    uint32_t inputCount() const override { return uint32_t(inputs.size()); }
    uint32_t outputCount() const override { return uint32_t(outputs.size()); }
    Status readyToRecord() const override;

    std::vector<TensorDesc> inputDescs;  // absent optional inputs: rank 0
    std::vector<bool> inputOwned;        // TensorFlagOwnedByPlugin: bound to the initializer only
    std::vector<std::string> inputNames;  // "input 1 'filter'"
    // Initialization. Launch sets are relative to the operator's first set in the initializer's
    // range; an operator alone uses one set (owned inputs at their input slot, the persistent
    // resource at kPersistentSlot). Compiled graphs use several and say where each binding goes.
    std::vector<RecordedLaunch> initializeLaunches;
    uint32_t initializeSetCount = 0;
    std::vector<std::vector<SubBinding>> initializeInputTargets;  // per input; empty: its own slot in set 0
    std::vector<SubBinding> initializePersistentTargets;          // empty: kPersistentSlot in set 0
    uint64_t persistentBytes = 0;
    uint64_t temporaryBytes = 0;
    // Set when an initializer recorded this operator's initialization (the Debug layer reports
    // executions before that). Not a GPU-completion guarantee: ordering is the app's contract.
    mutable std::atomic<bool> initialized{false};
    // Compiled graphs only: what reshapeGraph checks a new desc and the persistent resource
    // against (graph/graph_reshape.h).
    std::shared_ptr<const GraphReshapeInfo> reshapeInfo;
};

Result<std::unique_ptr<CompiledOperator>> compileOperator(DeviceImpl& device, const OperatorDesc& desc, uint32_t flags);
// compileOperator without a Vulkan device, for one with `caps`: every validation and planning
// step, launches and binding rules included, but no pipelines (VK_NULL_HANDLE) and no device, so
// the result can never be bound or recorded. For the fuzz targets (fuzz/) and CPU-only tests.
Result<std::unique_ptr<CompiledOperatorImpl>> compileOperatorOnCpu(const Capabilities& caps, const OperatorDesc& desc, uint32_t flags);
// The family planner for `desc` (std::visit over the OperatorDesc variant).
Result<Plan> planOperator(const PlanContext& pc, const OperatorDesc& desc);

// Names for messages: "input 1 'filter'", "output 0 'output'" (operatorInputs/Outputs order).
std::vector<std::string> inputSlotNames(const OperatorDesc& desc);
std::vector<std::string> outputSlotNames(const OperatorDesc& desc);

}  // namespace mlplugin::detail
