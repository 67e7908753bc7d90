#include "vulkan_test.h"

#include "engine/camera.h"
#include "engine/error.h"
#include "engine/jitter.h"
#include "engine/renderer.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

using testsupport::VulkanTest;

engine::RendererDesc smallDesc(engine::UpscaleMode mode = engine::UpscaleMode::Bilinear) {
    engine::RendererDesc d;
    d.outputWidth = 64;
    d.outputHeight = 48;
    d.renderScale = 0.5f;
    d.upscale = mode;
    return d;
}

engine::FrameParams params(uint32_t frame = 10) { return engine::FrameParams::onPath(0, frame, 30.0f, 1.0f); }

const engine::FrameReadback::FloatImage& channel(const engine::FrameReadback& rb, engine::Channel c) {
    auto it = std::find_if(rb.channels.begin(), rb.channels.end(), [&](const auto& i) { return i.channel == c; });
    if (it == rb.channels.end()) throw std::runtime_error(std::string("channel missing: ") + engine::toString(c));
    return *it;
}

double mean(const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size()); }

TEST_F(VulkanTest, RendererReadsBackEveryChannelAtItsResolution) {
    engine::Renderer r(ctx(), smallDesc());
    uint32_t all = engine::Channel::Color | engine::Channel::Depth | engine::Channel::Normal | engine::Channel::Albedo |
                   engine::Channel::Motion | engine::Channel::SunVisibility | engine::Channel::Output;
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, params(), all);
    EXPECT_EQ(rb.frame.width, 64u);
    EXPECT_EQ(rb.frame.height, 48u);
    ASSERT_EQ(rb.channels.size(), 7u);
    const auto& depth = channel(rb, engine::Channel::Depth);
    EXPECT_EQ(depth.width, 32u);
    EXPECT_EQ(depth.height, 24u);
    EXPECT_EQ(depth.components, 1u);
    EXPECT_EQ(channel(rb, engine::Channel::Output).width, 64u);
    EXPECT_EQ(channel(rb, engine::Channel::Motion).components, 2u);
    EXPECT_EQ(channel(rb, engine::Channel::Normal).components, 3u);

    // The orbit camera sees both sky (depth 1) and geometry; geometry has unit normals.
    size_t sky = std::count(depth.data.begin(), depth.data.end(), 1.0f);
    EXPECT_GT(sky, 0u);
    EXPECT_LT(sky, depth.data.size());
    const auto& normal = channel(rb, engine::Channel::Normal);
    for (size_t i = 0; i < depth.data.size(); ++i) {
        if (depth.data[i] >= 1.0f) continue;
        float len = std::sqrt(normal.data[3 * i] * normal.data[3 * i] + normal.data[3 * i + 1] * normal.data[3 * i + 1] +
                              normal.data[3 * i + 2] * normal.data[3 * i + 2]);
        ASSERT_NEAR(len, 1.0f, 0.01f) << "pixel " << i;
    }
    // Not a constant image.
    auto [lo, hi] = std::minmax_element(rb.frame.pixels.begin(), rb.frame.pixels.end());
    EXPECT_GT(int(*hi) - int(*lo), 100);
}

