#pragma once
// Test harness for the effects: application-side images on the test's Vulkan context, filled
// from host data and read back, and one-shot submission of an effect's recorded commands. The
// effects themselves see only these images and the device handles (as any engine's would).
#include "effects/upscaler.h"
#include "engine/context.h"

#include <vkutil/image.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace fxtest {

// A 2D image the test owns: sampled input (filled with fill()) or storage output (read()).
class TestImage {
public:
    TestImage(engine::Context& ctx, VkFormat format, VkExtent2D extent, bool output);
    TestImage(const TestImage&) = delete;
    TestImage& operator=(const TestImage&) = delete;

    // Uploads `texels` (float per component, row-major, componentCount() per texel) and leaves
    // the image in SHADER_READ_ONLY_OPTIMAL (inputs) or GENERAL (outputs), visible to compute.
    void fill(const std::vector<float>& texels);
    // Copies the image back (after the effect wrote it) as floats: the components of a 32-bit
    // float format, 4 per texel for the packed output formats (no alpha: 1).
    std::vector<float> read();
    effects::ImageInput input() const;
    uint32_t components() const;
    VkExtent2D extent() const { return extent_; }

private:
    engine::Context& ctx_;
    VkFormat format_;
    VkExtent2D extent_;
    bool output_;
    vkutil::Image image_;
};

effects::EffectDevice effectDevice(engine::Context& ctx);

// An output format the effects write besides R32G32B32A32_SFLOAT, with its rounding bound:
// |x| * relative + absolute. Unorm stores get one unit of the last place, since Vulkan leaves
// their rounding to the implementation (the H100's came to 0.56 units, lavapipe's to 0.5).
struct OutputFormat {
    VkFormat format;
    const char* name;
    double relative, absolute;
    bool unorm;  // stores clamp to [0, 1]; the float formats without a sign clamp at 0
    bool alpha;  // false: alpha reads back as 1
};
const std::vector<OutputFormat>& outputFormats();
// Whether this device can write `format` as an optimal-tiling storage image.
bool storageCapable(engine::Context& ctx, VkFormat format);
// The worst |got - stored(reference)| in units of the format's rounding bound, where stored()
// is what the format keeps of an R32G32B32A32_SFLOAT result (clamps, no alpha): <= 1 passes.
double worstRoundingUnits(const OutputFormat& f, const std::vector<float>& reference, const std::vector<float>& got);

// The sRGB transfer functions on [0, 1], as the effects' shaders apply them.
inline float srgbEncode(float v) { return v <= 0.0031308f ? v * 12.92f : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f; }
inline float srgbDecode(float v) { return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f); }

// Records `fn` into a command buffer, submits it and waits; then makes compute writes visible
// to transfers (the harness's read-backs).
void run(engine::Context& ctx, const std::function<void(VkCommandBuffer)>& fn);

}  // namespace fxtest
