#include "engine/frames.h"

#include "engine/context.h"
#include "engine/error.h"

#include <exception>

namespace engine {

namespace {
UploadRingDesc uploadDesc(const FramesDesc& desc) {
    UploadRingDesc u;
    u.framesInFlight = desc.framesInFlight;
    u.bytesPerFrame = desc.uploadBytesPerFrame;
    return u;
}
}  // namespace

Frames::Frames(const Context& ctx, const FramesDesc& desc)
    : ctx_(&ctx), device_(ctx.device()), queue_(ctx.queue()), fenceTimeoutNs_(desc.fenceTimeoutNs),
      upload_(ctx, (desc.framesInFlight >= 1 && desc.framesInFlight <= 3)
                       ? uploadDesc(desc)
                       : throw Error("frames: framesInFlight must be 1, 2 or 3 (got " +
                                     std::to_string(desc.framesInFlight) + ")")) {
    slots_.resize(desc.framesInFlight);
    try {
        for (uint32_t i = 0; i < slots_.size(); ++i) {
            Slot& s = slots_[i];
            VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
            pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
            pci.queueFamilyIndex = ctx.queueFamily();
            ENGINE_VK(vkCreateCommandPool(device_, &pci, nullptr, &s.pool));
            VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
            ai.commandPool = s.pool;
            ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
            ai.commandBufferCount = 1;
            ENGINE_VK(vkAllocateCommandBuffers(device_, &ai, &s.frame.cmd));
            // Created signalled: the first beginFrame on a slot has nothing to wait for.
            VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
            ENGINE_VK(vkCreateFence(device_, &fci, nullptr, &s.fence));
            DescriptorArenaDesc arenaDesc = desc.descriptors;
            arenaDesc.name += " (frame slot " + std::to_string(i) + ")";
            s.arena = std::make_unique<DescriptorArena>(device_, arenaDesc);
            s.frame.slot = i;
            s.frame.descriptors = s.arena.get();
        }
    } catch (...) {
        destroy();
        throw;
    }
}

Frames::~Frames() {
    try {
        waitIdle();
    } catch (const Error&) {
        // Device lost or hung at shutdown: destroy anyway, there is nobody left to tell.
    }
    deletion_.flush();
    destroy();
}

void Frames::destroy() {
    for (Slot& s : slots_) {
        s.arena.reset();
        if (s.fence) vkDestroyFence(device_, s.fence, nullptr);
        if (s.pool) vkDestroyCommandPool(device_, s.pool, nullptr);  // frees its command buffer
        s.fence = VK_NULL_HANDLE;
        s.pool = VK_NULL_HANDLE;
    }
}

void Frames::waitSlot(Slot& slot, uint64_t frameNumber) const {
    // Through observe(): a loss (real or simulated) reported here is the one the application sees.
    const VkResult r = ctx_->observe(vkWaitForFences(device_, 1, &slot.fence, VK_TRUE, fenceTimeoutNs_));
    if (r == VK_TIMEOUT)
        throw Error(ErrorCode::Timeout,
                    "frames: frame " + std::to_string(frameNumber) + " (slot " + std::to_string(slot.frame.slot) +
                        ") did not complete within " + std::to_string(fenceTimeoutNs_ / 1'000'000) + " ms (GPU hang?)",
                    r);
    checkVk(r, "vkWaitForFences", __FILE__, __LINE__);
}

Frame& Frames::beginFrame() {
    if (recording_) throw Error("frames: beginFrame() called twice without endFrame()");
    const uint64_t number = next_;
    Slot& s = slots_[number % slots_.size()];
    waitSlot(s, number >= slots_.size() ? number - slots_.size() : number);
    // Fences signal in submission order on one queue: every frame up to this slot's last one
    // is done, so what they last used may be destroyed now.
    if (number >= slots_.size()) deletion_.collect(number - slots_.size());
    deletion_.setCurrentFrame(number);
    s.arena->reset();
    upload_.beginFrame(s.frame.slot);
    ENGINE_VK(vkResetCommandPool(device_, s.pool, 0));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    ENGINE_VK(vkBeginCommandBuffer(s.frame.cmd, &bi));
    s.frame.number = number;
    recording_ = true;
    return s.frame;
}

void Frames::endFrame(const FrameSubmit& submit) {
    if (!recording_) throw Error("frames: endFrame() without beginFrame()");
    Slot& s = slots_[next_ % slots_.size()];
    recording_ = false;
    ++next_;  // the slot is consumed even if submission fails, so the next beginFrame moves on
    ENGINE_VK(vkEndCommandBuffer(s.frame.cmd));
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cbi.commandBuffer = s.frame.cmd;
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.waitSemaphoreInfoCount = uint32_t(submit.waits.size());
    si.pWaitSemaphoreInfos = submit.waits.data();
    si.commandBufferInfoCount = 1;
    si.pCommandBufferInfos = &cbi;
    si.signalSemaphoreInfoCount = uint32_t(submit.signals.size());
    si.pSignalSemaphoreInfos = submit.signals.data();
    // Reset only now: a frame abandoned between begin and end leaves its fence signalled.
    ENGINE_VK(vkResetFences(device_, 1, &s.fence));
    ENGINE_VK_ON(*ctx_, vkQueueSubmit2(queue_, 1, &si, s.fence));
}

void Frames::waitIdle() {
    // Every fence is waited for even when one reports a loss: with a simulated loss (and a
    // driver that still completes work) the GPU really is done with all slots afterwards, so
    // the caller may destroy what they used.
    std::exception_ptr first;
    for (Slot& s : slots_) {
        if (!s.fence) continue;
        try {
            waitSlot(s, s.frame.number);
        } catch (const Error&) {
            if (!first) first = std::current_exception();
        }
    }
    if (first) std::rethrow_exception(first);
    deletion_.collect(next_);
}

}  // namespace engine
