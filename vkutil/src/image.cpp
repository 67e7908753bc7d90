#include "vkutil/image.h"

#include "vkutil/create_info.h"

namespace vkutil {

VkImageAspectFlags aspectOf(VkFormat format) {
    switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT: return VK_IMAGE_ASPECT_DEPTH_BIT;
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    default: return VK_IMAGE_ASPECT_COLOR_BIT;
    }
}

Image& Image::operator=(Image&& other) noexcept {
    if (this != &other) {
        destroy();
        device_ = std::exchange(other.device_, VK_NULL_HANDLE);
        image_ = std::exchange(other.image_, VK_NULL_HANDLE);
        view_ = std::exchange(other.view_, VK_NULL_HANDLE);
        memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
        format_ = other.format_;
        extent_ = other.extent_;
    }
    return *this;
}

VkResult Image::create(VkPhysicalDevice physicalDevice, VkDevice device, VkFormat format, VkExtent2D extent, VkImageUsageFlags usage,
                       uint32_t mipLevels) {
    destroy();
    device_ = device;
    format_ = format;
    extent_ = extent;
    const VkImageCreateInfo ci = image2DInfo(format, extent, usage, mipLevels);
    VkResult r = vkCreateImage(device, &ci, nullptr, &image_);
    if (r == VK_SUCCESS) {
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device, image_, &req);
        VkPhysicalDeviceMemoryProperties props;
        vkGetPhysicalDeviceMemoryProperties(physicalDevice, &props);
        VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = UINT32_MAX;
        for (uint32_t i = 0; i < props.memoryTypeCount && ai.memoryTypeIndex == UINT32_MAX; ++i)
            if ((req.memoryTypeBits & (1u << i)) && (props.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) ai.memoryTypeIndex = i;
        r = ai.memoryTypeIndex == UINT32_MAX ? VK_ERROR_OUT_OF_DEVICE_MEMORY : vkAllocateMemory(device, &ai, nullptr, &memory_);
    }
    if (r == VK_SUCCESS) r = vkBindImageMemory(device, image_, memory_, 0);
    if (r == VK_SUCCESS) {
        const VkImageViewCreateInfo vi = imageView2DInfo(image_, format, aspectOf(format), mipLevels);
        r = vkCreateImageView(device, &vi, nullptr, &view_);
    }
    if (r != VK_SUCCESS) destroy();
    return r;
}

void Image::destroy() {
    if (view_) vkDestroyImageView(device_, view_, nullptr);
    if (image_) vkDestroyImage(device_, image_, nullptr);
    if (memory_) vkFreeMemory(device_, memory_, nullptr);
    view_ = VK_NULL_HANDLE;
    image_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
}

}  // namespace vkutil
