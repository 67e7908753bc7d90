#pragma once
// The device-level entry points vkutil's templates call (pipeline.h, descriptors.h, barrier.h),
// as an X-macro list. Libraries that load Vulkan through the application's
// vkGetInstanceProcAddr (mlplugin, effects) build their function tables from it plus what else
// they need, so a table always has what the helpers expect:
//
//   #define MY_DEVICE_FUNCTIONS(X) VKUTIL_DEVICE_FUNCTIONS(X) X(vkCreateBuffer) ...
//   struct Functions {
//       MY_DEVICE_FUNCTIONS(VKUTIL_DECLARE_FUNCTION)
//   };
#define VKUTIL_DEVICE_FUNCTIONS(X)   \
    X(vkCreateShaderModule)          \
    X(vkDestroyShaderModule)         \
    X(vkCreateComputePipelines)      \
    X(vkDestroyPipeline)             \
    X(vkCreatePipelineLayout)        \
    X(vkDestroyPipelineLayout)       \
    X(vkCreateDescriptorSetLayout)   \
    X(vkDestroyDescriptorSetLayout)  \
    X(vkCreateDescriptorPool)        \
    X(vkDestroyDescriptorPool)       \
    X(vkAllocateDescriptorSets)      \
    X(vkUpdateDescriptorSets)        \
    X(vkCmdBindPipeline)             \
    X(vkCmdBindDescriptorSets)       \
    X(vkCmdPushConstants)            \
    X(vkCmdDispatch)                 \
    X(vkCmdPipelineBarrier2)         \
    X(vkCreateSampler)               \
    X(vkDestroySampler)

// What a library that owns buffers needs besides (mlplugin and effects both do).
#define VKUTIL_BUFFER_FUNCTIONS(X)   \
    X(vkCreateBuffer)                \
    X(vkDestroyBuffer)               \
    X(vkGetBufferMemoryRequirements) \
    X(vkAllocateMemory)              \
    X(vkFreeMemory)                  \
    X(vkBindBufferMemory)

// Declares one member of a table: `PFN_vkXxx vkXxx = nullptr;`.
#define VKUTIL_DECLARE_FUNCTION(name) PFN_##name name = nullptr;
