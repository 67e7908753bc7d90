// The renderer's denoise stage: the built-in a-trous filter against a converged reference, and
// the external-denoiser slot (DenoiserFn) the ML bridge uses.
#include "vulkan_test.h"

#include "engine/error.h"
#include "engine/renderer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace {

using testsupport::VulkanTest;

constexpr uint32_t kWidth = 96, kHeight = 64;

engine::RendererDesc noisyDesc(engine::DenoiseMode denoise, uint32_t shadowSamples = 1) {
    engine::RendererDesc d;
    d.outputWidth = kWidth;
    d.outputHeight = kHeight;
    d.upscale = engine::UpscaleMode::Native;
    d.shadows = engine::ShadowMode::Stochastic;
    d.shadowSamples = shadowSamples;
    d.denoise = denoise;
    return d;
}

// Path 1 at t=0 has the most sun shadow of the paths (about 13% of the pixels).
engine::FrameParams params() { return engine::FrameParams::onPath(1, 0, 30.0f, 0.0f); }

std::vector<float> renderColor(engine::Context& ctx, engine::Renderer& r) {
    auto rb = engine::renderSingleFrame(ctx, r, params(), uint32_t(engine::Channel::Color));
    return rb.channels.at(0).data;
}

double psnr(const std::vector<float>& a, const std::vector<float>& b) {
    double se = 0;
    for (size_t i = 0; i < a.size(); ++i) se += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    return 10.0 * std::log10(1.0 / std::max(se / double(a.size()), 1e-12));
}

// A plain 5x5 box blur (CPU): what an edge-unaware filter does to the reference.
std::vector<float> boxBlur(const std::vector<float>& img, uint32_t w, uint32_t h) {
    std::vector<float> out(img.size());
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x)
            for (uint32_t c = 0; c < 3; ++c) {
                double sum = 0;
                int n = 0;
                for (int dy = -2; dy <= 2; ++dy)
                    for (int dx = -2; dx <= 2; ++dx) {
                        int xx = int(x) + dx, yy = int(y) + dy;
                        if (xx < 0 || yy < 0 || xx >= int(w) || yy >= int(h)) continue;
                        sum += img[(size_t(yy) * w + xx) * 3 + c];
                        ++n;
                    }
                out[(size_t(y) * w + x) * 3 + c] = float(sum / n);
            }
    return out;
}

}  // namespace

// One-sample stochastic shadows: the filtered frame is closer to the 256-sample reference than
// the noisy frame it was computed from (same seed, so the same noise).
TEST_F(VulkanTest, AtrousDenoiserBringsANoisyFrameCloserToTheReference) {
    engine::Renderer noisyRenderer(ctx(), noisyDesc(engine::DenoiseMode::Off));
    engine::Renderer denoisedRenderer(ctx(), noisyDesc(engine::DenoiseMode::Atrous));
    engine::Renderer referenceRenderer(ctx(), noisyDesc(engine::DenoiseMode::Off, 256));
    auto noisy = renderColor(ctx(), noisyRenderer);
    auto denoised = renderColor(ctx(), denoisedRenderer);
    auto reference = renderColor(ctx(), referenceRenderer);
    ASSERT_EQ(denoised.size(), noisy.size());
    EXPECT_NE(denoised, noisy);
    double before = psnr(noisy, reference), after = psnr(denoised, reference);
    std::printf("noisy %.2f dB, a-trous %.2f dB vs the 256-sample reference\n", before, after);
    EXPECT_GT(after, before + 1.0);  // 28.7 -> 30.8 dB on lavapipe
}

// Edge-avoiding: on a noise-free frame the filter changes little, where a plain blur of a
// smaller footprint destroys the scene's edges and texture (which proves there are edges).
TEST_F(VulkanTest, AtrousDenoiserKeepsEdges) {
    engine::Renderer referenceRenderer(ctx(), noisyDesc(engine::DenoiseMode::Off, 256));
    engine::Renderer denoisedRenderer(ctx(), noisyDesc(engine::DenoiseMode::Atrous, 256));
    auto reference = renderColor(ctx(), referenceRenderer);
    auto denoised = renderColor(ctx(), denoisedRenderer);
    double kept = psnr(denoised, reference), blurred = psnr(boxBlur(reference, kWidth, kHeight), reference);
    std::printf("a-trous on the reference %.2f dB, 5x5 box blur %.2f dB\n", kept, blurred);
    EXPECT_GT(kept, blurred + 10.0);  // 33.5 vs 14.5 dB on lavapipe
    EXPECT_GT(kept, 30.0);
}

