// Fuzz target: the upscaler effect's argument checks (effects/upscaler.h: validateUpscalerDesc,
// validateUpscalerInputs, renderSizeForRatio), with descs and per-frame inputs built from the
// fuzz bytes (FuzzedDataProvider): extents, formats, layouts, flags, modes, floats (NaN and
// infinities included) and handles present or absent. What create() and record() run before
// touching Vulkan; no device is needed. Beyond not crashing: accepted inputs obey the rules the
// shaders rely on (render size within the maximum and every sampled image, output at the display
// size, finite camera values).
#include "effects/upscaler.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

using namespace effects;

namespace {

void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::abort();
}

template <class H>
H handle(FuzzedDataProvider& p) {
    return p.ConsumeIntegralInRange<int>(0, 7) == 0 ? H(VK_NULL_HANDLE) : reinterpret_cast<H>(uintptr_t(0x1000 + p.ConsumeIntegral<uint8_t>()));
}

uint32_t extentDim(FuzzedDataProvider& p) {
    switch (p.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return 0;
    case 1: return 16384;
    case 2: return 16385;
    case 3: return p.ConsumeIntegral<uint32_t>();
    default: return p.ConsumeIntegralInRange<uint32_t>(1, 4096);
    }
}

VkExtent2D extent(FuzzedDataProvider& p) { return {extentDim(p), extentDim(p)}; }

// Vulkan enums are int-sized C enums: any value in the int range, mostly known ones.
VkFormat format(FuzzedDataProvider& p) {
    static const VkFormat known[] = {VK_FORMAT_UNDEFINED, VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM,
                                     VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R8_UNORM,
                                     VK_FORMAT_D32_SFLOAT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_B10G11R11_UFLOAT_PACK32};
    if (p.ConsumeIntegralInRange<int>(0, 7) == 0) return VkFormat(p.ConsumeIntegralInRange<int32_t>(0, std::numeric_limits<int32_t>::max()));
    return known[p.ConsumeIntegralInRange<size_t>(0, std::size(known) - 1)];
}

VkImageLayout layout(FuzzedDataProvider& p) {
    static const VkImageLayout known[] = {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                          VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                                          VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                          VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
    if (p.ConsumeIntegralInRange<int>(0, 7) == 0) return VkImageLayout(p.ConsumeIntegralInRange<int32_t>(0, std::numeric_limits<int32_t>::max()));
    return known[p.ConsumeIntegralInRange<size_t>(0, std::size(known) - 1)];
}

float value(FuzzedDataProvider& p, float lo, float hi) {
    switch (p.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return std::numeric_limits<float>::infinity();
    case 2: return -std::numeric_limits<float>::infinity();
    case 3: return 0.0f;
    case 4: return p.ConsumeFloatingPoint<float>();
    default: return p.ConsumeFloatingPointInRange<float>(lo, hi);
    }
}

ImageInput image(FuzzedDataProvider& p, VkExtent2D like) {
    ImageInput i;
    i.view = handle<VkImageView>(p);
    i.layout = layout(p);
    i.extent = p.ConsumeBool() ? like : extent(p);
    i.format = format(p);
    return i;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider p(data, size);
    static const uint8_t model[4] = {1, 2, 3, 4};
    UpscalerDesc d;
    d.device.instance = handle<VkInstance>(p);
    d.device.physicalDevice = handle<VkPhysicalDevice>(p);
    d.device.device = handle<VkDevice>(p);
    // Never called by the checks; a function of the right type without linking the loader.
    PFN_vkGetInstanceProcAddr noLoader = [](VkInstance, const char*) -> PFN_vkVoidFunction { return nullptr; };
    d.device.getInstanceProcAddr = p.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : noLoader;
    d.maxRenderSize = extent(p);
    d.displaySize = p.ConsumeBool() ? renderSizeForRatio(d.maxRenderSize, 1.0f / value(p, 0.1f, 1.0f)) : extent(p);
    d.outputFormat = format(p);
    d.flags = p.ConsumeIntegralInRange<int>(0, 7) == 0 ? p.ConsumeIntegral<uint32_t>() : p.ConsumeIntegralInRange<uint32_t>(0, 7);
    d.mode = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? UpscalerMode(p.ConsumeIntegral<uint32_t>()) : UpscalerMode(p.ConsumeIntegralInRange<uint32_t>(0, 2));
    if (p.ConsumeBool()) d.modelPath = p.ConsumeRandomLengthString(16);
    if (p.ConsumeBool()) d.modelBytes = model;
    d.framesInFlight = p.ConsumeIntegralInRange<uint32_t>(0, 10);
    d.sharpness = value(p, -0.5f, 1.5f);
    VkExtent2D ratio = renderSizeForRatio(d.displaySize, value(p, 0.5f, 4.0f));
    if (ratio.width < 1 || ratio.height < 1 || ratio.width > std::max(d.displaySize.width, 1u) || ratio.height > std::max(d.displaySize.height, 1u))
        fail("renderSizeForRatio gave " + std::to_string(ratio.width) + "x" + std::to_string(ratio.height));
    Status descOk = validateUpscalerDesc(d);
    if (!descOk && descOk.error().message.empty()) fail("an error without a message");

    UpscalerInputs in;
    in.renderSize = p.ConsumeBool() ? d.maxRenderSize : extent(p);
    in.color = image(p, in.renderSize);
    in.depth = image(p, in.renderSize);
    in.motion = image(p, in.renderSize);
    if (p.ConsumeBool()) in.reactive = image(p, in.renderSize);
    in.output = image(p, d.displaySize);
    in.jitterX = value(p, -1.5f, 1.5f);
    in.jitterY = value(p, -1.5f, 1.5f);
    in.motionScaleX = value(p, -4096, 4096);
    in.motionScaleY = value(p, -4096, 4096);
    in.exposure = value(p, -1, 16);
    in.frameTimeDeltaMs = value(p, -1, 100);
    in.cameraNear = value(p, -1, 10);
    in.cameraFar = value(p, -1, 1000);
    in.cameraFovY = value(p, -1, 4);
    in.reset = p.ConsumeBool();
    in.frameSlot = p.ConsumeIntegralInRange<uint32_t>(0, 9);
    Status inputsOk = validateUpscalerInputs(d, in);
    if (!inputsOk) {
        if (inputsOk.error().message.empty()) fail("an error without a message");
        return 0;
    }
    if (!descOk) return 0;
    // Accepted: what the recorded shaders assume.
    if (in.renderSize.width > d.maxRenderSize.width || in.renderSize.height > d.maxRenderSize.height) fail("render size above the maximum");
    if (in.color.extent.width < in.renderSize.width || in.color.extent.height < in.renderSize.height) fail("colour smaller than the render size");
    if (in.output.extent.width != d.displaySize.width || in.output.extent.height != d.displaySize.height) fail("output not at the display size");
    if (in.frameSlot >= d.framesInFlight) fail("frame slot out of range");
    if (!std::isfinite(in.jitterX) || !std::isfinite(in.jitterY) || !std::isfinite(in.cameraNear) || !std::isfinite(in.exposure))
        fail("accepted a value that is not finite");
    return 0;
}
