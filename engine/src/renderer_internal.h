#pragma once
// Renderer internals shared by renderer.cpp (graph building, recording) and
// renderer_readback.cpp (host copies of read-back images).
#include "engine/buffer.h"
#include "engine/renderer.h"
#include "engine/scene.h"
#include "gpu_scene.h"
#include "renderer_descriptors.h"
#include "renderer_pipelines.h"

#include <memory>
#include <vector>

namespace engine {

// One image copied to host memory every frame (headless).
struct ReadbackImage {
    Channel channel;                 // unused for the 8-bit frame
    ResourceHandle image = kInvalidResource;
    ResourceHandle buffer = kInvalidResource;  // imported; re-pointed at the slot's Buffer
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{};
    std::vector<Buffer> slots;       // one host buffer per frame slot
};

struct Renderer::Impl {
    Impl(Context& c, const RendererDesc& d);

    Context& ctx;
    RendererDesc desc;
    RendererPipelines pipelines;
    GpuScene scene;  // after pipelines: its material sets use the G-buffer set layout
    DescriptorCache descriptors;
    std::unique_ptr<FrameGraph> graph;
    bool built = false;  // false after a change that needs build() (resize, new upscaler or hook)
    TargetDesc target;
    UpscalerFn upscaler;
    DenoiserFn denoiser;
    std::vector<BuildHookFn> buildHooks;

    VkExtent2D renderExtent{}, outputExtent{};
    OutputStage stage;
    ResourceHandle visibility = kInvalidResource;
    ResourceHandle targetImage = kInvalidResource;
    ReadbackImage frameReadback;                 // the 8-bit frame
    std::vector<ReadbackImage> channelReadbacks;  // requested float channels

    FrameParams frame;  // the frame being recorded (read by the pass callbacks)
    glm::dvec3 sceneOrigin{0.0};  // SceneGeometry::origin: the matrices act on positions relative to it
    CameraMatrices camera, previousCamera;
    glm::mat4 previousViewProjPixels{1};  // previous view-projection, clip -> render pixels
    glm::mat4 skyReprojection{1};         // this frame's NDC at the far plane -> previous pixels
    void updateMotionMatrices();

    void computeExtents();
    void addGBufferPass();
    void addLightingPass();
    bool denoising() const { return denoiser || desc.denoise != DenoiseMode::Off; }
    void addDenoisePasses(const DenoiseStage& stage);  // built-in (renderer_denoise.cpp)
    void addUpscalePass();
    void addEncodePass();
    void addComputeEncodePass();
    void addReadback(uint32_t channels);
};

// Bytes per texel of the formats the renderer reads back.
uint32_t texelBytes(VkFormat format);

}  // namespace engine
