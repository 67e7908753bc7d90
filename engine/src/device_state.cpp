// Context's device memory accounting (budget, statistics, the library loader entry point) and
// device-loss state (observe, simulateDeviceLoss).
#include "device_state.h"

#include "engine/error.h"

#include <cstdio>
#include <cstring>
#include <unordered_map>

namespace engine {

namespace {

// Which Context owns a VkDevice, for the library entry points (a plain function pointer carries
// no user data; layers dispatch by device handle the same way).
std::mutex registryMutex;
std::unordered_map<VkDevice, const Context*>& registry() {
    static std::unordered_map<VkDevice, const Context*> map;
    return map;
}

const Context* owner(VkDevice device) {
    std::lock_guard lock(registryMutex);
    auto it = registry().find(device);
    return it == registry().end() ? nullptr : it->second;
}

VKAPI_ATTR VkResult VKAPI_CALL libraryAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                                     const VkAllocationCallbacks* allocator, VkDeviceMemory* memory) {
    if (const Context* ctx = owner(device)) return ctx->tryAllocateMemory(*info, memory);
    return vkAllocateMemory(device, info, allocator, memory);
}

VKAPI_ATTR void VKAPI_CALL libraryFreeMemory(VkDevice device, VkDeviceMemory memory, const VkAllocationCallbacks* allocator) {
    if (const Context* ctx = owner(device)) return ctx->freeMemory(memory);
    vkFreeMemory(device, memory, allocator);
}

PFN_vkVoidFunction intercepted(const char* name) {
    if (std::strcmp(name, "vkAllocateMemory") == 0) return reinterpret_cast<PFN_vkVoidFunction>(libraryAllocateMemory);
    if (std::strcmp(name, "vkFreeMemory") == 0) return reinterpret_cast<PFN_vkVoidFunction>(libraryFreeMemory);
    return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL libraryGetDeviceProcAddr(VkDevice device, const char* name) {
    if (PFN_vkVoidFunction f = intercepted(name)) return f;
    return vkGetDeviceProcAddr(device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL libraryGetInstanceProcAddr(VkInstance instance, const char* name) {
    if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(libraryGetDeviceProcAddr);
    if (PFN_vkVoidFunction f = intercepted(name)) return f;
    return vkGetInstanceProcAddr(instance, name);
}

}  // namespace

void registerDevice(VkDevice device, const Context* ctx) {
    std::lock_guard lock(registryMutex);
    if (ctx) registry()[device] = ctx;
    else registry().erase(device);
}

VkResult Context::tryAllocateMemory(const VkMemoryAllocateInfo& info, VkDeviceMemory* memory) const {
    DeviceState& s = *state_;
    {
        std::lock_guard lock(s.mutex);
        if (s.budget && s.inUse + info.allocationSize > s.budget) {
            ++s.failed;
            return VK_ERROR_OUT_OF_DEVICE_MEMORY;
        }
        s.inUse += info.allocationSize;  // reserved before the call: two threads cannot both fit
    }
    const VkResult r = vkAllocateMemory(device_, &info, nullptr, memory);
    std::lock_guard lock(s.mutex);
    if (r != VK_SUCCESS) {
        s.inUse -= info.allocationSize;
        ++s.failed;
        return r;
    }
    s.sizes[*memory] = info.allocationSize;
    s.peak = std::max(s.peak, s.inUse);
    ++s.allocations;
    return r;
}

VkDeviceMemory Context::allocateMemory(const VkMemoryAllocateInfo& info, const std::string& what) const {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const VkResult r = tryAllocateMemory(info, &memory);
    if (r == VK_SUCCESS) return memory;
    const DeviceMemoryStats stats = memoryStats();
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
        const char* kind = r == VK_ERROR_OUT_OF_HOST_MEMORY ? "host" : "device";
        std::string message = "out of " + std::string(kind) + " memory: " + what + " needs " + formatBytes(info.allocationSize);
        message += stats.budget ? ", budget " + formatBytes(stats.budget) + " (" + formatBytes(stats.inUse) + " in use)"
                                : " (" + formatBytes(stats.inUse) + " in use; the driver refused with " + toString(r) + ")";
        throw Error(ErrorCode::OutOfMemory, message, r);
    }
    throw Error(what + ": vkAllocateMemory of " + formatBytes(info.allocationSize) + " failed with " + toString(r), r);
}

void Context::freeMemory(VkDeviceMemory memory) const {
    if (!memory) return;
    vkFreeMemory(device_, memory, nullptr);
    DeviceState& s = *state_;
    std::lock_guard lock(s.mutex);
    auto it = s.sizes.find(memory);
    if (it == s.sizes.end()) return;
    s.inUse -= it->second;
    s.sizes.erase(it);
}

DeviceMemoryStats Context::memoryStats() const {
    DeviceMemoryStats out;
    {
        const DeviceState& s = *state_;
        std::lock_guard lock(s.mutex);
        out.budget = s.budget;
        out.inUse = s.inUse;
        out.peak = s.peak;
        out.liveAllocations = s.sizes.size();
        out.allocations = s.allocations;
        out.failedAllocations = s.failed;
    }
    if (features_.memoryBudget) {
        VkPhysicalDeviceMemoryBudgetPropertiesEXT budget{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
        VkPhysicalDeviceMemoryProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, &budget};
        vkGetPhysicalDeviceMemoryProperties2(physicalDevice_, &props);
        for (uint32_t h = 0; h < props.memoryProperties.memoryHeapCount; ++h) {
            if (!(props.memoryProperties.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)) continue;
            out.driverUsage += budget.heapUsage[h];
            out.driverBudget += budget.heapBudget[h];
        }
    }
    return out;
}

PFN_vkGetInstanceProcAddr Context::libraryProcAddr() const { return libraryGetInstanceProcAddr; }

VkResult Context::observe(VkResult result) const {
    DeviceState& s = *state_;
    if (result == VK_ERROR_DEVICE_LOST) s.lost = true;
    return s.lost ? VK_ERROR_DEVICE_LOST : result;
}

void Context::simulateDeviceLoss() const {
    state_->simulated = true;
    state_->lost = true;
}

bool Context::deviceLost() const { return state_->lost; }
bool Context::deviceLossSimulated() const { return state_->simulated; }

}  // namespace engine
