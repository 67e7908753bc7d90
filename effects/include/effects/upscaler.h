#pragma once
/// \file
/// effects::Upscaler: temporal upscaling of a jittered render-resolution frame to the display
/// resolution, as an effect any Vulkan engine records into its own command buffers (the pattern of
/// ffxFsr2ContextCreate / ffxFsr2ContextDispatch and xessVKExecute).
///
///   auto up = effects::Upscaler::create({.device = handles, .maxRenderSize = {1920, 1080},
///                                        .displaySize = {3840, 2160},
///                                        .outputFormat = VK_FORMAT_R16G16B16A16_SFLOAT,
///                                        .mode = effects::UpscalerMode::Taau}).value();
///   effects::EffectRequirements needs = up->requirements();  // memory it allocated, descriptors
///   up->recordInitialization(cmd);   // once, before the first record(); the app submits it
///   ...every frame:
///   up->record(cmd, {.color = ..., .depth = ..., .motion = ..., .output = ...,
///                    .renderSize = {w, h}, .jitter = {jx, jy}, .reset = cameraCut, ...});
///
/// Modes
///   Taau           hand-written temporal anti-aliasing upscaler (compute shaders only; also the
///                  fallback on devices without fp16).
///   MlTemporal     the same reprojection, with a network (ONNX, run by mlplugin in the same
///                  command buffer) deciding per output pixel how to blend history and the new
///                  samples. Model contract: docs/EFFECTS.md. The shipped network was trained at
///                  upscale ratios 1.5, 2 and 3 and display sizes 384x216 to 1536x864; on
///                  held-out content at 480x272 it beats TAAU by 1.2 dB at 1.5x and 2x (1.0
///                  dB at 960x540 to 3840x2160, 1.9 dB on still and slow cameras) and by 0.7
///                  dB at 3x; at 1x (native anti-aliasing, untrained: the ratio feature is
///                  clamped to the model's "vkml.ratio_feature_max") by 1.1 dB, though behind
///                  TAAU on two of ten sequences; above 3x it is not measured (docs/quality/temporal*.md,
///                  tools/train/README.md). A model whose metadata names
///                  "vkml.history_weight_cap" gets the accumulating resolve instead of the
///                  blend (docs/EFFECTS.md); the shipped one accumulates, with a cap of 4. Its
///                  "vkml.history_taps" (9 or 5) picks the history fetch its features need,
///                  and a "vkml.moving_history_weight" caps the history moving pixels keep, as
///                  TAAU's are capped (no shipped model names one).
///                  Two models ship (docs/EFFECTS.md, "Shipped models"): the quality model
///                  above (upscaler_temporal.onnx, 1.50 ms at 1080p -> 4K on an H200) and a
///                  performance model (upscaler_temporal_fast.onnx, 0.99 ms; 1.0 dB over TAAU
///                  at 2x, 0.8 dB at 3x, 1.2 dB at 1x, with less flicker than TAAU at every
///                  ratio from 1x to 3x).
///   MlSingleFrame  a single-frame network (input 'color' [1,3,H,W] -> [1,3,sH,sW], sRGB values);
///                  no history; depth and motion are not read.
///
/// Conventions (the same as the engine's, engine/jitter.h):
///   jitter   render pixels; the projection moved the image by +jitter, so render pixel (i, j)
///            sampled the unjittered position (i + 0.5 - jitter.x, j + 0.5 - jitter.y). Values in
///            [-0.5, 0.5] (a Halton(2,3) sequence with 8 * ratio^2 phases works well).
///   motion   per render pixel, motionScale * (stored value) = the surface's position in the
///            previous frame minus its position in this frame, in render pixels, WITHOUT jitter
///            (the engine's convention; motion in UV units needs motionScale = render size).
///   depth    device depth of a perspective projection with cameraNear/cameraFar (0 near .. 1
///            far; 1 near .. 0 far with UpscalerFlagDepthInverted; cameraFar 0 = infinite).
///   colour   linear values, or sRGB-encoded values with UpscalerFlagColorSrgb (decoded before
///            accumulation, the output encoded the same way). Without UpscalerFlagHdr values are
///            0..1; with it any non-negative value, multiplied by `exposure` while accumulating.
///   NaN/Inf  input samples that are not finite count as black and never enter the history.
///
/// Image contract (what record() expects, does and leaves):
///   color, depth, motion, reactive: sampled in compute shaders (VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
///     VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT) in the layout given (SHADER_READ_ONLY_OPTIMAL,
///     DEPTH_READ_ONLY_OPTIMAL / DEPTH_STENCIL_READ_ONLY_OPTIMAL for depth, or GENERAL); images
///     need VK_IMAGE_USAGE_SAMPLED_BIT; only the renderSize region (from the top-left) is read. The
///     application makes its writes visible to compute-shader reads before the recorded commands.
///   output: written with storage-image writes (VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, compute
///     stage) in layout GENERAL; needs VK_IMAGE_USAGE_STORAGE_BIT, the format given at creation and
///     the display size. Every pixel is written. The application places a barrier after record()
///     before it reads the output.
///   The effect places barriers on its own resources only, and no layout transitions on the
///   application's images; layouts are left as they were.
///
/// Frames in flight: record() takes the frame slot (< framesInFlight). The slot's descriptor sets
/// are rewritten only when the views handed in change; the application must have waited for the
/// GPU to finish the previous frame recorded with the same slot (the usual frames-in-flight fence).
/// History is kept in two output-resolution images used alternately; frames must execute in the
/// order they were recorded, on one queue.
///
/// Lifetimes: objects retired by resize() are destroyed after framesInFlight further record()
/// calls. Destroying the Upscaler destroys everything at once: the GPU must be done with every
/// command buffer it recorded into.
#include "effects/effect_device.h"
#include "effects/step_callbacks.h"
#include "effects/export.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

