#pragma once
// A 2D image with its own device-local memory and a view of the whole image: what applications,
// tests and tools create for images they own (history buffers, test inputs and outputs, scene
// textures). Owned,
// move-only; through the loader (the vkutil library). Frame-graph transients are not created
// this way: the frame graph aliases their memory.
#include <vulkan/vulkan.h>

#include <utility>

namespace vkutil {

// The depth aspect for depth formats, the colour aspect otherwise.
VkImageAspectFlags aspectOf(VkFormat format);

class Image {
public:
    Image() = default;
    ~Image() { destroy(); }
    Image(Image&& other) noexcept { *this = std::move(other); }
    Image& operator=(Image&& other) noexcept;
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;

    // One layer, optimal tiling, layout UNDEFINED; memory of the first device-local type that fits
    // (VK_ERROR_OUT_OF_DEVICE_MEMORY when none does); the view covers every mip level.
    VkResult create(VkPhysicalDevice physicalDevice, VkDevice device, VkFormat format, VkExtent2D extent, VkImageUsageFlags usage,
                    uint32_t mipLevels = 1);
    void destroy();

    VkImage handle() const { return image_; }
    VkImageView view() const { return view_; }
    VkFormat format() const { return format_; }
    VkExtent2D extent() const { return extent_; }
    VkImageAspectFlags aspect() const { return aspectOf(format_); }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkImage image_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{};
};

}  // namespace vkutil
