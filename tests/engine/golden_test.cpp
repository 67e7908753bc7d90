// Golden image test: the 96x64 golden frame (demos/upscale_demo/golden.h) rendered on this
// device with validation on must match tests/data/golden_96x64.png, regenerated with
//   build/demos/upscale_demo/upscale_demo --write-golden tests/data/golden_96x64.png
// Tolerance, room for driver rounding differences: mean absolute difference <= 1.0 (0..255
// units), and at most 0.5% of the pixels differ by more than 16 in some channel. The procedural
// materials are evaluated per pixel without filtering (they alias on purpose), so a pixel on a
// glyph or checker edge flips between colours when another driver rounds its position
// differently: the H100 (reference made on lavapipe) differed in 8 isolated pixels of 6144 by 23
// to 181, mean 0.12, and failed the PSNR >= 40 dB this test used before (39.1 dB). The "pass
// removed" checks below show that real changes to the frame land far outside it.
#include "vulkan_test.h"

#include "engine/image_io.h"
#include "engine/renderer.h"
#include "golden.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using testsupport::VulkanTest;

constexpr double kMaxMeanAbsDiff = 1.0;
constexpr int kOutlierDiff = 16;
constexpr double kMaxOutlierFraction = 0.005;

const std::string kGoldenPath = std::string(VKML_TEST_DATA_DIR) + "/golden_96x64.png";

engine::Image8 render(engine::Context& ctx, const engine::RendererDesc& desc) {
    engine::Renderer renderer(ctx, desc);
    return engine::renderSingleFrame(ctx, renderer, demo::golden::frameParams()).frame;
}

// Pixels whose largest channel difference exceeds kOutlierDiff (images of equal size and layout).
size_t outlierPixels(const engine::Image8& a, const engine::Image8& b) {
    size_t count = 0;
    for (size_t p = 0; p < size_t(a.width) * a.height; ++p) {
        int largest = 0;
        for (uint32_t c = 0; c < a.channels; ++c)
            largest = std::max(largest, std::abs(int(a.pixels[p * a.channels + c]) - int(b.pixels[p * b.channels + c])));
        count += largest > kOutlierDiff;
    }
    return count;
}

// Prints the comparison; true when `frame` is within the tolerance of `reference`.
bool withinTolerance(const engine::Image8& frame, const engine::Image8& reference) {
    engine::ImageDiff d = engine::compareImages(frame, reference);
    const size_t outliers = outlierPixels(frame, reference), pixels = size_t(frame.width) * frame.height;
    std::printf("  PSNR %.2f dB, mean abs diff %.3f, max abs diff %d, %zu of %zu pixels differ by more than %d\n", d.psnr, d.meanAbsDiff,
                int(d.maxAbsDiff), outliers, pixels, kOutlierDiff);
    return d.meanAbsDiff <= kMaxMeanAbsDiff && double(outliers) <= kMaxOutlierFraction * double(pixels);
}

class GoldenTest : public VulkanTest {};

TEST_F(GoldenTest, FrameMatchesReference) {
    EXPECT_TRUE(withinTolerance(render(ctx(), demo::golden::rendererDesc()), engine::readPng(kGoldenPath)))
        << "if the change is intended, regenerate the reference (see this file's header)";
}

TEST_F(GoldenTest, FrameWithoutLightingIsOutsideTolerance) {
    engine::RendererDesc desc = demo::golden::rendererDesc();
    desc.lighting = false;
    EXPECT_FALSE(withinTolerance(render(ctx(), desc), engine::readPng(kGoldenPath)));
}

TEST_F(GoldenTest, FrameWithoutShadowsIsOutsideTolerance) {
    engine::RendererDesc desc = demo::golden::rendererDesc();
    desc.shadows = engine::ShadowMode::Off;
    EXPECT_FALSE(withinTolerance(render(ctx(), desc), engine::readPng(kGoldenPath)));
}

}  // namespace
