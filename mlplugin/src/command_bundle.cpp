// CommandBundle: the launches of CommandRecorder::record, recorded once into a secondary
// command buffer; execute() checks the binding table has not been written since and records
// one vkCmdExecuteCommands.
#include "launch_recording.h"
#include "mlplugin/command_bundle.h"

namespace mlplugin::detail {
namespace {

class CommandBundleImpl final : public CommandBundle {
public:
    CommandBundleImpl(const DeviceImpl& device, const DispatchableImpl& d, const Dispatchable& dispatchable, const BindingTableImpl& table)
        : device_(device), dispatchableImpl_(d), dispatchable_(dispatchable), table_(table), version_(table.version()),
          generation_(d.generation) {}
    CommandBundleImpl(const CommandBundleImpl&) = delete;
    CommandBundleImpl& operator=(const CommandBundleImpl&) = delete;
    ~CommandBundleImpl() override {
        // Frees the command buffer too; the contract: no pending primary executes it any more.
        if (pool_) device_.fns().vkDestroyCommandPool(device_.vkDevice(), pool_, nullptr);
    }

    Status record() {
        const VulkanFunctions& fns = device_.fns();
        VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pci.queueFamilyIndex = device_.queueFamilyIndex();
        if (VkResult r = fns.vkCreateCommandPool(device_.vkDevice(), &pci, nullptr, &pool_); r != VK_SUCCESS)
            return vulkanError(r, "recordBundle: vkCreateCommandPool for " + dispatchableImpl_.label);
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pool_;
        ai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
        ai.commandBufferCount = 1;
        if (VkResult r = fns.vkAllocateCommandBuffers(device_.vkDevice(), &ai, &cmd_); r != VK_SUCCESS)
            return vulkanError(r, "recordBundle: vkAllocateCommandBuffers for " + dispatchableImpl_.label);
        setObjectName(fns, device_.vkDevice(), VK_OBJECT_TYPE_COMMAND_BUFFER, uint64_t(cmd_), dispatchableImpl_.label.c_str());
        VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};  // compute: no render pass
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
        bi.pInheritanceInfo = &inheritance;
        if (VkResult r = fns.vkBeginCommandBuffer(cmd_, &bi); r != VK_SUCCESS)
            return vulkanError(r, "recordBundle: vkBeginCommandBuffer for " + dispatchableImpl_.label);
        recordLaunches(device_, cmd_, dispatchableImpl_, table_);
        if (VkResult r = fns.vkEndCommandBuffer(cmd_); r != VK_SUCCESS)
            return vulkanError(r, "recordBundle: vkEndCommandBuffer for " + dispatchableImpl_.label);
        return {};
    }

    Status execute(VkCommandBuffer primary) const override {
        if (!primary) return invalidArgument("execute: the command buffer is VK_NULL_HANDLE");
        if (dispatchableImpl_.generation != generation_)
            return invalidArgument("execute: the bundle of " + dispatchableImpl_.label + " is stale: the dispatchable was reset after it was recorded; record a new bundle");
        if (table_.version() != version_)
            return invalidArgument("execute: the bundle of " + dispatchableImpl_.label +
                                   " is stale: its binding table was reset or bound again after it was recorded; record a new bundle");
        MLP_TRY(table_.checkRecordable(dispatchable_));
        if (device_.debug()) MLP_TRY(dispatchableImpl_.readyToRecord());
        device_.fns().vkCmdExecuteCommands(primary, 1, &cmd_);
        dispatchableImpl_.recorded();
        return {};
    }

    bool current() const override {
        return dispatchableImpl_.generation == generation_ && table_.version() == version_;
    }

private:
    const DeviceImpl& device_;
    const DispatchableImpl& dispatchableImpl_;
    const Dispatchable& dispatchable_;
    const BindingTableImpl& table_;
    const uint64_t version_;
    const uint32_t generation_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
};

}  // namespace

Result<std::unique_ptr<CommandBundle>> recordCommandBundle(const DeviceImpl& device, const Dispatchable& dispatchable,
                                                           const BindingTable& bindings) {
    const DispatchableImpl* d = nullptr;
    const BindingTableImpl* table = nullptr;
    MLP_TRY(checkBeforeRecord(device, dispatchable, bindings, false, &d, &table));
    auto bundle = std::make_unique<CommandBundleImpl>(device, *d, dispatchable, *table);
    MLP_TRY(bundle->record());
    return std::unique_ptr<CommandBundle>(std::move(bundle));
}

}  // namespace mlplugin::detail
