#pragma once
/// \file
/// The demo renderer: G-buffer raster -> deferred lighting -> output stage (upscale) -> encode
/// into an 8-bit target, every pass a FrameGraph pass. Renders the procedural scene (scene.h)
/// at any resolution along deterministic camera paths (camera.h).
///
/// Frame structure and hooks (FrameGraph::insertAtHook names):
///   gbuffer, lighting, [denoise], [after_lighting], [before_output], upscale, [after_output],
///   encode, [before_present], readback (headless only)
/// The upscale pass is replaceable: setUpscaler() registers a function that adds its own passes
/// reading the render-resolution colour and writing the output image (the ML upscaler's slot).
/// The denoise stage is optional: with RendererDesc::denoise or setDenoiser(), lighting writes a
/// noisy colour image and the denoiser writes the colour every later pass reads.
///
/// Lifecycle: Renderer(ctx, desc) -> build(target) (and again after a resize or a change of
/// mode) -> per frame record(cmd, frameSlot, params). The caller owns command buffers, fences
/// and submission (frames in flight); read-back data of a slot is valid once its fence signals.
#include "engine/camera.h"
#include "engine/camera_path.h"
#include "engine/export.h"
#include "engine/frame_graph.h"
#include "engine/image_io.h"

#include <vulkan/vulkan.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

class Context;
class GpuTimer;
struct SceneGeometry;

/// The built-in output filter: none (render at output resolution), bilinear or bicubic.
enum class UpscaleMode { Native, Bilinear, Bicubic };
/// Sun shadows: none, analytic soft shadows, or stochastic (noisy, denoiser input).
enum class ShadowMode { Off, Analytic, Stochastic };
/// Atrous: the built-in edge-avoiding a-trous wavelet filter (Dammertz et al. 2010).
enum class DenoiseMode { Off, Atrous };
/// "native", "bilinear", "bicubic".
const char* toString(UpscaleMode mode);
/// "off", "analytic", "stochastic".
const char* toString(ShadowMode mode);
/// "off", "atrous".
const char* toString(DenoiseMode mode);

/// What the renderer renders and at which resolutions.
struct RendererDesc {
    uint32_t outputWidth = 1280;  ///< output (display) resolution, kMinResolution..kMaxResolution
    uint32_t outputHeight = 720;  ///< output (display) resolution, kMinResolution..kMaxResolution
    /// Render resolution = round(output * renderScale), at least 1 pixel, at most kMaxResolution.
    /// Native renders at the output resolution whatever the scale. Scale 2 with Bilinear is a
    /// 2x2 supersampled (box-filtered) frame: each output pixel centre falls between 4 texels.
    float renderScale = 1.0f;
    UpscaleMode upscale = UpscaleMode::Bilinear;  ///< built-in output filter (setUpscaler() replaces it)
    ShadowMode shadows = ShadowMode::Analytic;  ///< sun shadows
    uint32_t shadowSamples = 1;  ///< rays per pixel for ShadowMode::Stochastic (1 = noisy, 1024 = reference)
    bool lighting = true;        ///< false: colour = albedo (lets tests prove the golden check can fail)
    DenoiseMode denoise = DenoiseMode::Off;  ///< built-in denoiser; a setDenoiser() function overrides it
    /// What to draw (scene.h: loadScene, buildDemoScene, loadGltfScene); uploaded once by the
    /// constructor. Null: the procedural demo scene with seed 0.
    std::shared_ptr<const SceneGeometry> scene;
};

/// Limits on resolutions accepted by the renderer (and the demo's command line).
inline constexpr uint32_t kMinResolution = 16;
/// Largest accepted width or height.
inline constexpr uint32_t kMaxResolution = 16384;

