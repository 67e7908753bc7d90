#pragma once
// Pipelines, layouts and samplers of the renderer's passes. Created once per device (the
// encode pipeline again when the target format changes); independent of the resolution.
#include <vulkan/vulkan.h>

namespace engine {

class Context;

// G-buffer attachment formats (the pipelines are built for them).
inline constexpr VkFormat kAlbedoFormat = VK_FORMAT_R8G8B8A8_UNORM;
inline constexpr VkFormat kNormalFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
inline constexpr VkFormat kMotionFormat = VK_FORMAT_R16G16_SFLOAT;
inline constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
inline constexpr VkFormat kColorFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
inline constexpr VkFormat kVisibilityFormat = VK_FORMAT_R16_SFLOAT;
inline constexpr VkFormat kHeadlessTargetFormat = VK_FORMAT_R8G8B8A8_UNORM;  // sRGB-encoded by encode.comp

struct PipelineWithLayout {
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;  // null when the pass binds no descriptors
};

class RendererPipelines {
public:
    explicit RendererPipelines(const Context& ctx);
    ~RendererPipelines();
    RendererPipelines(const RendererPipelines&) = delete;
    RendererPipelines& operator=(const RendererPipelines&) = delete;

    // (Re)creates the encode pipeline for `format` if it differs from the current one.
    void ensureEncodeFormat(VkFormat format);

    VkSampler nearest = VK_NULL_HANDLE;
    VkSampler linear = VK_NULL_HANDLE;
    // encode: graphics, into a swapchain image; encodeCompute: into the headless RGBA8 target
    // (shares the upscale pipelines' layouts). gbuffer: opaque materials; gbufferMasked: the
    // alpha-tested variant (discard below the cutoff), sharing gbuffer's layouts. Their set 0 is
    // a material (GpuScene); the cull mode is dynamic (per material: single- or double-sided).
    // skyMotion: the background's motion vectors, drawn after the scene.
    PipelineWithLayout gbuffer, gbufferMasked, skyMotion, lighting, upscaleBilinear, upscaleBicubic, encode, encodeCompute, atrous;
    VkFormat encodeFormat = VK_FORMAT_UNDEFINED;

private:
    void destroy(PipelineWithLayout& p, bool keepLayouts = false);
    void release();
    VkDevice device_;
};

// True for formats whose views encode sRGB in hardware on write.
bool isSrgb(VkFormat format);

}  // namespace engine