// Motion vectors are in render pixels, previous position minus this position, with the jitter
// cancelled: checked against the CPU reprojection of every pixel's depth (geometry) or view
// direction (sky) through the two cameras' matrices.
TEST_F(VulkanTest, MotionVectorsAreTheReprojectionInRenderPixels) {
    engine::RendererDesc d = smallDesc(engine::UpscaleMode::Native);
    engine::Renderer r(ctx(), d);
    engine::FrameParams still = params();
    still.previousCamera = still.camera;
    auto motion = channel(engine::renderSingleFrame(ctx(), r, still, uint32_t(engine::Channel::Motion)), engine::Channel::Motion);
    float largest = 0.0f;
    for (float v : motion.data) largest = std::max(largest, std::fabs(v));
    std::printf("  still camera: largest |motion| %.3g render pixels\n", largest);
    EXPECT_LT(largest, 1e-3f);

    engine::FrameParams moving = params(10);
    moving.previousCamera = engine::camera(0, 1.0f + 9.0f / 30.0f - 0.15f);  // orbit: rotation and translation
    moving.jitterPixels = {0.3f, -0.2f};
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, moving, engine::Channel::Motion | engine::Channel::Depth);
    const auto& m = channel(rb, engine::Channel::Motion);
    const auto& depth = channel(rb, engine::Channel::Depth);
    const uint32_t w = m.width, h = m.height;
    using dmat4 = glm::dmat4;
    using dvec4 = glm::dvec4;
    engine::CameraMatrices cur = engine::cameraMatrices(moving.camera, w, h, moving.jitterPixels);
    engine::CameraMatrices prev = engine::cameraMatrices(moving.previousCamera, w, h);  // unjittered
    auto rotationOnly = [](dmat4 v) { v[3] = dvec4(0, 0, 0, 1); return v; };
    const dmat4 invCur = glm::inverse(dmat4(cur.viewProj));
    const dmat4 skyCur = glm::inverse(dmat4(cur.proj) * rotationOnly(dmat4(cur.view)));
    const dmat4 skyPrev = dmat4(prev.proj) * rotationOnly(dmat4(prev.view));
    size_t skyPixels = 0, moved = 0;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            size_t i = size_t(y) * w + x;
            dvec4 ndc((x + 0.5) / w * 2 - 1, (y + 0.5) / h * 2 - 1, depth.data[i], 1);
            bool sky = depth.data[i] >= 1.0f;
            dvec4 clip = sky ? skyPrev * (skyCur * dvec4(ndc.x, ndc.y, 1, 1)) : dmat4(prev.viewProj) * (invCur * ndc);
            double px = (clip.x / clip.w + 1) * 0.5 * w, py = (clip.y / clip.w + 1) * 0.5 * h;
            // This pixel's unjittered position: the sample at x + 0.5 shows what lies at x + 0.5 - jitter.
            double ex = px - (x + 0.5 - moving.jitterPixels.x), ey = py - (y + 0.5 - moving.jitterPixels.y);
            double tolerance = 0.03 + 2e-3 * std::hypot(ex, ey);
            ASSERT_NEAR(m.data[2 * i], ex, tolerance) << "pixel " << x << "," << y << (sky ? " (sky)" : "");
            ASSERT_NEAR(m.data[2 * i + 1], ey, tolerance) << "pixel " << x << "," << y << (sky ? " (sky)" : "");
            skyPixels += sky;
            moved += std::hypot(ex, ey) > 0.5;
        }
    EXPECT_GT(skyPixels, 0u);
    EXPECT_GT(moved, size_t(w) * h / 2) << "the camera move should shift most pixels";
}

// The jitter convention: a jitter of +1 pixel in x shows the unjittered image moved one pixel right.
TEST_F(VulkanTest, JitterMovesTheImageByThatManyPixels) {
    engine::RendererDesc d = smallDesc(engine::UpscaleMode::Native);
    d.lighting = false;  // albedo: exact per-pixel patterns
    engine::Renderer r(ctx(), d);
    engine::FrameParams p = params();
    auto plain = channel(engine::renderSingleFrame(ctx(), r, p, uint32_t(engine::Channel::Color)), engine::Channel::Color);
    p.jitterPixels = {1.0f, 0.0f};
    auto shifted = channel(engine::renderSingleFrame(ctx(), r, p, uint32_t(engine::Channel::Color)), engine::Channel::Color);
    size_t same = 0, sameUnshifted = 0, n = 0;
    for (uint32_t y = 0; y < plain.height; ++y)
        for (uint32_t x = 1; x < plain.width; ++x, ++n) {
            size_t a = (size_t(y) * plain.width + x) * 3, b = a - 3;
            same += std::fabs(shifted.data[a] - plain.data[b]) + std::fabs(shifted.data[a + 1] - plain.data[b + 1]) < 2e-3f;
            sameUnshifted += std::fabs(shifted.data[a] - plain.data[a]) + std::fabs(shifted.data[a + 1] - plain.data[a + 1]) < 2e-3f;
        }
    EXPECT_GT(double(same) / double(n), 0.97);
    EXPECT_LT(double(sameUnshifted) / double(n), double(same) / double(n) - 0.1);
}

TEST_F(VulkanTest, BilinearAndBicubicAreDifferentFilters) {
    engine::Renderer bilinear(ctx(), smallDesc(engine::UpscaleMode::Bilinear));
    engine::Renderer bicubic(ctx(), smallDesc(engine::UpscaleMode::Bicubic));
    engine::Image8 a = engine::renderSingleFrame(ctx(), bilinear, params()).frame;
    engine::Image8 b = engine::renderSingleFrame(ctx(), bicubic, params()).frame;
    engine::ImageDiff d = engine::compareImages(a, b);
    EXPECT_GT(d.meanAbsDiff, 0.1);
    EXPECT_GT(d.psnr, 20.0) << "both should still show the same scene";
}