EFFECTS_API_BEGIN
namespace effects {

/// How an Upscaler upscales: the hand-written temporal upscaler, the temporal network, or a
/// single-frame network.
enum class UpscalerMode : uint32_t { Taau, MlTemporal, MlSingleFrame };
const char* toString(UpscalerMode mode);  ///< "taau", "ml-temporal", "ml-single-frame"

/// UpscalerDesc::flags bits: how the application's images are encoded.
enum UpscalerFlags : uint32_t {
    UpscalerFlagNone = 0,  ///< no flag
    /// Input colour (and the output) hold sRGB-encoded values in a UNORM view. Not for an _SRGB
    /// view, which the sampler decodes already: record() refuses the double decode.
    UpscalerFlagColorSrgb = 1u << 0,
    UpscalerFlagHdr = 1u << 1,            ///< input colour may exceed 1 (and is scaled by `exposure`)
    UpscalerFlagDepthInverted = 1u << 2,  ///< depth 1 at the near plane, 0 at the far plane
};

/// What an Upscaler is created for (Upscaler::create).
struct UpscalerDesc {
    EffectDevice device;  ///< the application's device
    VkExtent2D maxRenderSize{};  ///< the largest renderSize record() will be given
    VkExtent2D displaySize{};    ///< the output size; resize() changes it
    /// The output image's format: R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT, R8G8B8A8_UNORM,
    /// A2B10G10R10_UNORM_PACK32 or B10G11R11_UFLOAT_PACK32 (HDR targets: no alpha, no negative
    /// values). The last two are optional storage formats in Vulkan: create() fails with
    /// ErrorCode::Unsupported on a device that cannot write them.
    VkFormat outputFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
    uint32_t flags = UpscalerFlagNone;  ///< UpscalerFlags bits
    UpscalerMode mode = UpscalerMode::Taau;  ///< the algorithm
    /// ML modes: the ONNX model, as a file or as bytes (exactly one).
    std::string modelPath;
    std::span<const uint8_t> modelBytes;  ///< the model in memory (must stay valid during create())
    /// ML modes: run the network in fp16 where the device has it (the default), else fp32.
    bool preferFp16 = true;
    uint32_t framesInFlight = 2;  ///< 1..8
    float sharpness = 0.0f;       ///< Taau / MlTemporal: RCAS-style sharpening of the output, 0 (off) .. 1
};

/// One frame's images and parameters (Upscaler::record).
struct UpscalerInputs {
    ImageInput color;     ///< render resolution (renderSize region read)
    ImageInput depth;     ///< render resolution; required except in MlSingleFrame
    ImageInput motion;    ///< render resolution, two components; required except in MlSingleFrame
    ImageInput reactive;  ///< optional, one component 0..1: how much to trust this frame over history
    ImageInput output;    ///< display size, the creation format, layout GENERAL
    VkExtent2D renderSize{};  ///< this frame's render size, any size up to maxRenderSize
    float jitterX = 0.0f;                            ///< projection jitter, render pixels
    float jitterY = 0.0f;                            ///< projection jitter, render pixels
    float motionScaleX = 1.0f;                       ///< stored motion x -> render pixels
    float motionScaleY = 1.0f;                       ///< stored motion y -> render pixels
    float exposure = 1.0f;                           ///< UpscalerFlagHdr: colour multiplier while accumulating
    float frameTimeDeltaMs = 16.7f;  ///< time since the previous frame
    float cameraNear = 0.05f;                        ///< near plane distance
    float cameraFar = 200.0f;                        ///< far plane distance; 0: infinite far plane
    float cameraFovY = 1.0472f;                      ///< radians
    bool reset = false;       ///< drop the history (a camera cut, a teleport, the first frame)
    uint32_t frameSlot = 0;   ///< < framesInFlight
    /// Optional: called around each step (effects/step_callbacks.h), in this order: Taau
    /// "taau_resolve"; MlTemporal "ml_features", "network", "ml_resolve"; MlSingleFrame
    /// "to_tensor", "network", "to_image"; then "sharpen" when sharpness > 0 (temporal modes).
    StepCallbacks steps;
};

/// An upscaler on the application's device: create once, record the initialization once, then
/// record() every frame into the application's command buffer. It never submits or waits.
class Upscaler {
public:
    /// Validates the desc (errors name the field and the numbers), loads and compiles the model
    /// (ML modes), creates the pipelines and allocates the history. Records nothing.
    static Result<std::unique_ptr<Upscaler>> create(const UpscalerDesc& desc);
    virtual ~Upscaler() = default;