TEST_F(VulkanTest, AtrousDenoiserRunsFiveIterationsBeforeTheOutputStage) {
    engine::RendererDesc d = noisyDesc(engine::DenoiseMode::Atrous);
    d.upscale = engine::UpscaleMode::Bicubic;
    d.renderScale = 0.5f;
    engine::Renderer r(ctx(), d);
    engine::renderSingleFrame(ctx(), r, params());
    EXPECT_EQ(r.graph().passOrder(),
              (std::vector<std::string>{"gbuffer", "lighting", "denoise_atrous0", "denoise_atrous1", "denoise_atrous2",
                                        "denoise_atrous3", "denoise_atrous4", "upscale_bicubic", "encode", "readback"}));
    r.setDenoiseMode(engine::DenoiseMode::Off);
    engine::renderSingleFrame(ctx(), r, params());
    EXPECT_EQ(r.graph().passOrder(), (std::vector<std::string>{"gbuffer", "lighting", "upscale_bicubic", "encode", "readback"}));
}

// A stand-in for the ML denoiser: fills the denoised colour with a constant.
TEST_F(VulkanTest, ExternalDenoiserReplacesTheBuiltInFilter) {
    engine::RendererDesc d = noisyDesc(engine::DenoiseMode::Off);
    d.upscale = engine::UpscaleMode::Bilinear;
    d.renderScale = 0.5f;
    engine::Renderer r(ctx(), d);
    engine::DenoiseStage seen;
    r.setDenoiser([&](engine::FrameGraph& g, const engine::DenoiseStage& stage) {
        seen = stage;
        engine::PassDesc pass;
        pass.name = "test_denoiser";
        pass.type = engine::PassType::Transfer;
        pass.uses = {{stage.color, engine::Access::TransferRead}, {stage.output, engine::Access::TransferWrite}};
        pass.record = [stage](engine::PassContext& pc) {
            VkClearColorValue c{{0.25f, 0.5f, 0.75f, 1.0f}};
            VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdClearColorImage(pc.commandBuffer(), pc.image(stage.output), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &range);
        };
        g.addPass(std::move(pass));
    });
    auto rb = engine::renderSingleFrame(ctx(), r, params(), uint32_t(engine::Channel::Color));
    EXPECT_EQ(seen.extent.width, kWidth / 2);
    EXPECT_EQ(seen.extent.height, kHeight / 2);
    for (auto h : {seen.color, seen.albedo, seen.normal, seen.depth, seen.output}) EXPECT_NE(h, engine::kInvalidResource);
    EXPECT_NE(seen.color, seen.output);
    auto order = r.graph().passOrder();
    ASSERT_GE(order.size(), 3u);
    EXPECT_EQ(order[2], "test_denoiser");
    const auto& color = rb.channels.at(0);
    EXPECT_EQ(color.width, kWidth / 2);
    for (size_t i = 0; i < color.data.size(); i += 3) {
        ASSERT_NEAR(color.data[i + 0], 0.25f, 1e-3f) << "pixel " << i / 3;
        ASSERT_NEAR(color.data[i + 2], 0.75f, 1e-3f) << "pixel " << i / 3;
    }
    // Upscaled from the constant: the frame is constant too (sRGB 0.25 -> 137).
    for (size_t i = 0; i < rb.frame.pixels.size(); i += 4) ASSERT_NEAR(rb.frame.pixels[i], 137, 1);

    r.setDenoiser({});  // back to the built-in mode (off)
    engine::renderSingleFrame(ctx(), r, params());
    order = r.graph().passOrder();
    EXPECT_EQ(std::find(order.begin(), order.end(), "test_denoiser"), order.end());
    EXPECT_EQ(order[2], "upscale_bilinear");
}
