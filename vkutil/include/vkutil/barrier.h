#pragma once
// One global memory barrier (synchronization2): what the tools, tests and one-off submissions
// need between a writer and its readers. Per-resource barriers in the frame are the frame
// graph's job.
#include <vulkan/vulkan.h>

namespace vkutil {

inline void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStages, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStages,
                          VkAccessFlags2 dstAccess) {
    const VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, srcStages, srcAccess, dstStages, dstAccess};
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &dependency);
}

}  // namespace vkutil