    /// The description it was created with (displaySize as last resized).
    virtual const UpscalerDesc& desc() const = 0;
    /// What it allocated for itself.
    virtual EffectRequirements requirements() const = 0;
    /// The network precision actually used (ML modes; false for Taau).
    virtual bool usesFp16() const = 0;
    /// Whether the network runs on tensor cores (ML modes, EffectDevice::cooperativeMatrixNVEnabled
    /// on a GPU that has them; false for Taau). Without them it runs several times slower.
    virtual bool usesTensorCores() const = 0;

    /// Records the one-time initialization: clears the history and (ML modes) uploads the weights
    /// through the plugin's operator initializer from the effect's staging buffer. Record it once
    /// into a command buffer submitted before the first record(); record() fails until then.
    virtual Status recordInitialization(VkCommandBuffer cmd) = 0;
    /// Records one frame. Errors (nothing is recorded then): a missing image, a render size above
    /// the maximum or above an input's extent, an output whose size or format does not match, a
    /// frame slot out of range, uninitialized weights.
    virtual Status record(VkCommandBuffer cmd, const UpscalerInputs& inputs) = 0;
    /// A new display size: the history (and, in ML modes, the network's scratch memory) is
    /// reallocated; the old objects are retired (see Lifetimes). The next frame starts without
    /// history. Weights are kept.
    virtual Status resize(VkExtent2D displaySize) = 0;
};

/// The render size for a display size and an upscale ratio (display / render, >= 1), rounded,
/// at least 1x1.
VkExtent2D renderSizeForRatio(VkExtent2D displaySize, float ratio);

/// The checks create() and record() run, for applications that want them up front (and for
/// tests and fuzzing): every problem named with the field, the image and the numbers.
Status validateUpscalerDesc(const UpscalerDesc& desc);
/// The checks record() runs on `inputs`.
Status validateUpscalerInputs(const UpscalerDesc& desc, const UpscalerInputs& inputs);

/// Formats the output image may have (storage-image formats the shaders are built for).
bool isSupportedOutputFormat(VkFormat format);

}  // namespace effects
EFFECTS_API_END
