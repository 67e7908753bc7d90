#pragma once
// Shader modules, compute pipelines and their layouts: the create-info boilerplate, once.
//
//   VkPipeline pipeline;
//   ENGINE_VK(vkutil::createComputePipeline(device, {.layout = layout, .spirv = shaders::blur()}, &pipeline));
//
// Every function returns the VkResult of the Vulkan call and writes the handle only on success;
// the caller applies its own error model (ENGINE_VK, a Result, ...) and owns what is created.
//
// Two forms of each: one calls the loader's exported entry points (defined in the vkutil
// library, which links the loader: the engine, bridge, demos, benchmarks); the template takes the
// entry points as a table `vk`, any struct with members named after the functions it calls
// (vkCreateShaderModule, vkDestroyShaderModule, vkCreateComputePipelines, vkCreatePipelineLayout,
// vkCreateDescriptorSetLayout). Libraries that load Vulkan through the application's
// vkGetInstanceProcAddr and never link the loader (mlplugin, effects) use the template with their
// own table and need only this header (target vkutil_headers).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

namespace vkutil {

struct ComputePipelineDesc {
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::span<const uint32_t> spirv;  // entry point "main"
    // constant_id i takes specialization[i]: 4 bytes each (uint, int, float and bool alike).
    std::span<const uint32_t> specialization;
    VkPipelineCreateFlags flags = 0;
    VkPipelineCache cache = VK_NULL_HANDLE;
};

struct PipelineLayoutDesc {
    std::span<const VkDescriptorSetLayout> setLayouts;
    uint32_t pushConstantBytes = 0;  // one range from offset 0; 0: none
    VkShaderStageFlags pushConstantStages = VK_SHADER_STAGE_COMPUTE_BIT;
};

template <class Vk>
VkResult createShaderModule(const Vk& vk, VkDevice device, std::span<const uint32_t> spirv, VkShaderModule* module) {
    VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = spirv.size_bytes();
    ci.pCode = spirv.data();
    return vk.vkCreateShaderModule(device, &ci, nullptr, module);
}

// The shader module lives only for the call. VK_PIPELINE_COMPILE_REQUIRED (a cache miss under
// VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) is returned as is, with no pipeline.
template <class Vk>
VkResult createComputePipeline(const Vk& vk, VkDevice device, const ComputePipelineDesc& desc, VkPipeline* pipeline) {
    VkShaderModule module = VK_NULL_HANDLE;
    if (VkResult r = createShaderModule(vk, device, desc.spirv, &module); r != VK_SUCCESS) return r;
    std::vector<VkSpecializationMapEntry> entries(desc.specialization.size());
    for (uint32_t i = 0; i < entries.size(); ++i) entries[i] = {i, i * 4, 4};
    const VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(), desc.specialization.size_bytes(),
                                              desc.specialization.data()};
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.flags = desc.flags;
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main",
                entries.empty() ? nullptr : &specialization};
    ci.layout = desc.layout;
    const VkResult r = vk.vkCreateComputePipelines(device, desc.cache, 1, &ci, nullptr, pipeline);
    vk.vkDestroyShaderModule(device, module, nullptr);
    return r;
}

template <class Vk>
VkResult createPipelineLayout(const Vk& vk, VkDevice device, const PipelineLayoutDesc& desc, VkPipelineLayout* layout) {
    const VkPushConstantRange push{desc.pushConstantStages, 0, desc.pushConstantBytes};
    VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ci.setLayoutCount = uint32_t(desc.setLayouts.size());
    ci.pSetLayouts = desc.setLayouts.data();
    ci.pushConstantRangeCount = desc.pushConstantBytes ? 1 : 0;
    ci.pPushConstantRanges = &push;
    return vk.vkCreatePipelineLayout(device, &ci, nullptr, layout);
}

// Binding i holds `arraySize` descriptors of types[i], visible to `stages`.
template <class Vk>
VkResult createDescriptorSetLayout(const Vk& vk, VkDevice device, std::span<const VkDescriptorType> types, VkShaderStageFlags stages,
                                   VkDescriptorSetLayout* layout, uint32_t arraySize = 1) {
    std::vector<VkDescriptorSetLayoutBinding> bindings(types.size());
    for (uint32_t i = 0; i < bindings.size(); ++i) bindings[i] = {i, types[i], arraySize, stages, nullptr};
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    return vk.vkCreateDescriptorSetLayout(device, &ci, nullptr, layout);
}

// A graphics pipeline for dynamic rendering: triangle lists, counter-clockwise front faces, no
// culling (or a dynamic cull mode), one sample, viewport and scissor dynamic, every colour
// attachment written without blending; a depth test when `depthFormat` is set. Through the
// loader only (graphics is the engine's business).
struct GraphicsPipelineDesc {
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::span<const uint32_t> vertex, fragment;  // SPIR-V, entry points "main"
    std::span<const uint32_t> fragmentSpecialization;  // as ComputePipelineDesc::specialization
    std::span<const VkFormat> colorFormats;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    VkCompareOp depthCompare = VK_COMPARE_OP_LESS;
    bool depthWrite = true;
    bool dynamicCullMode = false;  // set with vkCmdSetCullMode before each draw
    const VkPipelineVertexInputStateCreateInfo* vertexInput = nullptr;  // null: no vertex buffers
};
VkResult createGraphicsPipeline(VkDevice device, const GraphicsPipelineDesc& desc, VkPipeline* pipeline);

// Through the loader (the vkutil library).
VkResult createShaderModule(VkDevice device, std::span<const uint32_t> spirv, VkShaderModule* module);
VkResult createComputePipeline(VkDevice device, const ComputePipelineDesc& desc, VkPipeline* pipeline);
VkResult createPipelineLayout(VkDevice device, const PipelineLayoutDesc& desc, VkPipelineLayout* layout);
VkResult createDescriptorSetLayout(VkDevice device, std::span<const VkDescriptorType> types, VkShaderStageFlags stages,
                                   VkDescriptorSetLayout* layout, uint32_t arraySize = 1);

}  // namespace vkutil