/// Float images the renderer can read back (headless) in addition to the 8-bit frame.
enum class Channel : uint32_t {
    Color = 1u << 0,          ///< render-resolution display-linear colour, RGB (denoised when a denoiser runs)
    Depth = 1u << 1,          ///< render-resolution depth, 0 near .. 1 far
    Normal = 1u << 2,         ///< world-space normal, XYZ
    Albedo = 1u << 3,         ///< RGB
    Motion = 1u << 4,         ///< render pixels: position in the previous frame - position in this frame, XY (jitter excluded)
    SunVisibility = 1u << 5,  ///< 0..1: the (noisy or converged) shadow estimate
    Output = 1u << 6,         ///< output-resolution display-linear colour, RGB
};
/// Channel bits, combined.
inline uint32_t operator|(Channel a, Channel b) { return uint32_t(a) | uint32_t(b); }
/// Channel bits, combined.
inline uint32_t operator|(uint32_t a, Channel b) { return a | uint32_t(b); }
const char* toString(Channel c);  ///< "color", "depth", ... (file stems)

/// Where the encode pass writes.
struct TargetDesc {
    /// Headless: a transient R8G8B8A8 image (sRGB-encoded by a compute pass) read back into host
    /// memory every frame, with the `channels` requested. Windowed: an imported swapchain image
    /// of `format`, left in PRESENT_SRC_KHR; record() gets the image of the frame.
    bool headless = true;
    VkFormat format = VK_FORMAT_UNDEFINED;  ///< windowed only: the swapchain format
    uint32_t channels = 0;        ///< Channel bits to read back (headless only)
    uint32_t framesInFlight = 2;  ///< read-back slots
};

/// What varies per frame.
struct FrameParams {
    CameraPose camera;  ///< this frame's camera
    CameraPose previousCamera;    ///< for motion vectors; equal to `camera` on a first frame
    glm::vec2 jitterPixels{0};    ///< sub-pixel projection offset in render pixels (engine/jitter.h; 0 = none)
    uint32_t frameSeed = 0;       ///< seeds stochastic effects
    bool cameraCut = false;       ///< no continuity with the previous frame: temporal passes drop history
    float frameTimeSeconds = 1.0f / 30.0f;  ///< time since the previous frame
    /// Added to the mip level of every texture lookup (glTF base colour). A temporal upscaler
    /// reconstructs display-resolution detail from jittered samples, so the textures must carry
    /// it: log2(render width / display width) (-1 at half resolution) samples the mips the
    /// display resolution would, as FSR 2, DLSS and XeSS ask of the renderer
    /// (textureLodBiasForUpscale()). 0 for native rendering and spatial upscalers.
    float textureLodBias = 0.0f;
    /// Frame `frameIndex` of `path` at `fps`: camera at t = startTime + frameIndex / fps, previous
    /// camera at the previous frame's time. The first frame and the frame whose interval
    /// (previous time, t] holds a cut of the path (path.cutBetween) are cuts: cameraCut is set and
    /// the previous camera equals the camera (no motion across the cut). Each cut marks exactly
    /// one frame.
    static FrameParams onPath(const CameraPath& path, uint32_t frameIndex, float fps = 30.0f, float startTime = 0.0f);
    /// The built-in path `path` (CameraPath::builtIn).
    static FrameParams onPath(uint32_t path, uint32_t frameIndex, float fps = 30.0f, float startTime = 0.0f);
};

/// The texture LOD bias for temporal upscaling from `renderWidth` to `displayWidth`:
/// log2(renderWidth / displayWidth), 0 when not upscaling.
float textureLodBiasForUpscale(uint32_t renderWidth, uint32_t displayWidth);

/// What an output-stage pass sees. Render-resolution inputs, output-resolution destination.
struct OutputStage {
    ResourceHandle color = kInvalidResource;   ///< RGBA16F, display-linear 0..1
    ResourceHandle depth = kInvalidResource;   ///< D32_SFLOAT, 0 at frame->camera.zNear .. 1 at zFar
    ResourceHandle motion = kInvalidResource;  ///< RG16F, render pixels (Channel::Motion), sky included
    ResourceHandle albedo = kInvalidResource;  ///< RGBA8 (a: roughness)
    ResourceHandle normal = kInvalidResource;  ///< RGBA16F
    ResourceHandle output = kInvalidResource;  ///< RGBA16F; must be fully written (storage or attachment)
    VkExtent2D renderExtent{};  ///< size of the render-resolution images
    VkExtent2D outputExtent{};  ///< size of `output`
    /// The frame being recorded: jitter, cameras, cut. Valid inside pass record callbacks only.
    const FrameParams* frame = nullptr;
};
/// Adds the passes of an external upscaler (declaring its reads of stage.color etc. and its write
/// of stage.output). Called at every build().
using UpscalerFn = std::function<void(FrameGraph& graph, const OutputStage& stage)>;
/// Called at every build(), before bake(): the place to insertAtHook() passes.
using BuildHookFn = std::function<void(FrameGraph& graph, const OutputStage& stage)>;

