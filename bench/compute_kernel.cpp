#include "compute_kernel.h"

#include "engine/error.h"

#include <vkutil/pipeline.h>

#include <vector>

namespace bench {

ComputeKernel::ComputeKernel(const engine::Context& ctx, std::span<const uint32_t> spirv, std::span<const VkBuffer> buffers, uint32_t pushBytes)
    : device_(ctx.device()) {
    try {
        const std::vector<VkDescriptorType> types(buffers.size(), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        ENGINE_VK(vkutil::createDescriptorSetLayout(device_, types, VK_SHADER_STAGE_COMPUTE_BIT, &setLayout_));
        ENGINE_VK(vkutil::createPipelineLayout(device_, {.setLayouts = {&setLayout_, 1}, .pushConstantBytes = pushBytes}, &layout_));
        ENGINE_VK(vkutil::createComputePipeline(device_, {.layout = layout_, .spirv = spirv}, &pipeline_));
        const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, uint32_t(buffers.size())};
        ENGINE_VK(pool_.create(device_, 1, {&size, 1}));
        ENGINE_VK(pool_.allocate({&setLayout_, 1}, &set_));
        std::vector<VkDescriptorBufferInfo> infos;
        for (VkBuffer b : buffers) infos.push_back({b, 0, VK_WHOLE_SIZE});
        vkutil::DescriptorWrites(set_).buffers(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, infos).update(device_);
    } catch (...) {
        release();
        throw;
    }
}

ComputeKernel::~ComputeKernel() { release(); }

void ComputeKernel::release() {
    pool_.destroy();
    vkDestroyPipeline(device_, pipeline_, nullptr);
    vkDestroyPipelineLayout(device_, layout_, nullptr);
    vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
}

void ComputeKernel::dispatch(VkCommandBuffer cmd, const void* push, uint32_t pushBytes, uint32_t groupsX, uint32_t groupsY) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
    vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
    vkCmdDispatch(cmd, groupsX, groupsY, 1);
}

}  // namespace bench
