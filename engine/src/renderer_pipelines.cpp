#include "renderer_pipelines.h"

#include "engine/context.h"
#include "engine/error.h"
#include "engine/renderer_shared.h"
#include "engine/scene.h"

#include <engine_shaders.h>

#include <array>
#include <span>
#include <vector>

namespace engine {
namespace {

class ShaderModule {
public:
    ShaderModule(VkDevice device, std::span<const uint32_t> code) : device_(device) {
        VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        ci.codeSize = code.size_bytes();
        ci.pCode = code.data();
        ENGINE_VK(vkCreateShaderModule(device, &ci, nullptr, &module_));
    }
    ~ShaderModule() { vkDestroyShaderModule(device_, module_, nullptr); }
    ShaderModule(const ShaderModule&) = delete;
    ShaderModule& operator=(const ShaderModule&) = delete;
    VkShaderModule get() const { return module_; }

private:
    VkDevice device_;
    VkShaderModule module_ = VK_NULL_HANDLE;
};

VkDescriptorSetLayout createSetLayout(VkDevice device, std::span<const VkDescriptorType> bindings, VkShaderStageFlags stages) {
    std::vector<VkDescriptorSetLayoutBinding> b;
    for (uint32_t i = 0; i < bindings.size(); ++i) b.push_back({i, bindings[i], 1, stages, nullptr});
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = uint32_t(b.size());
    ci.pBindings = b.data();
    VkDescriptorSetLayout layout;
    ENGINE_VK(vkCreateDescriptorSetLayout(device, &ci, nullptr, &layout));
    return layout;
}

VkPipelineLayout createLayout(VkDevice device, VkDescriptorSetLayout set, uint32_t pushSize, VkShaderStageFlags stages) {
    VkPushConstantRange range{stages, 0, pushSize};
    VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ci.setLayoutCount = set ? 1 : 0;
    ci.pSetLayouts = &set;
    ci.pushConstantRangeCount = 1;
    ci.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    ENGINE_VK(vkCreatePipelineLayout(device, &ci, nullptr, &layout));
    return layout;
}

VkPipeline createCompute(VkDevice device, VkPipelineLayout layout, std::span<const uint32_t> code, const VkSpecializationInfo* spec) {
    ShaderModule module(device, code);
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module.get(), "main", spec};
    ci.layout = layout;
    VkPipeline pipeline;
    ENGINE_VK(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline));
    return pipeline;
}

struct GraphicsDesc {
    std::span<const uint32_t> vert, frag;
    std::span<const VkFormat> colorFormats;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    const VkPipelineVertexInputStateCreateInfo* vertexInput = nullptr;
    VkCompareOp depthCompare = VK_COMPARE_OP_LESS;
    bool depthWrite = true;
    const VkSpecializationInfo* fragSpecialization = nullptr;
    bool dynamicCullMode = false;  // vkCmdSetCullMode before each draw (else no culling)
};

VkPipeline createGraphics(VkDevice device, VkPipelineLayout layout, const GraphicsDesc& d) {
    ShaderModule vert(device, d.vert), frag(device, d.frag);
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vert.get(), "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, frag.get(), "main", d.fragSpecialization},
    };
    VkPipelineVertexInputStateCreateInfo noVertices{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = 1;
    vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;  // open cylinders show their inside at grazing angles
    // glTF's counter-clockwise front faces stay counter-clockwise in Vulkan's framebuffer
    // because the projection flips y (camera.cpp).
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
    VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, VK_DYNAMIC_STATE_CULL_MODE};
    VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dy.dynamicStateCount = d.dynamicCullMode ? 3 : 2;
    dy.pDynamicStates = dyn;
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
    ci.layout = layout;
    VkPipeline pipeline;
    ENGINE_VK(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline));
    return pipeline;
}

VkSampler createSampler(VkDevice device, VkFilter filter) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = filter;
    ci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    ci.addressModeU = ci.addressModeV = ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    ci.maxLod = 0.0f;
    VkSampler sampler;
    ENGINE_VK(vkCreateSampler(device, &ci, nullptr, &sampler));
    return sampler;
}

}  // namespace

bool isSrgb(VkFormat format) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32: return true;
    default: return false;
    }
}

