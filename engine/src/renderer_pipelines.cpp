#include "renderer_pipelines.h"

#include "engine/context.h"
#include "engine/error.h"
#include "engine/renderer_shared.h"
#include "engine/scene.h"

#include <engine_shaders.h>
#include <vkutil/create_info.h>
#include <vkutil/pipeline.h>

#include <array>
#include <span>
#include <vector>

namespace engine {
namespace {

VkDescriptorSetLayout createSetLayout(VkDevice device, std::span<const VkDescriptorType> bindings, VkShaderStageFlags stages) {
    VkDescriptorSetLayout layout;
    ENGINE_VK(vkutil::createDescriptorSetLayout(device, bindings, stages, &layout));
    return layout;
}

VkPipelineLayout createLayout(VkDevice device, VkDescriptorSetLayout set, uint32_t pushSize, VkShaderStageFlags stages) {
    VkPipelineLayout layout;
    ENGINE_VK(vkutil::createPipelineLayout(
        device, {.setLayouts = {&set, set ? 1u : 0u}, .pushConstantBytes = pushSize, .pushConstantStages = stages}, &layout));
    return layout;
}

VkPipeline createCompute(VkDevice device, VkPipelineLayout layout, std::span<const uint32_t> code, std::span<const uint32_t> spec = {}) {
    VkPipeline pipeline;
    ENGINE_VK(vkutil::createComputePipeline(device, {.layout = layout, .spirv = code, .specialization = spec}, &pipeline));
    return pipeline;
}

// No culling unless dynamicCullMode: open cylinders show their inside at grazing angles. glTF's
// counter-clockwise front faces stay counter-clockwise in Vulkan's framebuffer because the
// projection flips y (camera.cpp).
VkPipeline createGraphics(VkDevice device, const vkutil::GraphicsPipelineDesc& desc) {
    VkPipeline pipeline;
    ENGINE_VK(vkutil::createGraphicsPipeline(device, desc, &pipeline));
    return pipeline;
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
        ENGINE_VK(vkutil::createSampler(device_, VK_FILTER_NEAREST, &nearest));
        ENGINE_VK(vkutil::createSampler(device_, VK_FILTER_LINEAR, &linear));

        const VkDescriptorType materialBindings[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
        gbuffer.setLayout = createSetLayout(device_, materialBindings, VK_SHADER_STAGE_FRAGMENT_BIT);
        gbuffer.layout = createLayout(device_, gbuffer.setLayout, sizeof(gpu::GBufferPush), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);
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
        for (auto [p, alphaMask] : {std::pair{&gbuffer, uint32_t(VK_FALSE)}, std::pair{&gbufferMasked, uint32_t(VK_TRUE)}}) {
            const uint32_t spec[] = {alphaMask};
            p->setLayout = gbuffer.setLayout;
            p->layout = gbuffer.layout;
            p->pipeline = createGraphics(device_, {.layout = gbuffer.layout, .vertex = shaders::gbuffer_vert(), .fragment = shaders::gbuffer_frag(),
                                                   .fragmentSpecialization = spec, .colorFormats = gbufferFormats, .depthFormat = kDepthFormat,
                                                   .dynamicCullMode = true, .vertexInput = &vi});
        }
        // Drawn after the scene at the far plane: passes only where the depth is still cleared.
        skyMotion.layout = createLayout(device_, VK_NULL_HANDLE, sizeof(gpu::SkyMotionPush), VK_SHADER_STAGE_VERTEX_BIT);
        skyMotion.pipeline = createGraphics(device_, {.layout = skyMotion.layout, .vertex = shaders::gbuffer_sky_vert(),
                                                      .fragment = shaders::gbuffer_sky_frag(), .colorFormats = gbufferFormats,
                                                      .depthFormat = kDepthFormat, .depthCompare = VK_COMPARE_OP_LESS_OR_EQUAL, .depthWrite = false});

        const VkDescriptorType lightingBindings[] = {
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
            VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
        lighting.setLayout = createSetLayout(device_, lightingBindings, VK_SHADER_STAGE_COMPUTE_BIT);
        lighting.layout = createLayout(device_, lighting.setLayout, sizeof(gpu::LightingPush), VK_SHADER_STAGE_COMPUTE_BIT);
        lighting.pipeline = createCompute(device_, lighting.layout, shaders::lighting_comp());

        const VkDescriptorType upscaleBindings[] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
        VkDescriptorSetLayout upscaleSet = createSetLayout(device_, upscaleBindings, VK_SHADER_STAGE_COMPUTE_BIT);
        VkPipelineLayout upscaleLayout = createLayout(device_, upscaleSet, sizeof(gpu::UpscalePush), VK_SHADER_STAGE_COMPUTE_BIT);
        for (auto [p, filter] : {std::pair{&upscaleBilinear, gpu::UPSCALE_BILINEAR}, std::pair{&upscaleBicubic, gpu::UPSCALE_BICUBIC}}) {
            const uint32_t spec[] = {uint32_t(filter)};
            p->setLayout = upscaleSet;
            p->layout = upscaleLayout;
            p->pipeline = createCompute(device_, upscaleLayout, shaders::upscale_comp(), spec);
        }

        encodeCompute.setLayout = upscaleSet;
        encodeCompute.layout = upscaleLayout;
        encodeCompute.pipeline = createCompute(device_, upscaleLayout, shaders::encode_comp());

        const VkDescriptorType atrousBindings[] = {
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
        atrous.setLayout = createSetLayout(device_, atrousBindings, VK_SHADER_STAGE_COMPUTE_BIT);
        atrous.layout = createLayout(device_, atrous.setLayout, sizeof(gpu::AtrousPush), VK_SHADER_STAGE_COMPUTE_BIT);
        atrous.pipeline = createCompute(device_, atrous.layout, shaders::atrous_comp());

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
    encode.pipeline = createGraphics(device_, {.layout = encode.layout, .vertex = shaders::fullscreen_vert(), .fragment = shaders::encode_frag(),
                                               .colorFormats = formats});
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