TEST_F(VulkanTest, GraphHasTheDocumentedPassesAndHooks) {
    engine::Renderer r(ctx(), smallDesc(engine::UpscaleMode::Bicubic));
    engine::renderSingleFrame(ctx(), r, params());
    EXPECT_EQ(r.graph().passOrder(), (std::vector<std::string>{"gbuffer", "lighting", "upscale_bicubic", "encode", "readback"}));
    auto hooks = r.graph().hooks();
    for (const char* h : {"after_lighting", "before_output", "after_output", "before_present"})
        EXPECT_NE(std::find(hooks.begin(), hooks.end(), h), hooks.end()) << h;
}

// A stand-in for the ML upscaler: fills the output image with one colour.
TEST_F(VulkanTest, ExternalUpscalerReplacesTheBuiltInFilter) {
    engine::Renderer r(ctx(), smallDesc(engine::UpscaleMode::Bilinear));
    engine::OutputStage seen;
    r.setUpscaler([&](engine::FrameGraph& g, const engine::OutputStage& stage) {
        seen = stage;
        engine::PassDesc pass;
        pass.name = "test_upscaler";
        pass.type = engine::PassType::Transfer;
        pass.uses = {{stage.color, engine::Access::TransferRead}, {stage.output, engine::Access::TransferWrite}};
        pass.record = [stage](engine::PassContext& pc) {
            VkClearColorValue c{{0.25f, 0.5f, 0.75f, 1.0f}};
            VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdClearColorImage(pc.commandBuffer(), pc.image(stage.output), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &range);
        };
        g.addPass(std::move(pass));
    });
    engine::Image8 frame = engine::renderSingleFrame(ctx(), r, params()).frame;
    EXPECT_EQ(seen.renderExtent.width, 32u);
    EXPECT_EQ(seen.outputExtent.width, 64u);
    auto order = r.graph().passOrder();
    EXPECT_NE(std::find(order.begin(), order.end(), "test_upscaler"), order.end());
    EXPECT_EQ(std::find(order.begin(), order.end(), "upscale_bilinear"), order.end());
    // sRGB encoding of 0.25 / 0.5 / 0.75.
    for (size_t i = 0; i < frame.pixels.size(); i += 4) {
        ASSERT_NEAR(frame.pixels[i + 0], 137, 1);
        ASSERT_NEAR(frame.pixels[i + 1], 188, 1);
        ASSERT_NEAR(frame.pixels[i + 2], 225, 1);
    }
}

TEST_F(VulkanTest, BuildHookPassRunsAtItsHook) {
    engine::Renderer r(ctx(), smallDesc(engine::UpscaleMode::Native));
    r.addBuildHook([](engine::FrameGraph& g, const engine::OutputStage& stage) {
        engine::PassDesc pass;
        pass.name = "darken";
        pass.type = engine::PassType::Transfer;
        pass.uses = {{stage.color, engine::Access::TransferWrite}};
        pass.record = [stage](engine::PassContext& pc) {
            VkClearColorValue c{{0, 0, 0, 1}};
            VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdClearColorImage(pc.commandBuffer(), pc.image(stage.color), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &range);
        };
        g.insertAtHook("after_lighting", std::move(pass));
    });
    engine::Image8 frame = engine::renderSingleFrame(ctx(), r, params()).frame;
    auto order = r.graph().passOrder();
    ASSERT_GE(order.size(), 3u);
    EXPECT_EQ(order[2], "darken");
    for (size_t i = 0; i < frame.pixels.size(); i += 4) ASSERT_EQ(frame.pixels[i], 0) << "pixel " << i / 4;
}

TEST_F(VulkanTest, StochasticShadowsAreNoisyAndConvergeToTheReference) {
    engine::RendererDesc desc = smallDesc(engine::UpscaleMode::Native);
    desc.shadows = engine::ShadowMode::Stochastic;
    desc.shadowSamples = 1;
    engine::Renderer noisy(ctx(), desc);
    const uint32_t vis = uint32_t(engine::Channel::SunVisibility);
    engine::FrameParams p = params();
    auto a = channel(engine::renderSingleFrame(ctx(), noisy, p, vis), engine::Channel::SunVisibility).data;
    p.frameSeed += 1;
    auto b = channel(engine::renderSingleFrame(ctx(), noisy, p, vis), engine::Channel::SunVisibility).data;
    EXPECT_NE(a, b) << "a new seed must give a new noise pattern";
    for (float v : a) ASSERT_TRUE(v == 0.0f || v == 1.0f) << "one sample per pixel is binary";

    desc.shadowSamples = 256;
    engine::Renderer converged(ctx(), desc);
    auto ref = channel(engine::renderSingleFrame(ctx(), converged, p, vis), engine::Channel::SunVisibility).data;
    EXPECT_NEAR(mean(a), mean(ref), 0.05);
    size_t fractional = std::count_if(ref.begin(), ref.end(), [](float v) { return v > 0.02f && v < 0.98f; });
    EXPECT_GT(fractional, 0u) << "the converged reference has penumbrae";
}

