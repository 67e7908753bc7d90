// The built-in denoiser: five frame-graph passes of the edge-avoiding a-trous wavelet filter
// (shaders/engine/atrous.comp), ping-ponging between two transients, the last into the stage's
// output.
#include "renderer_internal.h"

#include "engine/renderer_shared.h"

#include <string>

namespace engine {

namespace {

// Edge-stopping parameters (docs/RENDERER.md, "Denoise stage"), tuned on one-sample stochastic
// shadows against a 256-sample reference (tests/engine/denoise_test.cpp):
//  - colour (display-linear RGB distance): 1.4 in the first iteration, halved every iteration
//    (Dammertz et al.): the first must average neighbours that differ by a whole shadow sample,
//    the later, wider ones only what is left, without blurring across lighting edges;
//  - normal (unit-vector distance): 0.1, about 6 degrees; the scene is mostly flat faces;
//  - depth: a tap may deviate by 0.5x the depth change the local plane predicts for its offset;
//  - albedo (RGB distance): 0.05, so the pixel-sized checkers and glyphs stop the filter.
constexpr uint32_t kAtrousIterations = 5;
constexpr float kSigmaColor = 1.4f;
constexpr float kSigmaNormal = 0.1f;
constexpr float kSigmaDepth = 0.5f;
constexpr float kSigmaAlbedo = 0.05f;

// Descriptor-cache ids after the renderer's own passes (renderer.cpp).
constexpr uint32_t kFirstAtrousPassId = 16;

}  // namespace

void Renderer::Impl::addDenoisePasses(const DenoiseStage& ds) {
    FrameGraph& g = *graph;
    const ResourceHandle ping = g.createImage("denoise.ping", {kColorFormat, ds.extent.width, ds.extent.height});
    const ResourceHandle pong = g.createImage("denoise.pong", {kColorFormat, ds.extent.width, ds.extent.height});
    for (uint32_t i = 0; i < kAtrousIterations; ++i) {
        const ResourceHandle src = i == 0 ? ds.color : (i % 2 ? ping : pong);
        const ResourceHandle dst = i + 1 == kAtrousIterations ? ds.output : (i % 2 ? pong : ping);
        PassDesc pass;
        pass.name = "denoise_atrous" + std::to_string(i);
        pass.type = PassType::Compute;
        pass.uses = {{src, Access::SampledCompute},
                     {ds.albedo, Access::SampledCompute},
                     {ds.normal, Access::SampledCompute},
                     {ds.depth, Access::SampledCompute},
                     {dst, Access::StorageImageWrite}};
        pass.record = [this, ds, src, dst, i](PassContext& pc) {
            VkCommandBuffer cmd = pc.commandBuffer();
            const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
            const DescriptorBinding bindings[] = {
                {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(src), pipelines.nearest, read},
                {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(ds.albedo), pipelines.nearest, read},
                {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(ds.normal), pipelines.nearest, read},
                {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(ds.depth), pipelines.nearest, read},
                {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, pc.imageView(dst), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
            };
            VkDescriptorSet set = descriptors.get(kFirstAtrousPassId + i, pc.frameIndex(), pipelines.atrous.setLayout, bindings);
            const float sigmaColor = kSigmaColor / float(1u << i);
            gpu::AtrousPush push{};
            push.width = ds.extent.width;
            push.height = ds.extent.height;
            push.step = 1u << i;
            push.sigmaColor2 = sigmaColor * sigmaColor;
            push.sigmaNormal2 = kSigmaNormal * kSigmaNormal;
            push.sigmaDepth = kSigmaDepth;
            push.sigmaAlbedo2 = kSigmaAlbedo * kSigmaAlbedo;
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.atrous.pipeline);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.atrous.layout, 0, 1, &set, 0, nullptr);
            vkCmdPushConstants(cmd, pipelines.atrous.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
            vkCmdDispatch(cmd, (ds.extent.width + 7) / 8, (ds.extent.height + 7) / 8, 1);
        };
        g.addPass(std::move(pass));
    }
}

}  // namespace engine
