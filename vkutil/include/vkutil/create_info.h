#pragma once
// Create-info structs for the cases everyone writes the same way (pure functions: samplers, 2D
// images and their views), and a sampler
// made from one (through the loader, or through a function table `vk` as in pipeline.h).
#include <vulkan/vulkan.h>

namespace vkutil {

// A sampler that clamps to the edge, no mipmaps, `filter` for magnification and minification.
inline VkSamplerCreateInfo samplerInfo(VkFilter filter) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = filter;
    ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    ci.addressModeU = ci.addressModeV = ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    ci.maxLod = 0.0f;
    return ci;
}

template <class Vk>
VkResult createSampler(const Vk& vk, VkDevice device, VkFilter filter, VkSampler* sampler) {
    const VkSamplerCreateInfo ci = samplerInfo(filter);
    return vk.vkCreateSampler(device, &ci, nullptr, sampler);
}
VkResult createSampler(VkDevice device, VkFilter filter, VkSampler* sampler);  // the vkutil library

// A 2D image, one layer, one sample, optimal tiling, initial layout UNDEFINED.
inline VkImageCreateInfo image2DInfo(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage, uint32_t mipLevels = 1) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {extent.width, extent.height, 1};
    ci.mipLevels = mipLevels;
    ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = usage;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    return ci;
}

// A 2D view of `image` (one layer) covering mip levels 0 .. mipLevels-1 of `aspect`.
inline VkImageViewCreateInfo imageView2DInfo(VkImage image, VkFormat format, VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                                             uint32_t mipLevels = 1) {
    VkImageViewCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    ci.image = image;
    ci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    ci.format = format;
    ci.subresourceRange = {aspect, 0, mipLevels, 0, 1};
    return ci;
}

}  // namespace vkutil
