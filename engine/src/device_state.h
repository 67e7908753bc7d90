#pragma once
// Context::DeviceState: what Context tracks about its VkDevice at run time (device_state.cpp).
#include "engine/context.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

namespace engine {

struct Context::DeviceState {
    mutable std::mutex mutex;  // guards the memory fields
    VkDeviceSize budget = 0;
    VkDeviceSize inUse = 0;
    VkDeviceSize peak = 0;
    uint64_t allocations = 0;
    uint64_t failed = 0;
    std::unordered_map<VkDeviceMemory, VkDeviceSize> sizes;  // live allocations
    std::atomic<bool> lost{false};
    std::atomic<bool> simulated{false};
};

// Makes `device`'s allocations through Context::libraryProcAddr() go to `ctx` (nullptr: forget it).
void registerDevice(VkDevice device, const Context* ctx);

}  // namespace engine
