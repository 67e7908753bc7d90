#pragma once
// Internal: the BindingTable implementation, read by the recorder.
#include "dispatchable_impl.h"
#include "mlplugin/binding_table.h"

#include <memory>
#include <vector>

namespace mlplugin::detail {

class DeviceImpl;

class BindingTableImpl final : public BindingTable {
public:
    explicit BindingTableImpl(const DeviceImpl& device) : device_(device) {}

    Status reset(const BindingTableDesc& desc) override;
    Status bindInputs(std::span<const BufferBinding> bindings) override;
    Status bindOutputs(std::span<const BufferBinding> bindings) override;
    Status bindTemporary(const BufferBinding& binding) override;
    Status bindPersistent(const BufferBinding& binding) override;

    // Record-time checks: the table targets `dispatchable` and every required slot is bound.
    Status checkRecordable(const Dispatchable& dispatchable) const;
    VkDescriptorSet set(uint32_t index) const { return sets_[index]; }
    // Counts every change of the table's descriptors (reset and each bind): a command buffer
    // recorded with the sets is invalid once they are written again (CommandBundle checks it).
    uint64_t version() const { return version_; }

private:
    Status checkTarget(const char* verb) const;
    Status checkGeneration(const char* what) const;
    Status checkBinding(const SlotRule& rule, const BufferBinding& b) const;
    Status bindSlots(const char* verb, std::span<const SlotRule> rules, std::span<const BufferBinding> bindings,
                     std::span<bool> present);
    void write(std::span<const SlotRule> rules, std::span<const BufferBinding> bindings) const;
    Status missing(const SlotRule& rule) const;

    const DeviceImpl& device_;
    const Dispatchable* dispatchable_ = nullptr;
    const DispatchableImpl* target_ = nullptr;  // null until a successful reset
    uint32_t generation_ = 0;                    // target_->generation at reset
    uint64_t version_ = 0;
    std::vector<VkDescriptorSet> sets_;
    // Which slots hold a binding (std::vector<bool> has no span view: plain bools).
    std::unique_ptr<bool[]> inputsBound_, outputsBound_;
    bool temporaryBound_ = false, persistentBound_ = false;
};

}  // namespace mlplugin::detail
