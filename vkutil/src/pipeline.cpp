#include "vkutil/pipeline.h"

#include "loader.h"

namespace vkutil {

using detail::kLoader;

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

VkResult createGraphicsPipeline(VkDevice device, const GraphicsPipelineDesc& d, VkPipeline* pipeline) {
    VkShaderModule modules[2] = {};
    VkResult r = createShaderModule(device, d.vertex, &modules[0]);
    if (r == VK_SUCCESS) r = createShaderModule(device, d.fragment, &modules[1]);
    if (r == VK_SUCCESS) {
        std::vector<VkSpecializationMapEntry> entries(d.fragmentSpecialization.size());
        for (uint32_t i = 0; i < entries.size(); ++i) entries[i] = {i, i * 4, 4};
        const VkSpecializationInfo specialization{uint32_t(entries.size()), entries.data(), d.fragmentSpecialization.size_bytes(),
                                                  d.fragmentSpecialization.data()};
        const VkPipelineShaderStageCreateInfo stages[2] = {
            {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, modules[0], "main", nullptr},
            {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, modules[1], "main",
             entries.empty() ? nullptr : &specialization},
        };
        const VkPipelineVertexInputStateCreateInfo noVertices{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
        VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
        ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
        VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
        vp.viewportCount = 1;
        vp.scissorCount = 1;
        VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
        rs.polygonMode = VK_POLYGON_MODE_FILL;
        rs.cullMode = VK_CULL_MODE_NONE;
        rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
        rs.lineWidth = 1.0f;
        VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
        ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
        VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
        ds.depthTestEnable = d.depthFormat != VK_FORMAT_UNDEFINED;
        ds.depthWriteEnable = ds.depthTestEnable && d.depthWrite;
        ds.depthCompareOp = d.depthCompare;
        std::vector<VkPipelineColorBlendAttachmentState> blend(d.colorFormats.size());
        for (auto& b : blend) b.colorWriteMask = 0xf;
        VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
        cb.attachmentCount = uint32_t(blend.size());
        cb.pAttachments = blend.data();
        const VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_CULL_MODE};
        VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
        dy.dynamicStateCount = d.dynamicCullMode ? 3 : 2;
        dy.pDynamicStates = dynamic;
        VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
        rendering.colorAttachmentCount = uint32_t(d.colorFormats.size());
        rendering.pColorAttachmentFormats = d.colorFormats.data();
        rendering.depthAttachmentFormat = d.depthFormat;
        VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
        ci.stageCount = 2;
        ci.pStages = stages;
        ci.pVertexInputState = d.vertexInput ? d.vertexInput : &noVertices;
        ci.pInputAssemblyState = &ia;
        ci.pViewportState = &vp;
        ci.pRasterizationState = &rs;
        ci.pMultisampleState = &ms;
        ci.pDepthStencilState = &ds;
        ci.pColorBlendState = &cb;
        ci.pDynamicState = &dy;
        ci.layout = d.layout;
        r = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, pipeline);
    }
    for (VkShaderModule m : modules)
        if (m) vkDestroyShaderModule(device, m, nullptr);
    return r;
}

}  // namespace vkutil
