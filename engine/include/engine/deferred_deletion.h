#pragma once
/// \file
/// DeferredDeletion: destroys things only after the frame that last used them completed on
/// the GPU. Frames drives it: beginFrame() tags new entries with the frame being recorded and,
/// once a slot's fence proves frame N finished, runs every entry tagged N or earlier, in the
/// order they were deferred. flush() runs everything (shutdown, after the GPU is idle).
///
///   frames.deletion().defer([dev, buf] { vkDestroyBuffer(dev, buf, nullptr); });
///   frames.deletion().retire(std::move(oldBuffer));   // any movable object, e.g. engine::Buffer
#include "engine/export.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <utility>

ENGINE_API_BEGIN
namespace engine {

/// Destroys objects once the GPU is done with them: each entry is tagged with the frame being
/// recorded and runs when that frame has completed (collect), or at flush.
class DeferredDeletion {
public:
    DeferredDeletion() = default;
    ~DeferredDeletion() { flush(); }
    DeferredDeletion(const DeferredDeletion&) = delete;
    DeferredDeletion& operator=(const DeferredDeletion&) = delete;

    /// The frame now being recorded: what is deferred from here on was last used by it.
    void setCurrentFrame(uint64_t frame) { current_ = frame; }
    /// The frame entries are tagged with.
    uint64_t currentFrame() const { return current_; }

    /// Runs `destroy` once the current frame completed.
    void defer(std::function<void()> destroy) { queue_.push_back({current_, std::move(destroy)}); }
    /// Keeps `object` alive until the current frame completed, then destroys it.
    template <typename T>
    void retire(T&& object) {
        auto holder = std::make_shared<std::decay_t<T>>(std::forward<T>(object));
        defer([holder]() mutable { holder.reset(); });
    }

    /// Runs (in deferral order) every entry whose frame is <= completedFrame.
    void collect(uint64_t completedFrame);
    /// Runs every entry (shutdown: the caller has waited for the GPU).
    void flush();
    /// Entries not run yet.
    size_t pending() const { return queue_.size(); }

private:
    struct Entry {
        uint64_t frame;
        std::function<void()> destroy;
    };
    std::deque<Entry> queue_;
    uint64_t current_ = 0;
};

}  // namespace engine
ENGINE_API_END
