// OperatorInitializer: records the initialize launches of several compiled operators, each
// with a descriptor set of its own (same slots as at execution: owned inputs at their input
// slot, the persistent resource at kPersistentSlot). Operators with nothing to initialize take
// no set. Operators write disjoint persistent resources, so only a launch's own dependencies
// (Launch::barrierBefore within one operator) get barriers.
#include "compiled_operator.h"
#include "device_impl.h"

#include <algorithm>
#include <string>

namespace mlplugin::detail {
namespace {

class OperatorInitializerImpl final : public OperatorInitializer, public DispatchableImpl {
public:
    BindingProperties bindingProperties() const override { return {setCount, setCount * kDescriptorsPerSet, 0, 0}; }
    const std::string& name() const override { return label; }
    uint32_t inputCount() const override { return uint32_t(inputs.size()); }
    uint32_t outputCount() const override { return uint32_t(outputs.size()); }

    Status reset(std::span<CompiledOperator* const> operators) override;

    void recorded() const override {
        for (const CompiledOperatorImpl* op : operators_) op->initialized.store(true);
    }

private:
    Status collect(std::span<CompiledOperator* const> operators);
    void addOperator(const CompiledOperatorImpl& op);

    std::vector<const CompiledOperatorImpl*> operators_;
};

SlotRule unusedResource(const char* name) {
    SlotRule r{name, kNoSet, 0, SlotUse::Forbidden};
    r.whyForbidden = "an operator initializer has none (bind each operator's persistent resource as an output)";
    return r;
}

Status OperatorInitializerImpl::collect(std::span<CompiledOperator* const> operators) {
    for (size_t i = 0; i < operators.size(); ++i) {
        const auto* op = operators[i] ? dynamic_cast<const CompiledOperatorImpl*>(operators[i]) : nullptr;
        if (!op) return invalidArgument("operator initializer: operator " + std::to_string(i) + " is null or not a compiled operator");
        if (op->device != device) return invalidArgument("operator initializer: " + op->label + " was compiled on another device");
        if (std::find(operators_.begin(), operators_.end(), op) != operators_.end())
            return invalidArgument("operator initializer: " + op->label + " is listed twice");
        operators_.push_back(op);
    }
    return {};
}

// Targets of an operator's initializer binding, moved to the operator's first set `base`.
std::vector<SubBinding> shifted(const std::vector<SubBinding>& targets, uint32_t base) {
    std::vector<SubBinding> out = targets;
    for (SubBinding& t : out) t.set += base;
    return out;
}

void OperatorInitializerImpl::addOperator(const CompiledOperatorImpl& op) {
    bool hasWork = op.initializeSetCount > 0;
    uint32_t base = setCount;
    setCount += op.initializeSetCount;
    uint32_t ownSet = hasWork ? base : kNoSet;
    std::string of = " (" + op.label + " ";
    for (uint32_t k = 0; k < op.inputDescs.size(); ++k) {
        const std::vector<SubBinding>* targets = k < op.initializeInputTargets.size() ? &op.initializeInputTargets[k] : nullptr;
        bool fansOut = targets && !targets->empty();
        SlotRule r{"input " + std::to_string(inputs.size()) + of + op.inputNames[k] + ")", fansOut ? kNoSet : ownSet, k};
        if (fansOut && hasWork) r.alsoWrites = shifted(*targets, base);
        bool present = op.inputDescs[k].rank > 0;
        r.tensor = present ? op.inputDescs[k].toString() : "";
        r.minBytes = present ? op.inputDescs[k].requiredBytes() : 0;
        if (op.inputOwned[k]) {
            r.use = hasWork ? SlotUse::Required : SlotUse::Optional;
        } else {
            r.use = SlotUse::Forbidden;
            r.whyForbidden = present ? "it is not owned by the plugin (no TensorFlagOwnedByPlugin): bind it at execution"
                                     : "the operator has no such optional tensor";
        }
        inputs.push_back(std::move(r));
    }
    bool persistentFansOut = !op.initializePersistentTargets.empty();
    SlotRule out{"output " + std::to_string(outputs.size()) + " (persistent resource of " + op.label + ")",
                 persistentFansOut ? kNoSet : ownSet, kPersistentSlot};
    if (persistentFansOut && hasWork) out.alsoWrites = shifted(op.initializePersistentTargets, base);
    out.minBytes = op.persistentBytes;
    out.alignment = kPersistentAlignment;
    out.use = op.persistentBytes == 0 ? SlotUse::Forbidden : hasWork ? SlotUse::Required : SlotUse::Optional;
    if (op.persistentBytes == 0) out.whyForbidden = "the operator has no persistent resource (persistentBytes is 0)";
    outputs.push_back(std::move(out));
    // Initialization runs once, so a barrier before every launch costs nothing that matters. It
    // keeps the launches ordered in every tool's view: unbound slots all point at the device's
    // shared null buffer, which the synchronization validator counts as written by any kernel
    // that stores through a slot index it cannot resolve (seen with pack_conv_coopmat).
    for (RecordedLaunch l : op.initializeLaunches) {
        l.set += base;
        l.barrierBefore = !launches.empty();
        launches.push_back(l);
    }
}

Status OperatorInitializerImpl::reset(std::span<CompiledOperator* const> ops) {
    ++generation;
    operators_.clear();
    inputs.clear();
    outputs.clear();
    launches.clear();
    setCount = 0;
    MLP_TRY(collect(ops));
    for (const CompiledOperatorImpl* op : operators_) addOperator(*op);
    label = operators_.size() == 1 ? "operator initializer for " + operators_[0]->label
                                   : "operator initializer for " + std::to_string(operators_.size()) + " operators";
    return {};
}

}  // namespace

Result<std::unique_ptr<OperatorInitializer>> DeviceImpl::createOperatorInitializer(std::span<CompiledOperator* const> operators) {
    auto init = std::make_unique<OperatorInitializerImpl>();
    init->device = this;
    init->temporary = unusedResource("temporary resource");
    init->persistent = unusedResource("persistent resource");
    MLP_TRY(init->reset(operators));
    return std::unique_ptr<OperatorInitializer>(std::move(init));
}

}  // namespace mlplugin::detail