RendererPipelines::RendererPipelines(const Context& ctx) : device_(ctx.device()) {
    try {
        nearest = createSampler(device_, VK_FILTER_NEAREST);
        linear = createSampler(device_, VK_FILTER_LINEAR);

        const VkDescriptorType materialBindings[] = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
        gbuffer.setLayout = createSetLayout(device_, materialBindings, VK_SHADER_STAGE_FRAGMENT_BIT);
        gbuffer.layout = createLayout(device_, gbuffer.setLayout, sizeof(gpu::GBufferPush), VK_SHADER_STAGE_VERTEX_BIT);
        VkVertexInputBindingDescription binding{0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
        VkVertexInputAttributeDescription attributes[] = {
            {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, position)},
            {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(Vertex, normal)},
            {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(Vertex, uv)},
            {3, 0, VK_FORMAT_R32_UINT, offsetof(Vertex, material)},
            {4, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(Vertex, color)},
        };
        VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
        vi.vertexBindingDescriptionCount = 1;
        vi.pVertexBindingDescriptions = &binding;
        vi.vertexAttributeDescriptionCount = 5;
        vi.pVertexAttributeDescriptions = attributes;
        const VkFormat gbufferFormats[] = {kAlbedoFormat, kNormalFormat, kMotionFormat};
        for (auto [p, alphaMask] : {std::pair{&gbuffer, VkBool32(VK_FALSE)}, std::pair{&gbufferMasked, VkBool32(VK_TRUE)}}) {
            VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
            VkSpecializationInfo spec{1, &entry, sizeof(VkBool32), &alphaMask};
            p->setLayout = gbuffer.setLayout;
            p->layout = gbuffer.layout;
            p->pipeline = createGraphics(device_, gbuffer.layout,
                                         {shaders::gbuffer_vert(), shaders::gbuffer_frag(), gbufferFormats, kDepthFormat, &vi,
                                          VK_COMPARE_OP_LESS, true, &spec, true});
        }
        // Drawn after the scene at the far plane: passes only where the depth is still cleared.
        skyMotion.layout = createLayout(device_, VK_NULL_HANDLE, sizeof(gpu::SkyMotionPush), VK_SHADER_STAGE_VERTEX_BIT);
        skyMotion.pipeline = createGraphics(device_, skyMotion.layout,
                                            {shaders::gbuffer_sky_vert(), shaders::gbuffer_sky_frag(), gbufferFormats,
                                             kDepthFormat, nullptr, VK_COMPARE_OP_LESS_OR_EQUAL, false});

        const VkDescriptorType lightingBindings[] = {
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
            VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
        lighting.setLayout = createSetLayout(device_, lightingBindings, VK_SHADER_STAGE_COMPUTE_BIT);
        lighting.layout = createLayout(device_, lighting.setLayout, sizeof(gpu::LightingPush), VK_SHADER_STAGE_COMPUTE_BIT);
        lighting.pipeline = createCompute(device_, lighting.layout, shaders::lighting_comp(), nullptr);

        const VkDescriptorType upscaleBindings[] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
        VkDescriptorSetLayout upscaleSet = createSetLayout(device_, upscaleBindings, VK_SHADER_STAGE_COMPUTE_BIT);
        VkPipelineLayout upscaleLayout = createLayout(device_, upscaleSet, sizeof(gpu::UpscalePush), VK_SHADER_STAGE_COMPUTE_BIT);
        for (auto [p, filter] : {std::pair{&upscaleBilinear, gpu::UPSCALE_BILINEAR}, std::pair{&upscaleBicubic, gpu::UPSCALE_BICUBIC}}) {
            VkSpecializationMapEntry entry{0, 0, sizeof(uint32_t)};
            VkSpecializationInfo spec{1, &entry, sizeof(uint32_t), &filter};
            p->setLayout = upscaleSet;
            p->layout = upscaleLayout;
            p->pipeline = createCompute(device_, upscaleLayout, shaders::upscale_comp(), &spec);
        }

        encodeCompute.setLayout = upscaleSet;
        encodeCompute.layout = upscaleLayout;
        encodeCompute.pipeline = createCompute(device_, upscaleLayout, shaders::encode_comp(), nullptr);

        const VkDescriptorType atrousBindings[] = {
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
        atrous.setLayout = createSetLayout(device_, atrousBindings, VK_SHADER_STAGE_COMPUTE_BIT);
        atrous.layout = createLayout(device_, atrous.setLayout, sizeof(gpu::AtrousPush), VK_SHADER_STAGE_COMPUTE_BIT);
        atrous.pipeline = createCompute(device_, atrous.layout, shaders::atrous_comp(), nullptr);

        const VkDescriptorType encodeBindings[] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
        encode.setLayout = createSetLayout(device_, encodeBindings, VK_SHADER_STAGE_FRAGMENT_BIT);
        encode.layout = createLayout(device_, encode.setLayout, sizeof(gpu::EncodePush), VK_SHADER_STAGE_FRAGMENT_BIT);
    } catch (...) {
        release();
        throw;
    }
}

void RendererPipelines::ensureEncodeFormat(VkFormat format) {
    if (format == encodeFormat && encode.pipeline) return;
    if (encode.pipeline) vkDestroyPipeline(device_, encode.pipeline, nullptr);
    encode.pipeline = VK_NULL_HANDLE;
    const VkFormat formats[] = {format};
    encode.pipeline = createGraphics(device_, encode.layout, {shaders::fullscreen_vert(), shaders::encode_frag(), formats});
    encodeFormat = format;
}

void RendererPipelines::destroy(PipelineWithLayout& p, bool keepLayouts) {
    if (p.pipeline) vkDestroyPipeline(device_, p.pipeline, nullptr);
    p.pipeline = VK_NULL_HANDLE;
    if (keepLayouts) return;
    if (p.layout) vkDestroyPipelineLayout(device_, p.layout, nullptr);
    if (p.setLayout) vkDestroyDescriptorSetLayout(device_, p.setLayout, nullptr);
    p.layout = VK_NULL_HANDLE;
    p.setLayout = VK_NULL_HANDLE;
}

RendererPipelines::~RendererPipelines() { release(); }

void RendererPipelines::release() {
    destroy(upscaleBilinear, /*keepLayouts=*/true);  // share their layouts with upscaleBicubic
    destroy(encodeCompute, /*keepLayouts=*/true);
    destroy(gbufferMasked, /*keepLayouts=*/true);  // shares gbuffer's layouts
    for (PipelineWithLayout* p : {&gbuffer, &skyMotion, &lighting, &upscaleBicubic, &encode, &atrous}) destroy(*p);
    if (nearest) vkDestroySampler(device_, nearest, nullptr);
    if (linear) vkDestroySampler(device_, linear, nullptr);
    nearest = linear = VK_NULL_HANDLE;
}

}  // namespace engine
