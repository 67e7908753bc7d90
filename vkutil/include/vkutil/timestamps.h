#pragma once
// TimestampPool: GPU time intervals from timestamp queries, in begin/end pairs (pair i = queries
// 2i and 2i + 1).
//
//   vkutil::TimestampPool pool;
//   CHECK(pool.create(device, runs, limits.timestampPeriod, queueFamily.timestampValidBits));
//   pool.reset(cmd);                       // before the first write, in the command buffer
//   pool.begin(cmd, i); ...work... pool.end(cmd, i);
//   (submit, and wait or let the frame's fence say it is done)
//   CHECK(pool.readMs(runs, ms, /*wait*/ true));
//
// readMs allocates nothing (its scratch is sized at create), so per-frame timers may call it.
// Not thread-safe; the pool must not be in use by the GPU when destroyed.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace vkutil {

class TimestampPool {
public:
    TimestampPool() = default;
    ~TimestampPool() { destroy(); }
    TimestampPool(TimestampPool&& other) noexcept { *this = std::move(other); }
    TimestampPool& operator=(TimestampPool&& other) noexcept;
    TimestampPool(const TimestampPool&) = delete;
    TimestampPool& operator=(const TimestampPool&) = delete;

    // `pairs` intervals; `periodNs`: VkPhysicalDeviceLimits::timestampPeriod; `validBits`: the
    // queue family's timestampValidBits (wrap-around of narrower counters is masked).
    VkResult create(VkDevice device, uint32_t pairs, double periodNs, uint32_t validBits = 64);
    void destroy();

    uint32_t pairs() const { return pairs_; }
    VkQueryPool handle() const { return pool_; }

    // Resets every query (recorded: vkCmdResetQueryPool).
    void reset(VkCommandBuffer cmd) const;
    void begin(VkCommandBuffer cmd, uint32_t pair, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) const;
    void end(VkCommandBuffer cmd, uint32_t pair, VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) const;

    // Milliseconds of pairs [0, ms.size()) into `ms`. With `wait` it blocks until they are
    // available; without, a pair the GPU has not finished reads as -1 (VK_NOT_READY is not an
    // error here). Returns the first failing VkResult otherwise.
    VkResult readMs(std::span<double> ms, bool wait);

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t pairs_ = 0;
    double periodNs_ = 1.0;
    uint64_t validMask_ = ~0ull;
    std::vector<uint64_t> results_;  // (value, availability) per query
};

}  // namespace vkutil
