// The built-in denoiser: five frame-graph passes of the edge-avoiding a-trous wavelet filter
// (shaders/engine/atrous.comp), ping-ponging between two transients, the last into the stage's
// output.
#include "renderer_internal.h"

#include "engine/renderer_shared.h"

#include <string>

namespace engine {

namespace {

// Edge-stopping parameters (docs/RENDERER.md, "Denoise stage"). Colour is display-linear and
// demodulated by albedo, so differences are of lighting; one-sample stochastic shadows differ by
// up to ~1 between neighbours, and the first iteration must still average them, hence a wide
// colour sigma that halves every iteration (Dammertz et al.: later, wider iterations must only
// smooth what is left, not blur across lighting edges). Normals are unit vectors: a squared
// difference of 0.1 is ~18 degrees. Depth: taps may deviate by up to sigmaDepth times the
// depth the local plane predicts for their offset.
constexpr uint32_t kAtrousIterations = 5;
constexpr float kSigmaColor = 1.0f;
constexpr float kSigmaNormal = 0.3f;
constexpr float kSigmaDepth = 4.0f;

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
            push.flags = (i == 0 ? gpu::ATROUS_DEMODULATE : 0u) | (i + 1 == kAtrousIterations ? gpu::ATROUS_REMODULATE : 0u);
            push.sigmaColor2 = sigmaColor * sigmaColor;
            push.sigmaNormal2 = kSigmaNormal * kSigmaNormal;
            push.sigmaDepth = kSigmaDepth;
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.atrous.pipeline);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.atrous.layout, 0, 1, &set, 0, nullptr);
            vkCmdPushConstants(cmd, pipelines.atrous.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
            vkCmdDispatch(cmd, (ds.extent.width + 7) / 8, (ds.extent.height + 7) / 8, 1);
        };
        g.addPass(std::move(pass));
    }
}

}  // namespace engine