/// What a denoiser sees: all at render resolution.
struct DenoiseStage {
    ResourceHandle color = kInvalidResource;   ///< noisy RGBA16F, display-linear
    ResourceHandle albedo = kInvalidResource;  ///< RGBA8 (a: roughness)
    ResourceHandle normal = kInvalidResource;  ///< RGBA16F, world space
    ResourceHandle depth = kInvalidResource;   ///< D32_SFLOAT
    ResourceHandle output = kInvalidResource;  ///< RGBA16F; must be fully written
    VkExtent2D extent{};  ///< render resolution
};
/// Adds the passes of an external denoiser (reads of stage.color etc., a write of stage.output).
/// Called at every build().
using DenoiserFn = std::function<void(FrameGraph& graph, const DenoiseStage& stage)>;

/// Read-back results of one frame slot.
struct FrameReadback {
    Image8 frame;  ///< the encoded 8-bit output, RGBA
    /// One read-back float channel.
    struct FloatImage {
        Channel channel;  ///< which one
        uint32_t width;       ///< pixels
        uint32_t height;      ///< pixels
        uint32_t components;  ///< values per pixel (1 to 4)
        std::vector<float> data;  ///< H x W x C, C order
    };
    std::vector<FloatImage> channels;  ///< the TargetDesc::channels requested, in Channel bit order
};

/// Renders the procedural demo scene through a FrameGraph: G-buffer, shadows, lighting, optional
/// denoise stage, output stage (built-in filter or an external upscaler), encode. Hooks:
/// after_lighting, before_output, after_output, before_present (docs/RENDERER.md).
class Renderer {
public:
    /// Creates pipelines and uploads the scene (waits once). Throws engine::Error on bad
    /// resolutions or options with a message naming the value.
    Renderer(Context& ctx, const RendererDesc& desc);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    /// Rebuilds and re-bakes the frame graph (first use, resize, new target). The GPU must be
    /// done with frames recorded from the previous graph.
    void build(const TargetDesc& target);
    void resize(uint32_t outputWidth, uint32_t outputHeight);  ///< then build() again

    void setUpscaler(UpscalerFn fn);  ///< replaces the built-in filter; takes effect at build()
    /// Replaces the built-in denoiser (RendererDesc::denoise) and enables the denoise stage;
    /// an empty function returns to the built-in mode. Takes effect at build().
    void setDenoiser(DenoiserFn fn);
    void setDenoiseMode(DenoiseMode mode);  ///< built-in mode; takes effect at build()
    /// Built-in output filter (Native changes the render resolution); takes effect at build().
    void setUpscaleMode(UpscaleMode mode);
    /// Called at every build(), before bake() (insert passes at hooks there).
    void addBuildHook(BuildHookFn fn);

    /// Records one frame into `cmd` for frame slot `slot`. Windowed: `targetImage`/`targetView`
    /// are this frame's swapchain image.
    void record(VkCommandBuffer cmd, uint32_t slot, const FrameParams& params, GpuTimer* timer = nullptr,
                VkImage targetImage = VK_NULL_HANDLE, VkImageView targetView = VK_NULL_HANDLE);
    /// Headless: copies slot `slot`'s read-back buffers out (call after its fence signalled).
    FrameReadback readback(uint32_t slot) const;

    /// The current frame graph (valid after build()).
    FrameGraph& graph();
    /// The current description (resize and set* calls update it).
    const RendererDesc& desc() const;
    /// Render resolution.
    VkExtent2D renderExtent() const;
    /// Output resolution.
    VkExtent2D outputExtent() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

/// Renders one frame headless (build() for one slot if the renderer is not built headless) with
/// Context::submitAndWait and returns its read-back. For tests and tools, not for frame loops.
FrameReadback renderSingleFrame(Context& ctx, Renderer& renderer, const FrameParams& params, uint32_t channels = 0);

}  // namespace engine
ENGINE_API_END
