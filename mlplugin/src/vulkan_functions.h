#pragma once
// The plugin's own Vulkan function table, loaded through the application's
// vkGetInstanceProcAddr: mlplugin never links the loader, so it works with whatever loader
// (or layer chain) the application uses.
#include "mlplugin/result.h"

#include <vulkan/vulkan.h>

namespace mlplugin::detail {

#define MLP_INSTANCE_FUNCTIONS(X)                   \
    X(vkGetDeviceProcAddr)                          \
    X(vkGetPhysicalDeviceProperties2)               \
    X(vkGetPhysicalDeviceFeatures2)                 \
    X(vkGetPhysicalDeviceQueueFamilyProperties)     \
    X(vkGetPhysicalDeviceMemoryProperties)          \
    X(vkEnumerateDeviceExtensionProperties)

#define MLP_DEVICE_FUNCTIONS(X)        \
    X(vkCreateDescriptorSetLayout)     \
    X(vkDestroyDescriptorSetLayout)    \
    X(vkCreatePipelineLayout)          \
    X(vkDestroyPipelineLayout)         \
    X(vkCreateShaderModule)            \
    X(vkDestroyShaderModule)           \
    X(vkCreateComputePipelines)        \
    X(vkCreatePipelineCache)           \
    X(vkDestroyPipelineCache)          \
    X(vkGetPipelineCacheData)          \
    X(vkDestroyPipeline)               \
    X(vkCreateBuffer)                  \
    X(vkDestroyBuffer)                 \
    X(vkGetBufferMemoryRequirements)   \
    X(vkAllocateMemory)                \
    X(vkFreeMemory)                    \
    X(vkBindBufferMemory)              \
    X(vkUpdateDescriptorSets)          \
    X(vkCmdBindPipeline)               \
    X(vkCmdBindDescriptorSets)         \
    X(vkCmdPushConstants)              \
    X(vkCmdDispatch)                   \
    X(vkCmdPipelineBarrier2)

struct VulkanFunctions {
#define MLP_DECLARE(name) PFN_##name name = nullptr;
    MLP_INSTANCE_FUNCTIONS(MLP_DECLARE)
    MLP_DEVICE_FUNCTIONS(MLP_DECLARE)
#undef MLP_DECLARE
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
