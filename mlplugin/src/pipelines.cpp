// The device's pipeline cache: one VkPipeline per (SPIR-V, specialization constants).
#include "device_impl.h"

#include <string>

namespace mlplugin::detail {

PipelineCache::~PipelineCache() {
    for (auto& [key, pipeline] : pipelines_) fns_.vkDestroyPipeline(device_, pipeline, nullptr);
}

size_t PipelineCache::size() const {
    std::lock_guard lock(mutex_);
    return pipelines_.size();
}

Result<VkPipeline> PipelineCache::get(const PipelineSpec& spec) {
    if (spec.spirv.empty()) return invalidArgument(std::string("internal error: pipeline '") + spec.debugName + "' has no SPIR-V");
    std::lock_guard lock(mutex_);
    Key key{spec.spirv.data(), spec.specConstants};
    if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;
    Result<VkPipeline> created = create(spec);
    if (created) pipelines_.emplace(std::move(key), *created);
    return created;
}

Result<VkPipeline> createComputePipeline(const VulkanFunctions& fns, VkDevice device, VkPipelineLayout layout, const PipelineSpec& spec,
                                         VkPipelineCreateFlags flags) {
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spec.spirv.size_bytes();
    smci.pCode = spec.spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r = fns.vkCreateShaderModule(device, &smci, nullptr, &module); r != VK_SUCCESS)
        return vulkanError(r, std::string("vkCreateShaderModule for '") + spec.debugName + "'");

    // constant_id i = specConstants[i], 4 bytes each (uint, int, float and bool alike).
    std::vector<VkSpecializationMapEntry> entries(spec.specConstants.size());
    for (uint32_t i = 0; i < entries.size(); ++i) entries[i] = {i, i * 4, 4};
    VkSpecializationInfo si{uint32_t(entries.size()), entries.data(), spec.specConstants.size() * 4, spec.specConstants.data()};

    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.flags = flags;
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = "main";
    cpci.stage.pSpecializationInfo = entries.empty() ? nullptr : &si;
    cpci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult r = fns.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline);
    fns.vkDestroyShaderModule(device, module, nullptr);
    if (r != VK_SUCCESS) return vulkanError(r, std::string("vkCreateComputePipelines for '") + spec.debugName + "'");
    setObjectName(fns, device, VK_OBJECT_TYPE_PIPELINE, uint64_t(pipeline), spec.debugName);
    return pipeline;
}

Result<VkPipeline> PipelineCache::create(const PipelineSpec& spec) const { return createComputePipeline(fns_, device_, layout_, spec); }

}  // namespace mlplugin::detail