// Many rays per pixel must not bias the estimate: llvmpipe cuts loops short after 65535
// iterations per invocation, and dividing by the requested ray count darkened 512-ray frames
// (mean visibility 0.87 instead of 0.93 on the text path).
TEST_F(VulkanTest, ManyShadowRaysStayUnbiased) {
    engine::RendererDesc desc = smallDesc(engine::UpscaleMode::Native);
    desc.shadows = engine::ShadowMode::Stochastic;
    const uint32_t vis = uint32_t(engine::Channel::SunVisibility);
    engine::FrameParams p = engine::FrameParams::onPath(2, 75);  // text_dolly at t = 2.5 s: long shadows
    desc.shadowSamples = 64;
    engine::Renderer few(ctx(), desc);
    auto a = channel(engine::renderSingleFrame(ctx(), few, p, vis), engine::Channel::SunVisibility).data;
    desc.shadowSamples = 512;
    engine::Renderer many(ctx(), desc);
    auto b = channel(engine::renderSingleFrame(ctx(), many, p, vis), engine::Channel::SunVisibility).data;
    ASSERT_LT(mean(a), 0.99) << "the frame must contain shadows for this test to mean anything";
    EXPECT_NEAR(mean(a), mean(b), 0.01);
}

TEST_F(VulkanTest, BadRendererDescriptionsAreClearErrors) {
    auto expectError = [&](engine::RendererDesc d, const std::string& needle) {
        try {
            engine::Renderer r(ctx(), d);
            ADD_FAILURE() << "expected engine::Error mentioning " << needle;
        } catch (const engine::Error& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    engine::RendererDesc d = smallDesc();
    d.outputWidth = 0;
    expectError(d, "output width 0");
    d = smallDesc();
    d.outputHeight = 20000;
    expectError(d, "output height 20000");
    d = smallDesc();
    d.renderScale = 0.0f;
    expectError(d, "render scale");
    d = smallDesc();
    d.shadows = engine::ShadowMode::Stochastic;
    d.shadowSamples = 0;
    expectError(d, "shadow samples 0");
}

// Render scale 2 + bilinear = 2x2 box filter of the native render at twice the resolution.
TEST_F(VulkanTest, RenderScaleTwoIsASupersampledBoxFilter) {
    engine::RendererDesc big = smallDesc(engine::UpscaleMode::Native);
    big.outputWidth = 128;
    big.outputHeight = 96;
    engine::Renderer native(ctx(), big);
    auto hi = channel(engine::renderSingleFrame(ctx(), native, params(), uint32_t(engine::Channel::Color)), engine::Channel::Color);
    engine::RendererDesc ss = smallDesc(engine::UpscaleMode::Bilinear);
    ss.renderScale = 2.0f;
    engine::Renderer supersampled(ctx(), ss);
    EXPECT_EQ(supersampled.renderExtent().width, 128u);
    auto out = channel(engine::renderSingleFrame(ctx(), supersampled, params(), uint32_t(engine::Channel::Output)), engine::Channel::Output);
    ASSERT_EQ(out.width, 64u);
    double worst = 0;
    for (uint32_t y = 0; y < out.height; ++y)
        for (uint32_t x = 0; x < out.width; ++x)
            for (uint32_t c = 0; c < 3; ++c) {
                auto at = [&](uint32_t xx, uint32_t yy) { return double(hi.data[(size_t(yy) * hi.width + xx) * 3 + c]); };
                double box = 0.25 * (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1));
                worst = std::max(worst, std::fabs(box - double(out.data[(size_t(y) * out.width + x) * 3 + c])));
            }
    EXPECT_LT(worst, 0.01) << "fp16 storage and 8-bit filter weights allow ~1e-2";
}

TEST_F(VulkanTest, RecordingWithoutARebuildAfterResizeIsAnError) {
    engine::Renderer r(ctx(), smallDesc());
    engine::renderSingleFrame(ctx(), r, params());
    r.resize(128, 96);
    EXPECT_THROW(ctx().submitAndWait([&](VkCommandBuffer cmd) { r.record(cmd, 0, params()); }), engine::Error);
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, params());  // rebuilds
    EXPECT_EQ(rb.frame.width, 128u);
    EXPECT_EQ(r.renderExtent().width, 64u);
}

