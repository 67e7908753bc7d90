// BindingTable: validates bindings against the dispatchable's rules and writes descriptors
// into the application's sets. The checks that keep the GPU safe (sizes, alignment, counts,
// presence at record time) always run; DeviceFlagDebug adds the contract checks (forbidden
// and unexpected bindings, uninitialized persistent resources).
#include "binding_table_impl.h"

#include "device_impl.h"

#include <algorithm>
#include <string>

namespace mlplugin::detail {
namespace {

std::string n(uint64_t v) { return std::to_string(v); }

}  // namespace

Result<std::unique_ptr<BindingTable>> DeviceImpl::createBindingTable(const BindingTableDesc& desc) {
    auto table = std::make_unique<BindingTableImpl>(*this);
    MLP_TRY(table->reset(desc));
    return std::unique_ptr<BindingTable>(std::move(table));
}

Status BindingTableImpl::reset(const BindingTableDesc& desc) {
    target_ = nullptr;
    dispatchable_ = nullptr;
    if (!desc.dispatchable) return invalidArgument("binding table: BindingTableDesc::dispatchable is null");
    const DispatchableImpl* impl = implOf(*desc.dispatchable);
    if (!impl || impl->device != &device_)
        return invalidArgument("binding table: the dispatchable '" + desc.dispatchable->name() + "' was not created by this device");
    if (desc.range.setCount < impl->setCount)
        return invalidArgument("binding table for " + impl->label + ": the descriptor range has " + n(desc.range.setCount) +
                               " sets, it needs " + n(impl->setCount) + " (BindingProperties::descriptorSetCount)");
    if (impl->setCount > 0 && !desc.range.sets) return invalidArgument("binding table for " + impl->label + ": DescriptorRange::sets is null");
    for (uint32_t i = 0; i < impl->setCount; ++i)
        if (!desc.range.sets[i]) return invalidArgument("binding table for " + impl->label + ": descriptor set " + n(i) + " of the range is VK_NULL_HANDLE");

    sets_.assign(desc.range.sets, desc.range.sets + impl->setCount);
    ++version_;
    inputsBound_ = std::make_unique<bool[]>(impl->inputs.size());
    outputsBound_ = std::make_unique<bool[]>(impl->outputs.size());
    temporaryBound_ = persistentBound_ = false;

    // Every array element must be a valid descriptor (no descriptor indexing): start from "null".
    VkDescriptorBufferInfo nullInfo{device_.nullBuffer(), 0, VK_WHOLE_SIZE};
    std::vector<VkDescriptorBufferInfo> infos(kDescriptorsPerSet, nullInfo);
    std::vector<VkWriteDescriptorSet> writes;
    for (VkDescriptorSet set : sets_) {
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = 0;
        w.descriptorCount = kDescriptorsPerSet;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = infos.data();
        writes.push_back(w);
    }
    if (!writes.empty()) device_.fns().vkUpdateDescriptorSets(device_.vkDevice(), uint32_t(writes.size()), writes.data(), 0, nullptr);
    dispatchable_ = desc.dispatchable;
    target_ = impl;
    generation_ = impl->generation;
    return {};
}

Status BindingTableImpl::checkTarget(const char* verb) const {
    if (!target_) return invalidArgument(std::string("binding table: ") + verb + " on a table without a dispatchable (its last reset failed)");
    return checkGeneration(verb);
}

Status BindingTableImpl::checkGeneration(const char* what) const {
    if (generation_ != target_->generation)
        return invalidArgument(std::string(what) + ": " + target_->label + " was reset after this binding table was created; reset the table too");
    return {};
}

Status BindingTableImpl::checkBinding(const SlotRule& rule, const BufferBinding& b) const {
    if (!b.buffer) return {};
    const Capabilities& caps = device_.capabilities();
    std::string where = "binding table for " + target_->label + ": " + rule.name;
    if (rule.use == SlotUse::Forbidden) {
        // Not read by the GPU, so only the Debug layer objects; the descriptor is left null.
        if (device_.debug()) return invalidArgument(where + " must not be bound: " + rule.whyForbidden);
        return {};
    }
    if (b.size == 0 || b.size == VK_WHOLE_SIZE) return invalidArgument(where + ": the binding's size is " + (b.size ? "VK_WHOLE_SIZE" : "0") + "; give the range's size in bytes");
    if (b.size > caps.maxStorageBufferRange)
        return invalidArgument(where + ": the range of " + n(b.size) + " bytes exceeds maxStorageBufferRange " + n(caps.maxStorageBufferRange));
    uint64_t alignment = std::max<uint64_t>(rule.alignment, caps.minStorageBufferOffsetAlignment);
    if (b.offset % alignment)
        return invalidArgument(where + ": offset " + n(b.offset) + " is not a multiple of " + n(alignment) + " bytes");
    if (b.size < rule.minBytes)
        return invalidArgument(where + ": the range of " + n(b.size) + " bytes is smaller than the " + n(rule.minBytes) + " bytes " +
                               (rule.tensor.empty() ? std::string("required") : rule.tensor + " needs"));
    return {};
}

void BindingTableImpl::write(std::span<const SlotRule> rules, std::span<const BufferBinding> bindings) const {
    // Batched in fixed storage: no allocation however many descriptors a binding feeds.
    std::array<VkDescriptorBufferInfo, kDescriptorsPerSet * 2> infos;
    std::array<VkWriteDescriptorSet, kDescriptorsPerSet * 2> writes;
    uint32_t count = 0;
    auto flush = [&] {
        if (count) device_.fns().vkUpdateDescriptorSets(device_.vkDevice(), count, writes.data(), 0, nullptr);
        count = 0;
    };
    auto add = [&](uint32_t set, uint32_t slot, const VkDescriptorBufferInfo& info) {
        infos[count] = info;
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = sets_[set];
        w.dstArrayElement = slot;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &infos[count];
        writes[count++] = w;
        if (count == writes.size()) flush();
    };
    const VkDescriptorBufferInfo null{device_.nullBuffer(), 0, VK_WHOLE_SIZE};
    for (size_t i = 0; i < rules.size(); ++i) {
        const SlotRule& r = rules[i];
        const BufferBinding& b = bindings[i];
        bool use = b.buffer && r.use != SlotUse::Forbidden;
        if (r.set != kNoSet) add(r.set, r.slot, use ? VkDescriptorBufferInfo{b.buffer, b.offset, b.size} : null);
        for (const SubBinding& t : r.alsoWrites) {
            // Targets lie within the rule's minBytes, which checkBinding proved the range covers.
            assert(t.offset + t.size <= std::max(r.minBytes, b.size));
            assert(t.offset % device_.capabilities().minStorageBufferOffsetAlignment == 0);
            VkDeviceSize size = t.size ? t.size : b.size - t.offset;
            add(t.set, t.slot, use ? VkDescriptorBufferInfo{b.buffer, b.offset + t.offset, size} : null);
        }
    }
    flush();
}

Status BindingTableImpl::bindSlots(const char* verb, std::span<const SlotRule> rules, std::span<const BufferBinding> bindings,
                                   std::span<bool> present) {
    if (bindings.size() != rules.size())
        return invalidArgument("binding table for " + target_->label + ": " + verb + " got " + n(bindings.size()) + " bindings, expected " +
                               n(rules.size()));
    // Validate everything before writing anything: a failed bind leaves the table as it was.
    for (size_t i = 0; i < rules.size(); ++i) MLP_TRY(checkBinding(rules[i], bindings[i]));
    ++version_;
    write(rules, bindings);
    for (size_t i = 0; i < rules.size(); ++i) present[i] = bindings[i].buffer != VK_NULL_HANDLE;
    return {};
}

Status BindingTableImpl::bindInputs(std::span<const BufferBinding> bindings) {
    MLP_TRY(checkTarget("bindInputs"));
    return bindSlots("bindInputs", target_->inputs, bindings, {inputsBound_.get(), target_->inputs.size()});
}

Status BindingTableImpl::bindOutputs(std::span<const BufferBinding> bindings) {
    MLP_TRY(checkTarget("bindOutputs"));
    return bindSlots("bindOutputs", target_->outputs, bindings, {outputsBound_.get(), target_->outputs.size()});
}

Status BindingTableImpl::bindTemporary(const BufferBinding& binding) {
    MLP_TRY(checkTarget("bindTemporary"));
    return bindSlots("bindTemporary", {&target_->temporary, 1}, {&binding, 1}, {&temporaryBound_, 1});
}

Status BindingTableImpl::bindPersistent(const BufferBinding& binding) {
    MLP_TRY(checkTarget("bindPersistent"));
    return bindSlots("bindPersistent", {&target_->persistent, 1}, {&binding, 1}, {&persistentBound_, 1});
}

Status BindingTableImpl::missing(const SlotRule& rule) const {
    return invalidArgument("cannot record " + target_->label + ": " + rule.name + (rule.tensor.empty() ? "" : " (" + rule.tensor + ")") +
                           " is not bound");
}

Status BindingTableImpl::checkRecordable(const Dispatchable& dispatchable) const {
    if (!target_) return invalidArgument("cannot record " + dispatchable.name() + ": the binding table has no dispatchable (its last reset failed)");
    if (dispatchable_ != &dispatchable)
        return invalidArgument("cannot record " + dispatchable.name() + " with a binding table created for " + target_->label +
                               " (reset the table to re-target it)");
    MLP_TRY(checkGeneration("record"));
    for (size_t i = 0; i < target_->inputs.size(); ++i)
        if (target_->inputs[i].use == SlotUse::Required && !inputsBound_[i]) return missing(target_->inputs[i]);
    for (size_t i = 0; i < target_->outputs.size(); ++i)
        if (target_->outputs[i].use == SlotUse::Required && !outputsBound_[i]) return missing(target_->outputs[i]);
    if (target_->temporary.use == SlotUse::Required && !temporaryBound_) return missing(target_->temporary);
    if (target_->persistent.use == SlotUse::Required && !persistentBound_) return missing(target_->persistent);
    return {};
}

}  // namespace mlplugin::detail
