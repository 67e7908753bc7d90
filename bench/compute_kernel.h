#pragma once
// A ceiling kernel: one compute pipeline over storage buffers (bindings 0..n-1, one descriptor
// set written at creation) and push constants. Used by the device ceilings ml_bench measures.
#include "engine/context.h"

#include <vkutil/descriptors.h>

#include <cstdint>
#include <span>

namespace bench {

class ComputeKernel {
public:
    ComputeKernel(const engine::Context& ctx, std::span<const uint32_t> spirv, std::span<const VkBuffer> buffers, uint32_t pushBytes);
    ~ComputeKernel();
    ComputeKernel(const ComputeKernel&) = delete;
    ComputeKernel& operator=(const ComputeKernel&) = delete;

    // Binds the pipeline, the set and `pushBytes` of `push`, then dispatches groupsX x groupsY.
    void dispatch(VkCommandBuffer cmd, const void* push, uint32_t pushBytes, uint32_t groupsX, uint32_t groupsY = 1) const;

private:
    void release();

    VkDevice device_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    vkutil::DescriptorPool pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

}  // namespace bench
