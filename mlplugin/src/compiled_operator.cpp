// compileOperator: desc -> family planner -> Plan -> pipelines + binding rules.
#include "compiled_operator.h"

#include "device_impl.h"

#include <string>
#include <variant>

namespace mlplugin::detail {
namespace {

template <class... F>
struct Overloaded : F... { using F::operator()...; };
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

}  // namespace

Result<Plan> planOperator(const PlanContext& pc, const OperatorDesc& desc) {
    return std::visit(Overloaded{
        [&](const ElementWiseDesc& d) { return planElementWise(pc, d); },
        [&](const ConvolutionDesc& d) { return planConvolution(pc, d); },
        [&](const GemmDesc& d) { return planGemm(pc, d); },
        [&](const PoolingDesc& d) { return planPooling(pc, d); },
        [&](const ResampleDesc& d) { return planResample(pc, d); },
        [&](const GridSampleDesc& d) { return planGridSample(pc, d); },
        [&](const DepthToSpaceDesc& d) { return planDepthToSpace(pc, d); },
        [&](const SpaceToDepthDesc& d) { return planSpaceToDepth(pc, d); },
        [&](const ConcatDesc& d) { return planConcat(pc, d); },
        [&](const SplitDesc& d) { return planSplit(pc, d); },
        [&](const SliceDesc& d) { return planSlice(pc, d); },
        [&](const PadDesc& d) { return planPad(pc, d); },
        [&](const TransposeDesc& d) { return planTranspose(pc, d); },
        [&](const BatchNormalizationDesc& d) { return planBatchNormalization(pc, d); },
        [&](const InstanceNormalizationDesc& d) { return planInstanceNormalization(pc, d); },
        [&](const MeanVarianceNormalizationDesc& d) { return planMeanVarianceNormalization(pc, d); },
        [&](const ReduceDesc& d) { return planReduce(pc, d); },
        [&](const SoftmaxDesc& d) { return planSoftmax(pc, d); },
    }, desc);
}

namespace {

// "convolution 'conv1'", or just the kind for unnamed operators.
std::string describe(const OperatorDesc& desc) {
    const std::string& name = std::visit([](const auto& d) -> const std::string& { return d.name; }, desc);
    return name.empty() ? std::string(operatorKind(desc)) : std::string(operatorKind(desc)) + " '" + name + "'";
}

// A planner bug must not reach the GPU: check what would otherwise be undefined behaviour.
Status checkLaunches(const std::vector<Launch>& launches, const Plan& plan, const std::string& label, const char* which) {
    for (size_t i = 0; i < launches.size(); ++i) {
        const Launch& l = launches[i];
        std::string where = "internal error compiling " + label + ": " + which + " launch " + std::to_string(i);
        if (l.pipeline >= plan.pipelines.size()) return invalidArgument(where + " uses pipeline " + std::to_string(l.pipeline) + " of " + std::to_string(plan.pipelines.size()));
        if (l.pushWords > kMaxPushWords) return invalidArgument(where + " pushes " + std::to_string(l.pushWords) + " words");
        for (uint32_t g : l.groups)
            if (g == 0 || g > 65535) return invalidArgument(where + " has a workgroup count of " + std::to_string(g) + " (1..65535)");
    }
    return {};
}

// Pipelines come from `cache`; without one (compileOperatorOnCpu) they stay VK_NULL_HANDLE.
Result<std::vector<RecordedLaunch>> resolve(PipelineCache* cache, const Plan& plan, const std::vector<Launch>& launches,
                                            std::vector<VkPipeline>& pipelines) {
    std::vector<RecordedLaunch> out;
    for (size_t i = 0; i < launches.size(); ++i) {
        const Launch& l = launches[i];
        if (cache && pipelines[l.pipeline] == VK_NULL_HANDLE) {
            Result<VkPipeline> p = cache->get(plan.pipelines[l.pipeline]);
            if (!p) return p.error();
            pipelines[l.pipeline] = *p;
        }
        // The first launch depends on nothing of this dispatchable: the app orders its own resources.
        out.push_back({pipelines[l.pipeline], 0, l.barrierBefore && i > 0, l.groups, l.pushWords, l.push});
    }
    return out;
}

std::string forbiddenReason(bool owned) {
    return owned ? "it is owned by the plugin (TensorFlagOwnedByPlugin): bind it to the OperatorInitializer, not at execution"
                 : "the operator has no such optional tensor";
}

void buildRules(CompiledOperatorImpl& op, const OperatorDesc& desc) {
    std::vector<const TensorDesc*> ins = operatorInputs(desc);
    std::vector<const TensorDesc*> outs = operatorOutputs(desc);
    op.inputNames = inputSlotNames(desc);
    std::vector<std::string> outNames = outputSlotNames(desc);
    for (uint32_t i = 0; i < ins.size(); ++i) {
        const TensorDesc* t = ins[i];
        bool owned = t && t->ownedByPlugin();
        op.inputDescs.push_back(t ? *t : TensorDesc{});
        op.inputOwned.push_back(owned);
        SlotRule r{op.inputNames[i], 0, i};
        r.use = (t && !owned) ? SlotUse::Required : SlotUse::Forbidden;
        r.minBytes = t ? t->requiredBytes() : 0;
        r.tensor = t ? t->toString() : "";
        if (r.use == SlotUse::Forbidden) r.whyForbidden = forbiddenReason(owned);
        op.inputs.push_back(std::move(r));
    }
    for (uint32_t i = 0; i < outs.size(); ++i) {
        SlotRule r{outNames[i], 0, uint32_t(ins.size() + i), SlotUse::Required, outs[i]->requiredBytes()};
        r.tensor = outs[i]->toString();
        op.outputs.push_back(std::move(r));
    }
    auto resource = [](const char* name, uint32_t slot, uint64_t bytes, uint64_t alignment) {
        SlotRule r{name, 0, slot, bytes ? SlotUse::Required : SlotUse::Forbidden, bytes, alignment};
        if (!bytes) r.whyForbidden = std::string("the operator needs no ") + name + " (BindingProperties says 0 bytes)";
        return r;
    };
    op.temporary = resource("temporary resource", kTemporarySlot, op.temporaryBytes, kTemporaryAlignment);
    op.persistent = resource("persistent resource", kPersistentSlot, op.persistentBytes, kPersistentAlignment);
}

}  // namespace

BindingProperties CompiledOperatorImpl::bindingProperties() const {
    return {setCount, setCount * kDescriptorsPerSet, temporaryBytes, persistentBytes};
}

Status CompiledOperatorImpl::readyToRecord() const {
    bool needsInit = !initializeLaunches.empty() || persistentBytes > 0;
    if (needsInit && !initialized.load())
        return invalidArgument("persistent resource of " + label +
                               " was never initialized: record an OperatorInitializer with this operator before executing it");
    return {};
}

namespace {

// compileOperator with the device's plan context and pipeline cache (nullptr: no pipelines).
Result<std::unique_ptr<CompiledOperatorImpl>> buildOperator(const PlanContext& pc, PipelineCache* cache, const DeviceImpl* device,
                                                             const OperatorDesc& desc) {
    std::string label = describe(desc);
    size_t slots = operatorInputs(desc).size() + operatorOutputs(desc).size();
    if (slots > kMaxTensorSlots)
        return invalidArgument("failed to compile " + label + ": it has " + std::to_string(slots) +
                               " input and output tensors; at most " + std::to_string(kMaxTensorSlots) + " fit one descriptor set");
    for (const TensorDesc* t : operatorOutputs(desc))
        if (t->ownedByPlugin()) return invalidArgument("failed to compile " + label + ": TensorFlagOwnedByPlugin is only valid on inputs");

    Result<Plan> planned = planOperator(pc, desc);
    if (!planned) return planned.error();
    const Plan& plan = *planned;
    MLP_TRY(checkLaunches(plan.execute, plan, label, "execute"));
    MLP_TRY(checkLaunches(plan.initialize, plan, label, "initialize"));
    if (plan.execute.empty()) return invalidArgument("internal error compiling " + label + ": the plan has no launches");

    auto op = std::make_unique<CompiledOperatorImpl>();
    op->device = device;
    op->label = label;
    op->setCount = 1;
    op->temporaryBytes = plan.temporaryBytes;
    op->persistentBytes = plan.persistentBytes;
    std::vector<VkPipeline> pipelines(plan.pipelines.size(), VK_NULL_HANDLE);
    Result<std::vector<RecordedLaunch>> execute = resolve(cache, plan, plan.execute, pipelines);
    if (!execute) return execute.error();
    Result<std::vector<RecordedLaunch>> initialize = resolve(cache, plan, plan.initialize, pipelines);
    if (!initialize) return initialize.error();
    op->launches = std::move(*execute);
    op->initializeLaunches = std::move(*initialize);
    op->initializeSetCount = op->initializeLaunches.empty() ? 0 : 1;
    buildRules(*op, desc);
    op->initializeInputTargets.resize(op->inputs.size());
    return op;
}

}  // namespace

Result<std::unique_ptr<CompiledOperator>> compileOperator(DeviceImpl& device, const OperatorDesc& desc, uint32_t flags) {
    auto op = buildOperator(device.planContext(flags), &device.pipelines(), &device, desc);
    if (!op) return op.error();
    return std::unique_ptr<CompiledOperator>(std::move(*op));
}

Result<std::unique_ptr<CompiledOperatorImpl>> compileOperatorOnCpu(const Capabilities& caps, const OperatorDesc& desc, uint32_t flags) {
    return buildOperator(planContextFor(caps, flags), nullptr, nullptr, desc);
}

const DispatchableImpl* implOf(const Dispatchable& d) { return dynamic_cast<const DispatchableImpl*>(&d); }

}  // namespace mlplugin::detail
