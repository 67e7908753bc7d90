#include "engine/deferred_deletion.h"

namespace engine {

// Entries are queued with non-decreasing frame numbers, so the completed ones form a prefix.
void DeferredDeletion::collect(uint64_t completedFrame) {
    while (!queue_.empty() && queue_.front().frame <= completedFrame) {
        // Pop before running: a destroy callback may defer more work.
        auto destroy = std::move(queue_.front().destroy);
        queue_.pop_front();
        destroy();
    }
}

void DeferredDeletion::flush() {
    while (!queue_.empty()) {
        auto destroy = std::move(queue_.front().destroy);
        queue_.pop_front();
        destroy();
    }
}

}  // namespace engine
