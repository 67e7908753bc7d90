#include "vkutil/pipeline.h"

namespace vkutil {
namespace {

// The loader's exported entry points as a table for the templates.
struct Loader {
    PFN_vkCreateShaderModule vkCreateShaderModule = ::vkCreateShaderModule;
    PFN_vkDestroyShaderModule vkDestroyShaderModule = ::vkDestroyShaderModule;
    PFN_vkCreateComputePipelines vkCreateComputePipelines = ::vkCreateComputePipelines;
    PFN_vkCreatePipelineLayout vkCreatePipelineLayout = ::vkCreatePipelineLayout;
    PFN_vkCreateDescriptorSetLayout vkCreateDescriptorSetLayout = ::vkCreateDescriptorSetLayout;
};
const Loader kLoader;

}  // namespace

VkResult createShaderModule(VkDevice device, std::span<const uint32_t> spirv, VkShaderModule* module) {
    return createShaderModule(kLoader, device, spirv, module);
}

VkResult createComputePipeline(VkDevice device, const ComputePipelineDesc& desc, VkPipeline* pipeline) {
    return createComputePipeline(kLoader, device, desc, pipeline);
}

VkResult createPipelineLayout(VkDevice device, const PipelineLayoutDesc& desc, VkPipelineLayout* layout) {
    return createPipelineLayout(kLoader, device, desc, layout);
}

VkResult createDescriptorSetLayout(VkDevice device, std::span<const VkDescriptorType> types, VkShaderStageFlags stages,
                                   VkDescriptorSetLayout* layout, uint32_t arraySize) {
    return createDescriptorSetLayout(kLoader, device, types, stages, layout, arraySize);
}

}  // namespace vkutil
