#pragma once
// One global memory barrier and whole-image layout transitions (synchronization2): what the
// tools, tests, effects and one-off submissions need between a writer and its readers. Per-resource barriers in the frame are the
// frame graph's job. The first form calls the loader; the template calls `vk.vkCmdPipelineBarrier2`
// of a function table (see pipeline.h).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

namespace vkutil {

// A compute shader's reads and writes of storage buffers and images.
inline constexpr VkAccessFlags2 kShaderStorageReadWrite = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

template <class Vk>
void memoryBarrier(const Vk& vk, VkCommandBuffer cmd, VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages,
                   VkAccessFlags2 dstAccess) {
    const VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, srcStages, srcAccess, dstStages, dstAccess};
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &barrier;
    vk.vkCmdPipelineBarrier2(cmd, &dependency);
}

namespace detail {
// The loader's entry point as a table (odr-used only by the loader-bound forms below).
struct LoaderBarrier {
    PFN_vkCmdPipelineBarrier2 vkCmdPipelineBarrier2 = ::vkCmdPipelineBarrier2;
};
}  // namespace detail

inline void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages,
                          VkAccessFlags2 dstAccess) {
    memoryBarrier(detail::LoaderBarrier{}, cmd, srcStages, srcAccess, dstStages, dstAccess);
}

// A layout transition (and memory dependency) of a whole single-layer image (`levels` mip levels).
inline VkImageMemoryBarrier2 imageBarrierInfo(VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                                              VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages,
                                              VkAccessFlags2 dstAccess, uint32_t levels = 1) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = srcStages;
    b.srcAccessMask = srcAccess;
    b.dstStageMask = dstStages;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {aspect, 0, levels, 0, 1};
    return b;
}

template <class Vk>
void imageBarriers(const Vk& vk, VkCommandBuffer cmd, std::span<const VkImageMemoryBarrier2> barriers) {
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.imageMemoryBarrierCount = uint32_t(barriers.size());
    dependency.pImageMemoryBarriers = barriers.data();
    vk.vkCmdPipelineBarrier2(cmd, &dependency);
}

inline void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from, VkImageLayout to,
                         VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages, VkAccessFlags2 dstAccess,
                         uint32_t levels = 1) {
    const VkImageMemoryBarrier2 b = imageBarrierInfo(image, aspect, from, to, srcStages, srcAccess, dstStages, dstAccess, levels);
    imageBarriers(detail::LoaderBarrier{}, cmd, {&b, 1});
}

}  // namespace vkutil
