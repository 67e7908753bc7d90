#pragma once
// The effects' own Vulkan function table and the few object helpers they need. Loaded through
// the application's vkGetInstanceProcAddr: effects never link the loader.
#include "effects/effect_device.h"
#include "mlplugin/device.h"

#include <vkutil/function_table.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>

namespace effects::detail {

#define FX_INSTANCE_FUNCTIONS(X)                \
    X(vkGetDeviceProcAddr)                      \
    X(vkGetPhysicalDeviceMemoryProperties)      \
    X(vkGetPhysicalDeviceFormatProperties)      \
    X(vkGetPhysicalDeviceProperties)

// vkutil's list (what its pipeline, descriptor and barrier templates call) plus the effects' own.
#define FX_DEVICE_FUNCTIONS(X)        \
    VKUTIL_DEVICE_FUNCTIONS(X)        \
    X(vkCreateImage)                  \
    X(vkDestroyImage)                 \
    X(vkGetImageMemoryRequirements)   \
    X(vkBindImageMemory)              \
    X(vkCreateImageView)              \
    X(vkDestroyImageView)             \
    VKUTIL_BUFFER_FUNCTIONS(X)        \
    X(vkMapMemory)                    \
    X(vkUnmapMemory)                  \
    X(vkCmdClearColorImage)           \
    X(vkCmdFillBuffer)

struct VulkanApi {
    FX_INSTANCE_FUNCTIONS(VKUTIL_DECLARE_FUNCTION)
    FX_DEVICE_FUNCTIONS(VKUTIL_DECLARE_FUNCTION)
    VkDevice device = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;
    VkPhysicalDeviceMemoryProperties memory{};
};

// Loads every function; fails naming the first one the loader does not provide.
Result<VulkanApi> loadVulkanApi(const EffectDevice& device);

/// ErrorCode::Unsupported, naming `who` and the format, when this device cannot write `format`
/// as a storage image with optimal tiling (A2B10G10R10 and B10G11R11 are optional in Vulkan).
Status checkStorageImageFormat(const VulkanApi& vk, VkFormat format, const std::string& who);

// The plugin device the ML modes run their network on: the application's device and features,
// pipelines through the application's cache, the plugin's Debug layer with debugChecks.
mlplugin::DeviceDesc pluginDeviceDesc(const EffectDevice& device);

// Maps a failing call to the error model (OutOfMemory, DeviceLost, VulkanError).
Error vkFailure(VkResult result, const std::string& what);

// Device memory with the objects bound to it; sizes summed for EffectRequirements.
struct MemoryTally {
    VkDeviceSize deviceLocalBytes = 0, hostVisibleBytes = 0;
    uint32_t allocations = 0;
};

struct GpuImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{};
    VkDeviceSize bytes = 0;  // of its memory allocation
    void destroy(const VulkanApi& vk);
};

struct GpuBuffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    VkDeviceSize bytes = 0;  // of its memory allocation
    bool hostVisible = false;
    void* mapped = nullptr;  // host-visible buffers only (persistently mapped, coherent)
    void destroy(const VulkanApi& vk);
};

// A 2D storage + sampled image in device-local memory (layout UNDEFINED until the caller moves it).
Result<GpuImage> createImage(const VulkanApi& vk, VkFormat format, VkExtent2D extent, const char* what, MemoryTally& tally);
// A storage buffer; host-visible (mapped, coherent) or device-local.
Result<GpuBuffer> createBuffer(const VulkanApi& vk, VkDeviceSize size, bool hostVisible, const char* what, MemoryTally& tally);

// A compute pipeline with its own layout: one descriptor set of `bindings` and `pushBytes` of
// push constants.
struct ComputePipeline {
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    void destroy(const VulkanApi& vk);
};
Result<ComputePipeline> createComputePipeline(const VulkanApi& vk, std::span<const uint32_t> spirv,
                                              std::span<const VkDescriptorType> bindings, uint32_t pushBytes, const char* what);

// One global compute -> compute memory dependency (shader reads and writes on both sides).
void computeBarrier(const VulkanApi& vk, VkCommandBuffer cmd);

}  // namespace effects::detail
