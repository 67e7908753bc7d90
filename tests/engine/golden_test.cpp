// Golden image test: the 96x64 golden frame (demos/upscale_demo/golden.h) rendered on this
// device with validation on must match tests/data/golden_96x64.png, regenerated with
//   build/demos/upscale_demo/upscale_demo --write-golden tests/data/golden_96x64.png
// Tolerance: PSNR >= 40 dB and mean absolute difference <= 1.0 (0..255 units), room for
// driver rounding differences; the "pass removed" checks below show that real changes to the
// frame land far outside it.
#include "vulkan_test.h"

#include "engine/image_io.h"
#include "engine/renderer.h"
#include "golden.h"

#include <cstdio>
#include <string>

namespace {

using testsupport::VulkanTest;

constexpr double kMinPsnr = 40.0;
constexpr double kMaxMeanAbsDiff = 1.0;

const std::string kGoldenPath = std::string(VKML_TEST_DATA_DIR) + "/golden_96x64.png";

engine::Image8 render(engine::Context& ctx, const engine::RendererDesc& desc) {
    engine::Renderer renderer(ctx, desc);
    return engine::renderSingleFrame(ctx, renderer, demo::golden::frameParams()).frame;
}

bool withinTolerance(const engine::ImageDiff& d) {
    std::printf("  PSNR %.2f dB, mean abs diff %.3f, max abs diff %d\n", d.psnr, d.meanAbsDiff, int(d.maxAbsDiff));
    return d.psnr >= kMinPsnr && d.meanAbsDiff <= kMaxMeanAbsDiff;
}

class GoldenTest : public VulkanTest {};

TEST_F(GoldenTest, FrameMatchesReference) {
    engine::Image8 reference = engine::readPng(kGoldenPath);
    engine::Image8 frame = render(ctx(), demo::golden::rendererDesc());
    engine::ImageDiff d = engine::compareImages(frame, reference);
    EXPECT_TRUE(withinTolerance(d)) << "PSNR " << d.psnr << " dB, mean abs diff " << d.meanAbsDiff
                                    << "; if the change is intended, regenerate the reference (see this file's header)";
}

TEST_F(GoldenTest, FrameWithoutLightingIsOutsideTolerance) {
    engine::Image8 reference = engine::readPng(kGoldenPath);
    engine::RendererDesc desc = demo::golden::rendererDesc();
    desc.lighting = false;
    engine::ImageDiff d = engine::compareImages(render(ctx(), desc), reference);
    EXPECT_FALSE(withinTolerance(d)) << "PSNR " << d.psnr << " dB, mean abs diff " << d.meanAbsDiff;
}

TEST_F(GoldenTest, FrameWithoutShadowsIsOutsideTolerance) {
    engine::Image8 reference = engine::readPng(kGoldenPath);
    engine::RendererDesc desc = demo::golden::rendererDesc();
    desc.shadows = engine::ShadowMode::Off;
    engine::ImageDiff d = engine::compareImages(render(ctx(), desc), reference);
    EXPECT_FALSE(withinTolerance(d)) << "PSNR " << d.psnr << " dB, mean abs diff " << d.meanAbsDiff;
}

}  // namespace
