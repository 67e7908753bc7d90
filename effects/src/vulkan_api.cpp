#include "vulkan_api.h"

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
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {extent.width, extent.height, 1};
    ci.mipLevels = 1;
    ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
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
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = out.image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
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
    std::vector<VkDescriptorSetLayoutBinding> b;
    for (uint32_t i = 0; i < bindings.size(); ++i) b.push_back({i, bindings[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sci.bindingCount = uint32_t(b.size());
    sci.pBindings = b.data();
    VkResult r = vk.vkCreateDescriptorSetLayout(vk.device, &sci, nullptr, &p.setLayout);
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 1;
    lci.pSetLayouts = &p.setLayout;
    lci.pushConstantRangeCount = pushBytes ? 1 : 0;
    lci.pPushConstantRanges = &range;
    if (r == VK_SUCCESS) r = vk.vkCreatePipelineLayout(vk.device, &lci, nullptr, &p.layout);
    VkShaderModule module = VK_NULL_HANDLE;
    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = spirv.size_bytes();
    mci.pCode = spirv.data();
    if (r == VK_SUCCESS) r = vk.vkCreateShaderModule(vk.device, &mci, nullptr, &module);
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    ci.layout = p.layout;
    if (r == VK_SUCCESS) r = vk.vkCreateComputePipelines(vk.device, vk.pipelineCache, 1, &ci, nullptr, &p.pipeline);
    if (module) vk.vkDestroyShaderModule(vk.device, module, nullptr);
    if (r != VK_SUCCESS) {
        p.destroy(vk);
        return vkFailure(r, std::string("creating the ") + what + " pipeline");
    }
    return p;
}

void computeBarrier(const VulkanApi& vk, VkCommandBuffer cmd) {
    constexpr VkAccessFlags2 access = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, access};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &mb;
    vk.vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace effects::detail
