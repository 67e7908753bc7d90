// The upscaler's argument checks: pure functions of the descs, no Vulkan calls.
#include "effects/upscaler.h"
#include "format_names.h"

#include <cmath>
#include <string>

namespace effects {
namespace {

using detail::extentText;
using detail::formatName;
using detail::kSupportedOutputFormats;
using detail::layoutName;

constexpr uint32_t kMaxExtent = 16384;
constexpr uint32_t kKnownFlags = UpscalerFlagColorSrgb | UpscalerFlagHdr | UpscalerFlagDepthInverted;

Error invalid(std::string message) { return {ErrorCode::InvalidArgument, "upscaler: " + std::move(message), VK_SUCCESS}; }

bool inRange(VkExtent2D e) { return e.width >= 1 && e.height >= 1 && e.width <= kMaxExtent && e.height <= kMaxExtent; }

bool finite(float v) { return std::isfinite(v); }

Status checkSampled(const char* name, const ImageInput& image, VkExtent2D renderSize, bool depth) {
    if (!image.view) return invalid(std::string("the ") + name + " image is missing (no view given)");
    if (image.format == VK_FORMAT_UNDEFINED) return invalid(std::string("the ") + name + " image's format is not given (UNDEFINED)");
    if (image.extent.width < renderSize.width || image.extent.height < renderSize.height)
        return invalid(std::string("the ") + name + " image is " + extentText(image.extent) + ", smaller than this frame's render size " + extentText(renderSize));
    bool layoutOk = image.layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL || image.layout == VK_IMAGE_LAYOUT_GENERAL ||
                    image.layout == VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL ||
                    (depth && (image.layout == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL ||
                               image.layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL));
    if (!layoutOk) return invalid(std::string("the ") + name + " image is in layout " + layoutName(image.layout) + ", which compute shaders cannot sample");
    if (!depth && detail::isDepthFormat(image.format))
        return invalid(std::string("the ") + name + " image has the depth format " + formatName(image.format));
    return {};
}

}  // namespace

const char* toString(UpscalerMode mode) {
    switch (mode) {
    case UpscalerMode::Taau: return "taau";
    case UpscalerMode::MlTemporal: return "ml-temporal";
    case UpscalerMode::MlSingleFrame: return "ml-single-frame";
    }
    return "?";
}

bool isSupportedOutputFormat(VkFormat format) {
    return format == VK_FORMAT_R16G16B16A16_SFLOAT || format == VK_FORMAT_R32G32B32A32_SFLOAT || format == VK_FORMAT_R8G8B8A8_UNORM ||
           format == VK_FORMAT_A2B10G10R10_UNORM_PACK32 || format == VK_FORMAT_B10G11R11_UFLOAT_PACK32;
}

VkExtent2D renderSizeForRatio(VkExtent2D displaySize, float ratio) {
    if (!(ratio >= 1.0f) || !std::isfinite(ratio)) ratio = 1.0f;
    auto scaled = [&](uint32_t v) { return std::max(1u, uint32_t(std::lround(double(v) / double(ratio)))); };
    return {scaled(displaySize.width), scaled(displaySize.height)};
}

Status validateUpscalerDesc(const UpscalerDesc& d) {
    if (!d.device.getInstanceProcAddr) return invalid("EffectDevice::getInstanceProcAddr is null");
    if (!d.device.instance || !d.device.physicalDevice || !d.device.device)
        return invalid("EffectDevice needs the instance, physical device and device handles");
    if (!inRange(d.maxRenderSize)) return invalid("maxRenderSize " + extentText(d.maxRenderSize) + " is out of range [1, 16384]");
    if (!inRange(d.displaySize)) return invalid("displaySize " + extentText(d.displaySize) + " is out of range [1, 16384]");
    if (d.maxRenderSize.width > d.displaySize.width || d.maxRenderSize.height > d.displaySize.height)
        return invalid("maxRenderSize " + extentText(d.maxRenderSize) + " exceeds the display size " + extentText(d.displaySize) + " (an upscaler only enlarges)");
    if (!isSupportedOutputFormat(d.outputFormat))
        return invalid("outputFormat " + formatName(d.outputFormat) + " is not supported (" + kSupportedOutputFormats + ")");
    if (d.flags & ~kKnownFlags) return invalid("unknown flag bits 0x" + std::to_string(d.flags & ~kKnownFlags));
    if (d.mode != UpscalerMode::Taau && d.mode != UpscalerMode::MlTemporal && d.mode != UpscalerMode::MlSingleFrame)
        return invalid("mode " + std::to_string(uint32_t(d.mode)) + " does not exist");
    bool hasModel = !d.modelPath.empty() || !d.modelBytes.empty();
    if (d.mode == UpscalerMode::Taau && hasModel) return invalid("a model is given, but mode taau uses none");
    if (d.mode != UpscalerMode::Taau && !hasModel) return invalid(std::string("mode ") + toString(d.mode) + " needs a model (modelPath or modelBytes)");
    if (!d.modelPath.empty() && !d.modelBytes.empty()) return invalid("give the model as modelPath or as modelBytes, not both");
    if (d.framesInFlight < 1 || d.framesInFlight > 8) return invalid("framesInFlight " + std::to_string(d.framesInFlight) + " is out of range [1, 8]");
    if (!(d.sharpness >= 0.0f && d.sharpness <= 1.0f)) return invalid("sharpness " + std::to_string(d.sharpness) + " is out of range [0, 1]");
    return {};
}

Status validateUpscalerInputs(const UpscalerDesc& d, const UpscalerInputs& in) {
    if (in.frameSlot >= d.framesInFlight)
        return invalid("frameSlot " + std::to_string(in.frameSlot) + " is out of range (created for " + std::to_string(d.framesInFlight) + " frames in flight)");
    if (in.renderSize.width < 1 || in.renderSize.height < 1) return invalid("the render size " + extentText(in.renderSize) + " is empty");
    if (in.renderSize.width > d.maxRenderSize.width || in.renderSize.height > d.maxRenderSize.height)
        return invalid("the render size " + extentText(in.renderSize) + " exceeds the maximum render size " + extentText(d.maxRenderSize) + " given at creation");
    if (Status s = checkSampled("color", in.color, in.renderSize, false); !s) return s;
    if (std::string p = detail::doubleSrgbDecodeProblem("color", in.color.format, d.flags & UpscalerFlagColorSrgb, "UpscalerFlagColorSrgb");
        !p.empty())
        return invalid(p);
    if (d.mode != UpscalerMode::MlSingleFrame) {
        if (!in.depth.view) return invalid("the depth image is missing (temporal modes need depth)");
        if (!in.motion.view) return invalid("the motion vectors are missing (temporal modes need a motion image)");
        if (Status s = checkSampled("depth", in.depth, in.renderSize, true); !s) return s;
        if (Status s = checkSampled("motion", in.motion, in.renderSize, false); !s) return s;
        uint32_t components = detail::componentCount(in.motion.format);
        if (components != 0 && components < 2)
            return invalid("the motion image has the one-component format " + formatName(in.motion.format) + "; motion vectors need two");
        if (in.reactive.view)
            if (Status s = checkSampled("reactive", in.reactive, in.renderSize, false); !s) return s;
    }
    if (!in.output.view) return invalid("the output image is missing (no view given)");
    if (in.output.extent.width != d.displaySize.width || in.output.extent.height != d.displaySize.height)
        return invalid("the output image is " + extentText(in.output.extent) + ", but the display size is " + extentText(d.displaySize));
    if (in.output.format != d.outputFormat)
        return invalid("the output image's format " + formatName(in.output.format) + " differs from the outputFormat " + formatName(d.outputFormat) +
                       " given at creation");
    if (in.output.layout != VK_IMAGE_LAYOUT_GENERAL)
        return invalid("the output image is in layout " + layoutName(in.output.layout) + "; storage writes need GENERAL");
    if (!finite(in.jitterX) || !finite(in.jitterY) || std::fabs(in.jitterX) > 1.0f || std::fabs(in.jitterY) > 1.0f)
        return invalid("the jitter (" + std::to_string(in.jitterX) + ", " + std::to_string(in.jitterY) + ") is not a sub-pixel offset in [-1, 1]");
    if (!finite(in.motionScaleX) || !finite(in.motionScaleY)) return invalid("the motion scale is not finite");
    if (!(in.exposure > 0.0f) || !finite(in.exposure)) return invalid("the exposure " + std::to_string(in.exposure) + " is not a positive number");
    if (!(in.cameraNear > 0.0f) || !finite(in.cameraNear)) return invalid("cameraNear " + std::to_string(in.cameraNear) + " is not a positive number");
    if (!finite(in.cameraFar) || (in.cameraFar != 0.0f && !(in.cameraFar > in.cameraNear)))
        return invalid("cameraFar " + std::to_string(in.cameraFar) + " must exceed cameraNear " + std::to_string(in.cameraNear) + " (or be 0: infinite)");
    if (!(in.cameraFovY > 0.0f && in.cameraFovY < 3.14159f)) return invalid("cameraFovY " + std::to_string(in.cameraFovY) + " is not an angle in (0, pi) radians");
    if (!finite(in.frameTimeDeltaMs) || in.frameTimeDeltaMs < 0.0f) return invalid("frameTimeDeltaMs " + std::to_string(in.frameTimeDeltaMs) + " is negative or not finite");
    return {};
}

}  // namespace effects
