#include "vulkan_api.h"

#include "format_names.h"

#include <vkutil/barrier.h>
#include <vkutil/create_info.h>
#include <vkutil/pipeline.h>

#include <vector>

namespace effects::detail {
namespace {

Result<uint32_t> memoryType(const VulkanApi& vk, uint32_t typeBits, VkMemoryPropertyFlags flags, const char* what) {
    for (uint32_t i = 0; i < vk.memory.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (vk.memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
    return Error{ErrorCode::Unsupported, std::string(what) + ": no memory type with the required properties", VK_SUCCESS};
}

Result<VkDeviceMemory> allocate(const VulkanApi& vk, VkMemoryRequirements req, VkMemoryPropertyFlags flags, const char* what,
                                MemoryTally& tally) {
    auto type = memoryType(vk, req.memoryTypeBits, flags, what);
    if (!type) return type.error();
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = *type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    if (VkResult r = vk.vkAllocateMemory(vk.device, &ai, nullptr, &memory); r != VK_SUCCESS)
        return vkFailure(r, std::string(what) + ": allocating " + std::to_string(req.size) + " bytes");
    (flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT ? tally.hostVisibleBytes : tally.deviceLocalBytes) += req.size;
    ++tally.allocations;
    return memory;
}

}  // namespace

Result<VulkanApi> loadVulkanApi(const EffectDevice& d) {
    if (!d.getInstanceProcAddr) return Error{ErrorCode::InvalidArgument, "EffectDevice::getInstanceProcAddr is null", VK_SUCCESS};
    if (!d.instance || !d.physicalDevice || !d.device)
        return Error{ErrorCode::InvalidArgument, "EffectDevice: instance, physicalDevice and device are required", VK_SUCCESS};
    VulkanApi vk;
    vk.device = d.device;
    vk.physicalDevice = d.physicalDevice;
    vk.pipelineCache = d.pipelineCache;
#define FX_LOAD_INSTANCE(name)                                                                             \
    vk.name = reinterpret_cast<PFN_##name>(d.getInstanceProcAddr(d.instance, #name));                     \
    if (!vk.name) return Error{ErrorCode::Unsupported, "the Vulkan loader does not provide " #name, VK_SUCCESS};
    FX_INSTANCE_FUNCTIONS(FX_LOAD_INSTANCE)
#undef FX_LOAD_INSTANCE
#define FX_LOAD_DEVICE(name)                                                                               \
    vk.name = reinterpret_cast<PFN_##name>(vk.vkGetDeviceProcAddr(d.device, #name));                      \
    if (!vk.name) return Error{ErrorCode::Unsupported, "the Vulkan device does not provide " #name, VK_SUCCESS};
    FX_DEVICE_FUNCTIONS(FX_LOAD_DEVICE)
#undef FX_LOAD_DEVICE
    vk.vkGetPhysicalDeviceMemoryProperties(d.physicalDevice, &vk.memory);
    return vk;
}

Status checkStorageImageFormat(const VulkanApi& vk, VkFormat format, const std::string& who) {
    VkFormatProperties props{};
    vk.vkGetPhysicalDeviceFormatProperties(vk.physicalDevice, format, &props);
    if (props.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) return {};
    return Error{ErrorCode::Unsupported,
                 who + ": outputFormat " + formatName(format) +
                     " cannot be a storage image on this device (no STORAGE_IMAGE feature with optimal tiling); "
                     "R16G16B16A16_SFLOAT always can",
                 VK_SUCCESS};
}

mlplugin::DeviceDesc pluginDeviceDesc(const EffectDevice& d) {
    mlplugin::DeviceDesc md;
    md.instance = d.instance;
    md.physicalDevice = d.physicalDevice;
    md.device = d.device;
    md.queueFamilyIndex = d.queueFamilyIndex;
    md.getInstanceProcAddr = d.getInstanceProcAddr;
    md.shaderStorageBufferArrayDynamicIndexingEnabled = d.shaderStorageBufferArrayDynamicIndexingEnabled;
    md.storageBuffer16BitAccessEnabled = d.storageBuffer16BitAccessEnabled;
    md.shaderFloat16Enabled = d.shaderFloat16Enabled;
    md.cooperativeMatrixNVEnabled = d.cooperativeMatrixNVEnabled;
    md.flags = d.debugChecks ? mlplugin::DeviceFlagDebug : mlplugin::DeviceFlagNone;
    md.pipelineCache = d.pipelineCache;
    return md;
}

Error vkFailure(VkResult result, const std::string& what) {
    ErrorCode code = ErrorCode::VulkanError;
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) code = ErrorCode::OutOfMemory;
    if (result == VK_ERROR_DEVICE_LOST) code = ErrorCode::DeviceLost;
    return Error{code, what + " failed (VkResult " + std::to_string(int(result)) + ")", result};
}

void GpuImage::destroy(const VulkanApi& vk) {
    if (view) vk.vkDestroyImageView(vk.device, view, nullptr);
    if (image) vk.vkDestroyImage(vk.device, image, nullptr);
    if (memory) vk.vkFreeMemory(vk.device, memory, nullptr);
    *this = {};
}

void GpuBuffer::destroy(const VulkanApi& vk) {
    if (mapped) vk.vkUnmapMemory(vk.device, memory);
    if (buffer) vk.vkDestroyBuffer(vk.device, buffer, nullptr);
    if (memory) vk.vkFreeMemory(vk.device, memory, nullptr);
    *this = {};
}

void ComputePipeline::destroy(const VulkanApi& vk) {
    if (pipeline) vk.vkDestroyPipeline(vk.device, pipeline, nullptr);
    if (layout) vk.vkDestroyPipelineLayout(vk.device, layout, nullptr);
    if (setLayout) vk.vkDestroyDescriptorSetLayout(vk.device, setLayout, nullptr);
    *this = {};
}

Result<GpuImage> createImage(const VulkanApi& vk, VkFormat format, VkExtent2D extent, const char* what, MemoryTally& tally) {
    GpuImage out;
    out.format = format;
    out.extent = extent;
    const VkImageCreateInfo ci =
        vkutil::image2DInfo(format, extent, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    if (VkResult r = vk.vkCreateImage(vk.device, &ci, nullptr, &out.image); r != VK_SUCCESS)
        return vkFailure(r, std::string("creating the ") + what + " image");
    VkMemoryRequirements req;
    vk.vkGetImageMemoryRequirements(vk.device, out.image, &req);
    auto memory = allocate(vk, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, what, tally);
    if (!memory) {
        out.destroy(vk);
        return memory.error();
    }
    out.memory = *memory;
    out.bytes = req.size;
    VkResult r = vk.vkBindImageMemory(vk.device, out.image, out.memory, 0);
    const VkImageViewCreateInfo vi = vkutil::imageView2DInfo(out.image, format);
    if (r == VK_SUCCESS) r = vk.vkCreateImageView(vk.device, &vi, nullptr, &out.view);
    if (r != VK_SUCCESS) {
        out.destroy(vk);
        return vkFailure(r, std::string("binding the ") + what + " image");
    }
    return out;
}

Result<GpuBuffer> createBuffer(const VulkanApi& vk, VkDeviceSize size, bool hostVisible, const char* what, MemoryTally& tally) {
    GpuBuffer out;
    out.size = size;
    VkBufferCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    ci.size = size;
    ci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    if (VkResult r = vk.vkCreateBuffer(vk.device, &ci, nullptr, &out.buffer); r != VK_SUCCESS)
        return vkFailure(r, std::string("creating the ") + what + " buffer");
    VkMemoryRequirements req;
    vk.vkGetBufferMemoryRequirements(vk.device, out.buffer, &req);
    VkMemoryPropertyFlags flags = hostVisible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                              : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    auto memory = allocate(vk, req, flags, what, tally);
    if (!memory) {
        out.destroy(vk);
        return memory.error();
    }
    out.memory = *memory;
    out.bytes = req.size;
    out.hostVisible = hostVisible;
    VkResult r = vk.vkBindBufferMemory(vk.device, out.buffer, out.memory, 0);
    if (r == VK_SUCCESS && hostVisible) r = vk.vkMapMemory(vk.device, out.memory, 0, VK_WHOLE_SIZE, 0, &out.mapped);
    if (r != VK_SUCCESS) {
        out.destroy(vk);
        return vkFailure(r, std::string("binding the ") + what + " buffer");
    }
    return out;
}

Result<ComputePipeline> createComputePipeline(const VulkanApi& vk, std::span<const uint32_t> spirv,
                                              std::span<const VkDescriptorType> bindings, uint32_t pushBytes, const char* what) {
    ComputePipeline p;
    VkResult r = vkutil::createDescriptorSetLayout(vk, vk.device, bindings, VK_SHADER_STAGE_COMPUTE_BIT, &p.setLayout);
    if (r == VK_SUCCESS) r = vkutil::createPipelineLayout(vk, vk.device, {.setLayouts = {&p.setLayout, 1}, .pushConstantBytes = pushBytes}, &p.layout);
    if (r == VK_SUCCESS)
        r = vkutil::createComputePipeline(vk, vk.device, {.layout = p.layout, .spirv = spirv, .cache = vk.pipelineCache}, &p.pipeline);
    if (r != VK_SUCCESS) {
        p.destroy(vk);
        return vkFailure(r, std::string("creating the ") + what + " pipeline");
    }
    return p;
}

void computeBarrier(const VulkanApi& vk, VkCommandBuffer cmd) {
    constexpr VkAccessFlags2 access = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    vkutil::memoryBarrier(vk, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access);
}

}  // namespace effects::detail