TEST(CameraPaths, AreDeterministicDistinctAndNamed) {
    ASSERT_GE(engine::cameraPathCount(), 4u);
    for (uint32_t p = 0; p < engine::cameraPathCount(); ++p) {
        engine::CameraPose a = engine::camera(p, 3.5f), b = engine::camera(p, 3.5f), c = engine::camera(p, 4.5f);
        EXPECT_EQ(a.position, b.position);
        EXPECT_NE(a.position, c.position) << engine::cameraPathName(p) << " does not move";
        EXPECT_EQ(engine::cameraPathIndex(engine::cameraPathName(p)), p);
        for (uint32_t q = 0; q < p; ++q) EXPECT_NE(engine::camera(q, 3.5f).position, a.position);
    }
    EXPECT_THROW(engine::camera(engine::cameraPathCount(), 0.0f), engine::Error);
    EXPECT_EQ(engine::cameraPathIndex("no_such_path"), UINT32_MAX);
}

TEST(CameraPaths, JitterShiftsProjectionBySubPixels) {
    engine::CameraPose pose = engine::camera(0, 1.0f);
    engine::CameraMatrices m0 = engine::cameraMatrices(pose, 100, 50);
    engine::CameraMatrices m1 = engine::cameraMatrices(pose, 100, 50, {0.5f, 0.0f});
    glm::vec4 clip0 = m0.viewProj * glm::vec4(pose.target, 1.0f), clip1 = m1.viewProj * glm::vec4(pose.target, 1.0f);
    float dxPixels = (clip1.x / clip1.w - clip0.x / clip0.w) * 0.5f * 100.0f;
    EXPECT_NEAR(dxPixels, 0.5f, 1e-3f);
}

}  // namespace

namespace {

TEST(Jitter, HaltonSequenceAndPhaseCount) {
    EXPECT_FLOAT_EQ(engine::halton(1, 2), 0.5f);
    EXPECT_FLOAT_EQ(engine::halton(2, 2), 0.25f);
    EXPECT_FLOAT_EQ(engine::halton(3, 2), 0.75f);
    EXPECT_FLOAT_EQ(engine::halton(1, 3), 1.0f / 3.0f);
    EXPECT_FLOAT_EQ(engine::halton(2, 3), 2.0f / 3.0f);
    EXPECT_FLOAT_EQ(engine::halton(3, 3), 1.0f / 9.0f);
    EXPECT_EQ(engine::jitterPhaseCount(960, 1920), 32u);   // 8 x 2^2
    EXPECT_EQ(engine::jitterPhaseCount(1280, 1920), 18u);  // 8 x 1.5^2
    EXPECT_EQ(engine::jitterPhaseCount(1920, 1920), 8u);
    EXPECT_EQ(engine::jitterPhaseCount(0, 1920), 8u);
    // Frame 0 is Halton element 1 (not the origin), and the sequence repeats after the phases.
    EXPECT_FLOAT_EQ(engine::haltonJitter(0, 32).x, 0.0f);
    EXPECT_FLOAT_EQ(engine::haltonJitter(0, 32).y, 1.0f / 3.0f - 0.5f);
    EXPECT_EQ(engine::haltonJitter(5, 32), engine::haltonJitter(37, 32));
    // Every phase is a distinct sub-pixel offset inside [-0.5, 0.5).
    for (uint32_t i = 0; i < 32; ++i) {
        glm::vec2 j = engine::haltonJitter(i, 32);
        EXPECT_GE(j.x, -0.5f);
        EXPECT_LT(j.x, 0.5f);
        EXPECT_GE(j.y, -0.5f);
        EXPECT_LT(j.y, 0.5f);
        for (uint32_t k = 0; k < i; ++k) EXPECT_NE(engine::haltonJitter(k, 32), j);
    }
}

TEST(Jitter, FirstFrameOfAPathIsACut) {
    EXPECT_TRUE(engine::FrameParams::onPath(0, 0).cameraCut);
    EXPECT_FALSE(engine::FrameParams::onPath(0, 1).cameraCut);
    EXPECT_FLOAT_EQ(engine::FrameParams::onPath(0, 1, 60.0f).frameTimeSeconds, 1.0f / 60.0f);
}

}  // namespace
