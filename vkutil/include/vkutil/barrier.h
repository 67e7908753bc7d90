#pragma once
// One global memory barrier (synchronization2): what the tools, tests, effects and one-off
// submissions need between a writer and its readers. Per-resource barriers in the frame are the
// frame graph's job. The first form calls the loader; the template calls `vk.vkCmdPipelineBarrier2`
// of a function table (see pipeline.h).
#include <vulkan/vulkan.h>

namespace vkutil {

template <class Vk>
void memoryBarrier(const Vk& vk, VkCommandBuffer cmd, VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages,
                   VkAccessFlags2 dstAccess) {
    const VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, srcStages, srcAccess, dstStages, dstAccess};
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &barrier;
    vk.vkCmdPipelineBarrier2(cmd, &dependency);
}

inline void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages,
                          VkAccessFlags2 dstAccess) {
    struct {
        PFN_vkCmdPipelineBarrier2 vkCmdPipelineBarrier2 = ::vkCmdPipelineBarrier2;
    } loader;
    memoryBarrier(loader, cmd, srcStages, srcAccess, dstStages, dstAccess);
}

}  // namespace vkutil
