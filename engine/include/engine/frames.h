#pragma once
/// \file
/// Frames: frames in flight (2-3) on the context's main queue. Each slot owns a command pool +
/// primary command buffer, a fence, a DescriptorArena; the ring also owns an UploadRing (one
/// region per slot) and the DeferredDeletion queue.
///
///   Frame& f = frames.beginFrame();   // waits for this slot's previous frame (its fence), runs
///                                     // deferred deletions that frame made safe, resets the
///                                     // slot's pool, arena and upload region, begins f.cmd
///   timer.beginFrame(f.cmd, f.slot); graph.execute(f.cmd, f.slot, &timer);
///   frames.endFrame({.waits = acquire, .signals = renderDone});   // vkQueueSubmit2 + fence
///
/// No vkDeviceWaitIdle: waitIdle() and the destructor wait for the fences of submitted frames.
/// Steady state allocates nothing on the heap (deferred deletions aside).
/// Not thread-safe; one Frames per queue.
#include "engine/deferred_deletion.h"
#include "engine/descriptor_arena.h"
#include "engine/export.h"
#include "engine/upload_ring.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

class Context;

/// How many frames may be in flight and what each slot owns.
struct FramesDesc {
    uint32_t framesInFlight = 2;  ///< 1..3
    DescriptorArenaDesc descriptors;  ///< one arena of this shape per slot
    VkDeviceSize uploadBytesPerFrame = 4u << 20;  ///< per-slot region of the UploadRing
    uint64_t fenceTimeoutNs = 10'000'000'000ull;  ///< a frame that takes longer is reported as a hang
};

/// Semaphores for the windowed path (acquire -> render -> present).
struct FrameSubmit {
    std::span<const VkSemaphoreSubmitInfo> waits;  ///< semaphores the frame's submission waits for
    std::span<const VkSemaphoreSubmitInfo> signals;  ///< semaphores it signals
};

/// The frame being recorded (Frames::beginFrame).
struct Frame {
    uint32_t slot = 0;     ///< 0..framesInFlight-1: index for per-slot resources
    uint64_t number = 0;   ///< frames begun before this one
    VkCommandBuffer cmd = VK_NULL_HANDLE;  ///< begun; record the frame into it
    DescriptorArena* descriptors = nullptr;  ///< the slot's arena, reset when the slot was reused
};

/// Frames in flight: per-slot command buffer, fence, descriptor arena and upload region;
/// beginFrame waits for the slot's previous frame, endFrame submits. Deferred deletions run as
/// frames complete.
class Frames {
public:
    /// Slots on `ctx`'s main queue.
    Frames(const Context& ctx, const FramesDesc& desc = {});
    ~Frames();  ///< waits for submitted frames, then flushes deferred deletions
    Frames(const Frames&) = delete;
    Frames& operator=(const Frames&) = delete;

    /// Throws engine::Error: ErrorCode::DeviceLost when the fence wait reports a lost device
    /// (Context::observe), ErrorCode::Timeout when the slot's previous frame does not finish
    /// within fenceTimeoutNs, InvalidArgument when called twice without endFrame.
    Frame& beginFrame();
    /// Submits; a lost device shows as ErrorCode::DeviceLost. The slot is consumed either way.
    void endFrame(const FrameSubmit& submit = {});
    /// Waits until every submitted frame completed and runs all deferred deletions. Waits for
    /// every slot even when one reports a loss, then throws the first error.
    void waitIdle();

    /// Number of slots.
    uint32_t framesInFlight() const { return uint32_t(slots_.size()); }
    /// Number of frames submitted so far.
    uint64_t frameCount() const { return next_; }
    /// Per-frame upload memory.
    UploadRing& upload() { return upload_; }
    /// Deletions that wait for the frames recorded so far.
    DeferredDeletion& deletion() { return deletion_; }

private:
    struct Slot {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        std::unique_ptr<DescriptorArena> arena;
        Frame frame;
    };
    void waitSlot(Slot& slot, uint64_t frameNumber) const;
    void destroy();

    const Context* ctx_ = nullptr;  // observes fence waits and submits for device loss
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint64_t fenceTimeoutNs_ = 0;
    std::vector<Slot> slots_;
    UploadRing upload_;
    DeferredDeletion deletion_;
    uint64_t next_ = 0;  ///< number of the next frame to begin
    bool recording_ = false;
};

/// Both names are in use in the design notes.
using FrameRing = Frames;

}  // namespace engine
ENGINE_API_END
