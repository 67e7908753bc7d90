#pragma once
/// \file
/// GpuTimer: named GPU time scopes measured with timestamp queries, one query pool per frame
/// slot so reading results never stalls.
///
/// Per frame, in the frame's command buffer:
///   timer.beginFrame(cmd, slot);        // reads the results this slot recorded last time, then
///                                       // resets the slot's queries (vkCmdResetQueryPool)
///   timer.beginScope(cmd, "gbuffer"); ... timer.endScope(cmd);   // or let FrameGraph do it
/// Contract: when beginFrame(cmd, slot) is called, the GPU has finished the previous frame that
/// used `slot` (Frames::beginFrame waited for its fence). Results that are somehow not yet
/// available are skipped, never waited for. collect(slot) reads a slot's results on demand
/// (e.g. after Frames::waitIdle at the end of a run).
///
/// Scopes may nest. Timings are kept per name: the last value and the median of the last
/// `window` frames. Without timestamp support on the queue the timer records nothing and
/// timings() is empty.
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

class Context;

/// Capacity of a GpuTimer.
struct GpuTimerDesc {
    uint32_t framesInFlight = 2;  ///< query pools, one per frame slot
    uint32_t maxScopesPerFrame = 128;  ///< scopes a frame may open
    uint32_t window = 64;  ///< frames in the median
};

/// The GPU time of one named scope.
struct GpuTiming {
    std::string name;     ///< the scope's name
    double lastMs = 0.0;  ///< the last frame's time
    double medianMs = 0.0;  ///< median over the window
    uint32_t samples = 0;  ///< frames in the median so far (<= window)
};

/// GPU time of named scopes with timestamp queries, per frame slot, with a running median.
/// Disabled (every call a no-op) when the queue has no valid timestamps.
class GpuTimer {
public:
    /// A timer on `ctx`'s main queue.
    GpuTimer(const Context& ctx, const GpuTimerDesc& desc = {});
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    /// False when the device has no usable timestamps.
    bool enabled() const { return enabled_; }
    /// Number of slots.
    uint32_t framesInFlight() const { return uint32_t(slots_.size()); }

    /// Starts recording frame slot `slot` (resets its queries in `cmd`).
    void beginFrame(VkCommandBuffer cmd, uint32_t slot);
    /// Throws engine::Error when a frame opens more than maxScopesPerFrame scopes, or when
    /// endScope has no open scope.
    void beginScope(VkCommandBuffer cmd, std::string_view name);
    /// Closes the innermost open scope.
    void endScope(VkCommandBuffer cmd);
    /// Reads the results `slot` recorded (once; later calls for the same frame do nothing).
    void collect(uint32_t slot);

    /// In order of first appearance.
    std::vector<GpuTiming> timings() const;

private:
    struct Series {
        std::string name;
        std::vector<double> ring;  ///< last `window` samples (ms)
        uint32_t next = 0;
        uint32_t count = 0;
        double lastMs = 0.0;
    };
    struct Scope {
        uint32_t series = 0;
    };
    struct Slot {
        std::vector<Scope> scopes;  ///< capacity reserved up front; query pair i: scope i
        bool pending = false;       ///< recorded, results not read yet
    };

    uint32_t seriesFor(std::string_view name);

    VkDevice device_ = VK_NULL_HANDLE;
    bool enabled_ = false;
    uint32_t maxScopes_ = 0;
    uint32_t window_ = 0;
    std::vector<Slot> slots_;
    std::vector<Series> series_;
    struct Pools;                      ///< one timestamp query pool per slot (gpu_timer.cpp)
    std::unique_ptr<Pools> pools_;
    std::vector<double> results_;      ///< milliseconds per scope, reused
    std::vector<uint32_t> openStack_;  ///< indices into the recording slot's scopes
    int32_t recording_ = -1;           ///< slot between beginFrame and the next beginFrame
};

}  // namespace engine
ENGINE_API_END
