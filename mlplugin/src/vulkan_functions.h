#pragma once
// The plugin's own Vulkan function table, loaded through the application's
// vkGetInstanceProcAddr: mlplugin never links the loader, so it works with whatever loader
// (or layer chain) the application uses.
#include "mlplugin/result.h"

#include <vkutil/function_table.h>
#include <vulkan/vulkan.h>

namespace mlplugin::detail {

#define MLP_INSTANCE_FUNCTIONS(X)                   \
    X(vkGetDeviceProcAddr)                          \
    X(vkGetPhysicalDeviceProperties2)               \
    X(vkGetPhysicalDeviceFeatures2)                 \
    X(vkGetPhysicalDeviceQueueFamilyProperties)     \
    X(vkGetPhysicalDeviceMemoryProperties)          \
    X(vkEnumerateDeviceExtensionProperties)

// vkutil's list (what its pipeline, descriptor and barrier templates call) plus the plugin's own.
#define MLP_DEVICE_FUNCTIONS(X)        \
    VKUTIL_DEVICE_FUNCTIONS(X)         \
    X(vkCreatePipelineCache)           \
    X(vkDestroyPipelineCache)          \
    X(vkGetPipelineCacheData)          \
    X(vkCmdPipelineBarrier)            \
    X(vkCreateCommandPool)             \
    X(vkDestroyCommandPool)            \
    X(vkAllocateCommandBuffers)        \
    X(vkBeginCommandBuffer)            \
    X(vkEndCommandBuffer)              \
    X(vkCmdExecuteCommands)            \
    VKUTIL_BUFFER_FUNCTIONS(X)

struct VulkanFunctions {
    MLP_INSTANCE_FUNCTIONS(VKUTIL_DECLARE_FUNCTION)
    MLP_DEVICE_FUNCTIONS(VKUTIL_DECLARE_FUNCTION)
    // Optional (VK_NV_cooperative_matrix); null when the instance does not expose it.
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV vkGetPhysicalDeviceCooperativeMatrixPropertiesNV = nullptr;
    // Optional (VK_EXT_debug_utils, when the application enabled it): names for tools and messages.
    PFN_vkSetDebugUtilsObjectNameEXT vkSetDebugUtilsObjectNameEXT = nullptr;
};

// Names `handle` for debuggers and validation messages when VK_EXT_debug_utils is available.
void setObjectName(const VulkanFunctions& fns, VkDevice device, VkObjectType type, uint64_t handle, const char* name);

// Loads every function; fails naming the first one the loader does not provide.
Result<VulkanFunctions> loadVulkanFunctions(PFN_vkGetInstanceProcAddr getInstanceProcAddr, VkInstance instance,
                                            VkDevice device);

}  // namespace mlplugin::detail
