// CommandRecorder: binds pipelines, descriptor sets and push constants and dispatches. Runs
// every frame: no allocation, no descriptor writes, one pass over the precomputed launches.
#include "launch_recording.h"
#include "mlplugin/command_bundle.h"
#include "mlplugin/command_recorder.h"

namespace mlplugin {
namespace detail {

// The synchronization-1 entry point: the barrier is the same, and the recorder issues one per
// dependent dispatch, so its CPU cost counts (record time per frame, bench/RESULTS.md).
void computeBarrier(const VulkanFunctions& fns, VkCommandBuffer cmd) {
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    fns.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, nullptr, 0,
                             nullptr);
}

Status checkBeforeRecord(const DeviceImpl& device, const Dispatchable& dispatchable, const BindingTable& bindings, bool checkReady,
                         const DispatchableImpl** impl, const BindingTableImpl** table) {
    const DispatchableImpl* d = implOf(dispatchable);
    if (!d || d->device != &device) return invalidArgument("record: '" + dispatchable.name() + "' was not created by this device");
    const auto* t = dynamic_cast<const BindingTableImpl*>(&bindings);
    if (!t) return invalidArgument("record: the binding table was not created by this device");
    MLP_TRY(t->checkRecordable(dispatchable));
    if (checkReady && device.debug()) MLP_TRY(d->readyToRecord());
    *impl = d;
    *table = t;
    return {};
}

void recordLaunches(const DeviceImpl& device, VkCommandBuffer cmd, const DispatchableImpl& d, const BindingTableImpl& table) {
    const VulkanFunctions& fns = device.fns();
    VkPipeline boundPipeline = VK_NULL_HANDLE;
    uint32_t boundSet = UINT32_MAX;
    for (const RecordedLaunch& l : d.launches) {
        if (l.barrierBefore) computeBarrier(fns, cmd);
        if (l.pipeline != boundPipeline) {
            fns.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, l.pipeline);
            boundPipeline = l.pipeline;
        }
        if (l.set != boundSet) {
            assert(l.set < d.setCount && "a launch uses a set outside the dispatchable's range (planner bug)");
            VkDescriptorSet set = table.set(l.set);
            fns.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, device.pipelineLayout(), 0, 1, &set, 0, nullptr);
            boundSet = l.set;
        }
        if (l.pushWords) fns.vkCmdPushConstants(cmd, device.pipelineLayout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, l.pushWords * 4, l.push.data());
        fns.vkCmdDispatch(cmd, l.groups[0], l.groups[1], l.groups[2]);
    }
}

Result<std::unique_ptr<CommandBundle>> recordCommandBundle(const DeviceImpl& device, const Dispatchable& dispatchable,
                                                           const BindingTable& bindings);

namespace {

class CommandRecorderImpl final : public CommandRecorder {
public:
    explicit CommandRecorderImpl(const DeviceImpl& device) : device_(device) {}

    Status record(VkCommandBuffer cmd, const Dispatchable& dispatchable, const BindingTable& bindings) override {
        if (!cmd) return invalidArgument("record: the command buffer is VK_NULL_HANDLE");
        const DispatchableImpl* d = nullptr;
        const BindingTableImpl* table = nullptr;
        MLP_TRY(checkBeforeRecord(device_, dispatchable, bindings, true, &d, &table));
        recordLaunches(device_, cmd, *d, *table);
        d->recorded();
        return {};
    }

    Result<std::unique_ptr<CommandBundle>> recordBundle(const Dispatchable& dispatchable, const BindingTable& bindings) override {
        return recordCommandBundle(device_, dispatchable, bindings);
    }

private:
    const DeviceImpl& device_;
};

}  // namespace

Result<std::unique_ptr<CommandRecorder>> DeviceImpl::createCommandRecorder() {
    return std::unique_ptr<CommandRecorder>(std::make_unique<CommandRecorderImpl>(*this));
}

}  // namespace detail

void recordComputeBarrier(const Device& device, VkCommandBuffer cmd) {
    const auto* impl = dynamic_cast<const detail::DeviceImpl*>(&device);
    assert(impl && "recordComputeBarrier: the device was not created by createDevice");
    detail::computeBarrier(impl->fns(), cmd);
}

}  // namespace mlplugin
