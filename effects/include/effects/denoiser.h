#pragma once
/// \file
/// effects::Denoiser: a denoising network (ONNX, run by mlplugin) on the application's images,
/// behind the same pattern as effects::Upscaler: create on the application's device, query,
/// record the initialization once, record every frame into the application's command buffer.
///
///   auto dn = effects::Denoiser::create({.device = handles, .maxSize = {1920, 1080},
///                                        .modelPath = "denoiser.onnx"}).value();
///   dn->recordInitialization(cmd);                          // once
///   dn->record(cmd, {.color = ..., .albedo = ..., .normal = ..., .depth = ..., .output = ...,
///                    .size = {w, h}});                      // every frame
///
/// Model contract (assets/denoiser.onnx; tools/train): inputs 'color' [1,3,H,W] (sRGB values),
/// 'albedo' [1,3,H,W], 'normal' [1,3,H,W] (-1..1, world space), 'depth' [1,1,H,W] (device depth
/// 0 near .. 1 far); output [1,3,H,W] sRGB values. The network is compiled once for maxSize
/// rounded up to a multiple of 8; a smaller frame fills the top-left (edges repeated), so the size
/// may change every frame without a recompile.
///
/// Image contract: color, albedo, normal, depth are sampled in compute shaders in the layout
/// given (SHADER_READ_ONLY_OPTIMAL, the depth read-only layouts, or GENERAL), the `size` region
/// from the top-left; output is written with storage writes in layout GENERAL (every pixel of
/// `size`). Barriers only on the effect's own buffers; no layout transitions on the application's
/// images. Frames in flight, threading, lifetimes and errors: as effects/upscaler.h says.
#include "effects/effect_device.h"
#include "effects/step_callbacks.h"
#include "effects/export.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

EFFECTS_API_BEGIN
namespace effects {

/// DenoiserDesc::flags bits.
enum DenoiserFlags : uint32_t {
    DenoiserFlagNone = 0,            ///< no flag
    /// Input colour (and the output) hold sRGB-encoded values in a UNORM view. Not for an _SRGB
    /// view, which the sampler decodes already: record() refuses the double decode.
    DenoiserFlagColorSrgb = 1u << 0,
};

/// What a Denoiser is created with.
struct DenoiserDesc {
    EffectDevice device;      ///< the application's device
    VkExtent2D maxSize{};     ///< the largest `size` record() will be given
    VkFormat outputFormat = VK_FORMAT_R16G16B16A16_SFLOAT;  ///< as UpscalerDesc::outputFormat
    uint32_t flags = DenoiserFlagNone;  ///< DenoiserFlags
    std::string modelPath;              ///< the ONNX model as a file...
    std::span<const uint8_t> modelBytes;  ///< ...or as bytes (exactly one of the two)
    bool preferFp16 = true;             ///< fp16 where the device has it
    uint32_t framesInFlight = 2;        ///< 1..8
};

/// One frame's images for Denoiser::record.
struct DenoiserInputs {
    ImageInput color;    ///< noisy colour
    ImageInput albedo;   ///< surface albedo, RGB
    ImageInput normal;   ///< world-space normal, XYZ in -1..1
    ImageInput depth;    ///< device depth
    ImageInput output;   ///< the denoised colour, layout GENERAL, at least `size`
    VkExtent2D size{};   ///< this frame's size, up to maxSize
    uint32_t frameSlot = 0;  ///< < framesInFlight
    /// Optional: called around each step (effects/step_callbacks.h): "to_tensor", "network", "to_image".
    StepCallbacks steps;
};

/// A denoising network on the application's images. Externally synchronized.
class Denoiser {
public:
    /// Validates the desc, loads and compiles the model. Records nothing.
    static Result<std::unique_ptr<Denoiser>> create(const DenoiserDesc& desc);
    virtual ~Denoiser() = default;

    /// The desc it was created with (the model as bytes).
    virtual const DenoiserDesc& desc() const = 0;
    /// What it allocated, for the application's budget.
    virtual EffectRequirements requirements() const = 0;
    /// The network precision in use.
    virtual bool usesFp16() const = 0;
    /// Whether the network runs on tensor cores (EffectDevice::cooperativeMatrixNVEnabled on a GPU
    /// that has them). Without them it runs several times slower.
    virtual bool usesTensorCores() const = 0;
    /// Records the weight upload once; record() fails until it was recorded.
    virtual Status recordInitialization(VkCommandBuffer cmd) = 0;
    /// Records one frame. Errors name the image and the numbers; nothing is recorded then.
    virtual Status record(VkCommandBuffer cmd, const DenoiserInputs& inputs) = 0;
};

/// The checks create() runs.
Status validateDenoiserDesc(const DenoiserDesc& desc);
/// The checks record() runs on `inputs`.
Status validateDenoiserInputs(const DenoiserDesc& desc, const DenoiserInputs& inputs);

}  // namespace effects
EFFECTS_API_END
