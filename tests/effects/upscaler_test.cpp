// effects::Upscaler on lavapipe (validation + synchronization validation on), fed by the
// synthetic scene of synthetic_scene.h through application-owned images.
#include "effect_harness.h"
#include "synthetic_scene.h"
#include "vulkan_test.h"

#include "engine/jitter.h"
#include "mlplugin/onnx.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

using fxtest::TestImage;
using fxtest::Vec2;
using testsupport::VulkanTest;

std::vector<uint8_t> readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// One upscaler and the application images it reads and writes.
class Rig {
public:
    // `bundle`: EffectDevice::primaryCommandBuffers (the network executed as a CommandBundle).
    Rig(engine::Context& ctx, effects::UpscalerMode mode, VkExtent2D display, VkExtent2D maxRender, std::vector<uint8_t> model = {},
        float sharpness = 0.0f, bool bundle = true, bool preferFp16 = true, VkFormat outputFormat = VK_FORMAT_R32G32B32A32_SFLOAT)
        : ctx_(ctx), model_(std::move(model)) {
        effects::UpscalerDesc d;
        d.device = fxtest::effectDevice(ctx);
        d.device.primaryCommandBuffers = bundle;
        d.maxRenderSize = maxRender;
        d.displaySize = display;
        d.outputFormat = outputFormat;
        d.mode = mode;
        d.modelBytes = model_;
        d.framesInFlight = 2;
        d.sharpness = sharpness;
        d.preferFp16 = preferFp16;
        auto up = effects::Upscaler::create(d);
        if (!up) throw std::runtime_error(up.error().message);
        upscaler = std::move(*up);
        color = std::make_unique<TestImage>(ctx, VK_FORMAT_R32G32B32A32_SFLOAT, maxRender, false);
        depth = std::make_unique<TestImage>(ctx, VK_FORMAT_D32_SFLOAT, maxRender, false);
        motion = std::make_unique<TestImage>(ctx, VK_FORMAT_R32G32_SFLOAT, maxRender, false);
        output = std::make_unique<TestImage>(ctx, outputFormat, display, true);
        fxtest::run(ctx, [&](VkCommandBuffer cmd) { check(upscaler->recordInitialization(cmd)); });
    }

    static void check(const effects::Status& s) {
        if (!s) throw std::runtime_error(s.error().message);
    }

    effects::UpscalerInputs inputs(VkExtent2D renderSize, Vec2 jitter, bool reset) const {
        effects::UpscalerInputs in;
        in.color = color->input();
        in.depth = depth->input();
        in.depth.layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        in.motion = motion->input();
        in.output = output->input();
        in.renderSize = renderSize;
        in.jitterX = jitter.x;
        in.jitterY = jitter.y;
        in.reset = reset;
        in.frameSlot = slot_;
        in.steps = steps;
        return in;
    }

    // Fills the inputs with frame data (padded to the image size), records one frame, reads the output.
    std::vector<float> frame(VkExtent2D renderSize, Vec2 jitter, Vec2 camera, Vec2 previousCamera, bool reset,
                             const std::function<void(fxtest::FrameInputs&)>& edit = nullptr) {
        float scale = float(renderSize.width) / float(upscaler->desc().displaySize.width);
        fxtest::FrameInputs f = fxtest::renderFrame(renderSize.width, renderSize.height, scale, jitter, camera, previousCamera, smooth);
        if (edit) edit(f);
        VkExtent2D full = color->extent();
        auto pad = [&](const std::vector<float>& src, uint32_t comps) {
            std::vector<float> out(size_t(full.width) * full.height * comps, 0.0f);
            for (uint32_t y = 0; y < renderSize.height; ++y)
                std::copy_n(&src[size_t(y) * renderSize.width * comps], renderSize.width * comps, &out[size_t(y) * full.width * comps]);
            return out;
        };
        color->fill(pad(f.color, 4));
        depth->fill(pad(f.depth, 1));
        motion->fill(pad(f.motion, 2));
        effects::UpscalerInputs in = inputs(renderSize, jitter, reset);
        fxtest::run(ctx_, [&](VkCommandBuffer cmd) { check(upscaler->record(cmd, in)); });
        slot_ = (slot_ + 1) % 2;
        return output->read();
    }

    std::unique_ptr<effects::Upscaler> upscaler;
    std::unique_ptr<TestImage> color, depth, motion, output;
    bool smooth = false;  // fxtest::smoothPattern instead of the high-frequency pattern
    effects::StepCallbacks steps;  // handed to every record()

private:
    engine::Context& ctx_;
    std::vector<uint8_t> model_;
    uint32_t slot_ = 0;
};

Vec2 halton(uint32_t frame, VkExtent2D render, VkExtent2D display) {
    glm::vec2 j = engine::haltonJitter(frame, engine::jitterPhaseCount(render.width, display.width));
    return {j.x, j.y};
}

bool allFinite(const std::vector<float>& v) {
    return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
}

const VkExtent2D kDisplay{48, 32}, kRender{24, 16};

// A camera translation of two display pixels: the frame must equal the static sequence's frame
// moved by those two pixels, i.e. the history was fetched exactly where the motion points. The
// content is smooth, so the neighbourhood clip (stronger on moving pixels) does not engage.
TEST_F(VulkanTest, UpscalerReprojectionIsExactForAKnownTranslation) {
    const VkExtent2D size{32, 24};
    Rig still(ctx(), effects::UpscalerMode::Taau, size, size), moving(ctx(), effects::UpscalerMode::Taau, size, size);
    still.smooth = moving.smooth = true;
    still.frame(size, {}, {0, 0}, {0, 0}, true);
    std::vector<float> a = still.frame(size, {}, {0, 0}, {0, 0}, false);
    moving.frame(size, {}, {0, 0}, {0, 0}, true);
    std::vector<float> b = moving.frame(size, {}, {2, 0}, {0, 0}, false);
    double worst = 0;
    for (uint32_t y = 2; y + 2 < size.height; ++y)
        for (uint32_t x = 2; x + 4 < size.width; ++x)
            for (int c = 0; c < 3; ++c)
                worst = std::max(worst, double(std::fabs(b[(size_t(y) * size.width + x) * 4 + c] - a[(size_t(y) * size.width + x + 2) * 4 + c])));
    EXPECT_LT(worst, 2e-3) << "the moved frame is not the still frame shifted by the motion";
    // Without the motion the history would be two pixels off: the test can tell.
    Rig wrong(ctx(), effects::UpscalerMode::Taau, size, size);
    wrong.smooth = true;
    wrong.frame(size, {}, {0, 0}, {0, 0}, true);
    std::vector<float> c = wrong.frame(size, {}, {2, 0}, {2, 0}, false);  // motion 0
    double differs = 0;
    for (uint32_t y = 2; y + 2 < size.height; ++y)
        for (uint32_t x = 2; x + 4 < size.width; ++x) differs = std::max(differs, double(std::fabs(c[(size_t(y) * size.width + x) * 4] - a[(size_t(y) * size.width + x + 2) * 4])));
    EXPECT_GT(differs, 5e-3);
}

TEST_F(VulkanTest, UpscalerConvergesToTheReferenceOnAStaticCamera) {
    Rig rig(ctx(), effects::UpscalerMode::Taau, kDisplay, kRender);
    EXPECT_FALSE(rig.upscaler->usesTensorCores());  // no network
    std::vector<float> ref = fxtest::reference(kDisplay.width, kDisplay.height, {0, 0});
    std::vector<double> quality;
    for (uint32_t i = 0; i < 16; ++i) {
        quality.push_back(fxtest::psnr(rig.frame(kRender, halton(i, kRender, kDisplay), {0, 0}, {0, 0}, i == 0), ref, kDisplay.width, kDisplay.height, 2));
    }
    EXPECT_GT(quality.back(), 26.0) << "after 16 jittered frames";
    EXPECT_GT(quality.back(), quality.front() + 6.0) << "accumulation must add detail a single frame lacks (first frame " << quality.front() << " dB)";
}

// Shading that slides over the surfaces (specular and other view-dependent light, which motion
// vectors do not describe): the image moves a display pixel per frame, the motion says half
// that. History reprojected along the motion lags behind; the low accumulated-weight cap of
// moving pixels (gpu::TAAU_MOVING_HISTORY_WEIGHT) keeps the lag from building up. With the
// still pixels' cap of 16 for every pixel, as before, this ends about 7 dB lower.
// PSNR of the 24th frame of that scene against its anti-aliased reference.
double qualityWithShadingTheMotionDoesNotDescribe(Rig& rig) {
    rig.smooth = true;
    std::vector<float> out;
    Vec2 camera;
    for (uint32_t i = 0; i < 24; ++i) {
        camera = {float(i), 0.0f};
        out = rig.frame(kRender, halton(i, kRender, kDisplay), camera, {camera.x - 0.5f, 0.0f}, i == 0);
    }
    return fxtest::psnr(out, fxtest::reference(kDisplay.width, kDisplay.height, camera, 4, fxtest::smoothPattern), kDisplay.width, kDisplay.height, 4);
}

TEST_F(VulkanTest, UpscalerTaauKeepsUpWithShadingTheMotionDoesNotDescribe) {
    Rig rig(ctx(), effects::UpscalerMode::Taau, kDisplay, kRender);
    double quality = qualityWithShadingTheMotionDoesNotDescribe(rig);
    EXPECT_GT(quality, 21.0) << "after 24 frames";  // 23.8 dB on lavapipe; 16.9 with a cap of 16 throughout
}

// History hygiene, for TAAU and for the shipped temporal network (whose accumulating resolve
// keeps the samples' accumulated weight in the history's alpha: a reset must drop that too).
void expectResetDropsTheHistory(engine::Context& ctx, effects::UpscalerMode mode, const std::vector<uint8_t>& model) {
    Rig rig(ctx, mode, kDisplay, kRender, model), fresh(ctx, mode, kDisplay, kRender, model);
    for (uint32_t i = 0; i < 6; ++i) rig.frame(kRender, halton(i, kRender, kDisplay), {0, 0}, {0, 0}, i == 0);
    // A camera cut: somewhere else entirely, history reset. Both get the very same inputs (the
    // motion vectors of the jump too, which the network reads as features even on a reset frame).
    std::vector<float> afterCut = rig.frame(kRender, halton(6, kRender, kDisplay), {40, 17}, {0, 0}, true);
    std::vector<float> first = fresh.frame(kRender, halton(6, kRender, kDisplay), {40, 17}, {0, 0}, true);
    double worst = 0;
    for (size_t k = 0; k < first.size(); ++k) worst = std::max(worst, double(std::fabs(afterCut[k] - first[k])));
    EXPECT_LT(worst, 1e-5) << "a reset frame must not depend on what came before";
}

void expectNonFiniteInputNeverPersists(engine::Context& ctx, effects::UpscalerMode mode, const std::vector<uint8_t>& model) {
    Rig rig(ctx, mode, kDisplay, kRender, model), clean(ctx, mode, kDisplay, kRender, model);
    const float nan = std::nanf(""), inf = INFINITY;
    std::vector<float> last, cleanLast;
    for (uint32_t i = 0; i < 10; ++i) {
        Vec2 j = halton(i, kRender, kDisplay);
        auto poison = [&](fxtest::FrameInputs& f) {
            if (i != 4) return;
            for (size_t p = 0; p < f.depth.size(); p += 7) {
                f.color[p * 4] = nan;
                f.color[p * 4 + 1] = inf;
                f.color[p * 4 + 2] = -inf;
                f.motion[p * 2] = nan;
                f.motion[p * 2 + 1] = inf;
                f.depth[p] = p % 2 ? nan : inf;
            }
        };
        last = rig.frame(kRender, j, {0, 0}, {0, 0}, i == 0, poison);
        ASSERT_TRUE(allFinite(last)) << "frame " << i;
        cleanLast = clean.frame(kRender, j, {0, 0}, {0, 0}, i == 0);
    }
    std::vector<float> ref(cleanLast.size() / 4 * 3);
    for (size_t p = 0; p < ref.size() / 3; ++p)
        for (int c = 0; c < 3; ++c) ref[p * 3 + c] = cleanLast[p * 4 + c];
    EXPECT_GT(fxtest::psnr(last, ref, kDisplay.width, kDisplay.height), 25.0) << "five clean frames later the poisoned frame has faded";
}

std::vector<uint8_t> shippedTemporalModel() {
    std::vector<uint8_t> model = readFile(VKML_ASSETS_DIR "/upscaler_temporal.onnx");
    if (model.empty()) throw std::runtime_error("cannot read " VKML_ASSETS_DIR "/upscaler_temporal.onnx");
    return model;
}

TEST_F(VulkanTest, UpscalerResetDropsTheHistory) {
    expectResetDropsTheHistory(ctx(), effects::UpscalerMode::Taau, {});
}

TEST_F(VulkanTest, UpscalerMlTemporalResetDropsTheHistory) {
    expectResetDropsTheHistory(ctx(), effects::UpscalerMode::MlTemporal, shippedTemporalModel());
}

TEST_F(VulkanTest, UpscalerNeverKeepsNonFiniteInputInItsHistory) {
    expectNonFiniteInputNeverPersists(ctx(), effects::UpscalerMode::Taau, {});
}

TEST_F(VulkanTest, UpscalerMlTemporalNeverKeepsNonFiniteInputInItsHistory) {
    expectNonFiniteInputNeverPersists(ctx(), effects::UpscalerMode::MlTemporal, shippedTemporalModel());
}

TEST_F(VulkanTest, UpscalerHandlesRenderSizeChangesMidSequence) {
    const VkExtent2D maxRender{32, 22};
    Rig rig(ctx(), effects::UpscalerMode::Taau, kDisplay, maxRender);
    std::vector<float> ref = fxtest::reference(kDisplay.width, kDisplay.height, {0, 0});
    const VkExtent2D sizes[] = {{24, 16}, {16, 11}, {32, 22}, {24, 16}};
    for (uint32_t i = 0; i < 24; ++i) {
        VkExtent2D r = sizes[(i / 6) % 4];
        std::vector<float> out = rig.frame(r, halton(i, r, kDisplay), {0, 0}, {0, 0}, i == 0);
        ASSERT_TRUE(allFinite(out));
        EXPECT_GT(fxtest::psnr(out, ref, kDisplay.width, kDisplay.height, 2), 18.0) << "frame " << i << " at " << r.width << "x" << r.height;
    }
}

TEST_F(VulkanTest, UpscalerResizeReallocatesTheHistory) {
    Rig rig(ctx(), effects::UpscalerMode::Taau, kDisplay, kRender);
    rig.frame(kRender, {}, {0, 0}, {0, 0}, true);
    VkDeviceSize before = rig.upscaler->requirements().deviceLocalBytes;
    const VkExtent2D bigger{64, 40};
    ASSERT_TRUE(rig.upscaler->resize(bigger));
    // The old output no longer fits.
    effects::UpscalerInputs in = rig.inputs(kRender, {}, false);
    fxtest::run(ctx(), [&](VkCommandBuffer cmd) {
        effects::Status s = rig.upscaler->record(cmd, in);
        ASSERT_FALSE(s);
        EXPECT_NE(s.error().message.find("the output image is 48x32, but the display size is 64x40"), std::string::npos) << s.error().message;
    });
    TestImage output(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, bigger, true);
    rig.output.reset();
    in.output = output.input();
    for (int i = 0; i < 3; ++i) fxtest::run(ctx(), [&](VkCommandBuffer cmd) { Rig::check(rig.upscaler->record(cmd, in)); });
    EXPECT_TRUE(allFinite(output.read()));
    EXPECT_GT(rig.upscaler->requirements().deviceLocalBytes, before) << "the retired history is released after framesInFlight frames";
}

TEST_F(VulkanTest, UpscalerSharpeningAddsContrastWithoutClipping) {
    Rig plain(ctx(), effects::UpscalerMode::Taau, kDisplay, kRender), sharp(ctx(), effects::UpscalerMode::Taau, kDisplay, kRender, {}, 1.0f);
    std::vector<float> a, b;
    for (uint32_t i = 0; i < 4; ++i) {
        a = plain.frame(kRender, halton(i, kRender, kDisplay), {0, 0}, {0, 0}, i == 0);
        b = sharp.frame(kRender, halton(i, kRender, kDisplay), {0, 0}, {0, 0}, i == 0);
    }
    // Local contrast: the sum of absolute Laplacians grows; the mean stays; nothing leaves 0..1.
    auto contrast = [&](const std::vector<float>& v) {
        double sum = 0;
        for (uint32_t y = 1; y + 1 < kDisplay.height; ++y)
            for (uint32_t x = 1; x + 1 < kDisplay.width; ++x)
                for (int c = 0; c < 3; ++c) {
                    auto at = [&](int dx, int dy) { return double(v[((y + dy) * kDisplay.width + x + dx) * 4 + c]); };
                    sum += std::fabs(4 * at(0, 0) - at(-1, 0) - at(1, 0) - at(0, -1) - at(0, 1));
                }
        return sum;
    };
    EXPECT_GT(contrast(b), contrast(a) * 1.05);
    double meanA = 0, meanB = 0;
    for (size_t k = 0; k < a.size(); k += 4) meanA += a[k], meanB += b[k];
    EXPECT_NEAR(meanA / double(a.size() / 4), meanB / double(b.size() / 4), 0.01);
    for (float v : b) {
        ASSERT_GE(v, 0.0f);
        ASSERT_LE(v, 1.0f);
    }
}

// Errors name the image and the numbers, and nothing is recorded.
TEST_F(VulkanTest, UpscalerRecordErrorsNameTheImageAndTheNumbers) {
    Rig rig(ctx(), effects::UpscalerMode::Taau, kDisplay, kRender);
    auto expectError = [&](effects::UpscalerInputs in, const std::string& text) {
        fxtest::run(ctx(), [&](VkCommandBuffer cmd) {
            effects::Status s = rig.upscaler->record(cmd, in);
            ASSERT_FALSE(s) << text;
            EXPECT_EQ(s.error().code, effects::ErrorCode::InvalidArgument);
            EXPECT_NE(s.error().message.find(text), std::string::npos) << s.error().message;
        });
    };
    effects::UpscalerInputs in = rig.inputs(kRender, {}, true);
    in.renderSize = {40, 30};
    expectError(in, "the render size 40x30 exceeds the maximum render size 24x16 given at creation");
    in = rig.inputs(kRender, {}, true);
    in.motion = {};
    expectError(in, "the motion vectors are missing");
    in = rig.inputs(kRender, {}, true);
    in.depth = {};
    expectError(in, "the depth image is missing");
    in = rig.inputs(kRender, {}, true);
    in.color.extent = {16, 8};
    expectError(in, "the color image is 16x8, smaller than this frame's render size 24x16");
    in = rig.inputs(kRender, {}, true);
    in.output.format = VK_FORMAT_R16G16B16A16_SFLOAT;
    expectError(in, "the output image's format R16G16B16A16_SFLOAT differs from the outputFormat R32G32B32A32_SFLOAT");
    in = rig.inputs(kRender, {}, true);
    in.output.extent = {47, 32};
    expectError(in, "the output image is 47x32, but the display size is 48x32");
    in = rig.inputs(kRender, {}, true);
    in.motion.format = VK_FORMAT_R32_SFLOAT;
    expectError(in, "the motion image has the one-component format R32_SFLOAT");
    in = rig.inputs(kRender, {}, true);
    in.color.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    expectError(in, "the color image is in layout COLOR_ATTACHMENT_OPTIMAL");
    in = rig.inputs(kRender, {}, true);
    in.frameSlot = 2;
    expectError(in, "frameSlot 2 is out of range (created for 2 frames in flight)");
    in = rig.inputs(kRender, {}, true);
    in.jitterX = std::nanf("");
    expectError(in, "the jitter");
    in = rig.inputs(kRender, {}, true);
    in.cameraFar = 0.01f;
    expectError(in, "cameraFar 0.010000 must exceed cameraNear");
    // An sRGB view is decoded by the sampler: with UpscalerFlagColorSrgb it would be decoded twice.
    effects::UpscalerDesc srgb = rig.upscaler->desc();
    srgb.flags |= effects::UpscalerFlagColorSrgb;
    in = rig.inputs(kRender, {}, true);
    in.color.format = VK_FORMAT_B8G8R8A8_SRGB;
    effects::Status s = effects::validateUpscalerInputs(srgb, in);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("the color image has the sRGB format B8G8R8A8_SRGB, which the sampler already decodes to linear; "
                                     "with UpscalerFlagColorSrgb its values would be decoded twice"),
              std::string::npos)
        << s.error().message;
    EXPECT_TRUE(effects::validateUpscalerInputs(rig.upscaler->desc(), in));  // linear values: fine
}

TEST_F(VulkanTest, UpscalerCreateErrorsNameTheField) {
    effects::UpscalerDesc d;
    d.device = fxtest::effectDevice(ctx());
    d.maxRenderSize = kRender;
    d.displaySize = kDisplay;
    auto expectError = [&](effects::UpscalerDesc desc, effects::ErrorCode code, const std::string& text) {
        auto r = effects::Upscaler::create(desc);
        ASSERT_FALSE(r) << text;
        EXPECT_EQ(r.error().code, code) << r.error().message;
        EXPECT_NE(r.error().message.find(text), std::string::npos) << r.error().message;
    };
    effects::UpscalerDesc e = d;
    e.maxRenderSize = {64, 16};
    expectError(e, effects::ErrorCode::InvalidArgument, "maxRenderSize 64x16 exceeds the display size 48x32");
    e = d;
    e.displaySize = {0, 32};
    expectError(e, effects::ErrorCode::InvalidArgument, "displaySize 0x32 is out of range");
    e = d;
    e.outputFormat = VK_FORMAT_R8G8B8A8_SRGB;
    expectError(e, effects::ErrorCode::InvalidArgument, "outputFormat R8G8B8A8_SRGB is not supported");
    e = d;
    e.mode = effects::UpscalerMode::MlTemporal;
    expectError(e, effects::ErrorCode::InvalidArgument, "mode ml-temporal needs a model");
    e.modelPath = "/nonexistent/temporal.onnx";
    expectError(e, effects::ErrorCode::IoError, "cannot open the model file '/nonexistent/temporal.onnx'");
    e.modelPath = "/dev/zero";  // refused before it is read: it would never end
    expectError(e, effects::ErrorCode::IoError, "upscaler (ml-temporal): the model file '/dev/zero' is not a regular file");
    std::vector<uint8_t> junk(300, 0x5a);
    e.modelPath.clear();
    e.modelBytes = junk;
    expectError(e, effects::ErrorCode::InvalidModel, "upscaler (ml-temporal)");
    e = d;
    e.modelPath = "x.onnx";
    expectError(e, effects::ErrorCode::InvalidArgument, "a model is given, but mode taau uses none");
    e = d;
    e.sharpness = 2.0f;
    expectError(e, effects::ErrorCode::InvalidArgument, "sharpness 2.000000 is out of range [0, 1]");
    e = d;
    e.framesInFlight = 0;
    expectError(e, effects::ErrorCode::InvalidArgument, "framesInFlight 0 is out of range [1, 8]");
    // A model of the wrong contract: the single-frame upscaler is not a temporal model.
    e = d;
    e.mode = effects::UpscalerMode::MlTemporal;
    std::vector<uint8_t> singleFrame = readFile(VKML_TEST_DATA_DIR "/onnx/bridge_upscaler_x2.onnx");
    ASSERT_FALSE(singleFrame.empty());
    e.modelBytes = singleFrame;
    expectError(e, effects::ErrorCode::InvalidModel, "tried unshuffle factors 4, 2 and 1");
}

// This frame's samples at output pixel (x, y) weighted by the narrow kernel, computed on the CPU
// as the resolve does (the current samples' 3x3 neighbourhood, kernel exp(-4 d^2) in display
// pixels): the weighted sum of the colours and the sum of the weights.
struct NarrowSum {
    std::array<double, 3> colour{};
    double weight = 0;
};
NarrowSum narrowSum(const fxtest::FrameInputs& f, VkExtent2D render, VkExtent2D display, Vec2 j, uint32_t x, uint32_t y) {
    const double rx = double(render.width) / display.width, ry = double(render.height) / display.height;
    const double px = (x + 0.5) * rx, py = (y + 0.5) * ry;
    const int cx = std::clamp(int(std::floor(px + j.x)), 0, int(render.width) - 1), cy = std::clamp(int(std::floor(py + j.y)), 0, int(render.height) - 1);
    std::array<double, 3> sum{};
    double wsum = 0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            int qx = std::clamp(cx + dx, 0, int(render.width) - 1), qy = std::clamp(cy + dy, 0, int(render.height) - 1);
            double ox = (cx + dx + 0.5 - j.x - px) / rx, oy = (cy + dy + 0.5 - j.y - py) / ry;
            double w = std::exp(-4.0 * (ox * ox + oy * oy));
            for (int c = 0; c < 3; ++c) sum[c] += w * f.color[(size_t(qy) * render.width + qx) * 4 + c];
            wsum += w;
        }
    return {sum, wsum};
}

// The narrow-kernel estimate: the weighted mean of narrowSum.
std::array<double, 3> narrowEstimate(const fxtest::FrameInputs& f, VkExtent2D render, VkExtent2D display, Vec2 j, uint32_t x, uint32_t y) {
    NarrowSum n = narrowSum(f, render, display, j, x, y);
    for (double& v : n.colour) v /= n.weight;
    return n.colour;
}

// The temporal ML path with a model of known behaviour (tests/effects/make_temporal_test_models.py):
// constant parameters "take the current narrow estimate", so the first frame equals TAAU's
// narrow-kernel estimate computed on the CPU, through the fp16/fp32 feature and parameter tensors.
// Three geometries: 2x, an awkward ratio and size (non-integer sample positions and kernel
// scales, partial 8x8 blocks at the right and bottom edges), and 1x (the widest block of render
// samples the feature pass stages in shared memory: 10 x 10).
TEST_F(VulkanTest, UpscalerMlTemporalRunsTheNetworkBetweenItsPasses) {
    std::vector<uint8_t> model = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_take_current.onnx");
    ASSERT_FALSE(model.empty());
    const std::pair<VkExtent2D, VkExtent2D> geometries[] = {{kDisplay, kRender}, {{53, 35}, {37, 29}}, {{37, 29}, {37, 29}}};
    // The network recorded every frame (any command buffer) and executed as a bundle (primaries).
    for (bool bundle : {false, true})
    for (const auto& [display, render] : geometries) {
        SCOPED_TRACE(std::to_string(render.width) + "x" + std::to_string(render.height) + " -> " + std::to_string(display.width) + "x" +
                     std::to_string(display.height) + (bundle ? ", bundle" : ", recorded"));
        Rig rig(ctx(), effects::UpscalerMode::MlTemporal, display, render, model, 0.0f, bundle);
        Vec2 j = halton(3, render, display);
        std::vector<float> out = rig.frame(render, j, {0, 0}, {0, 0}, true);
        fxtest::FrameInputs f = fxtest::renderFrame(render.width, render.height, float(render.width) / float(display.width), j, {0, 0}, {0, 0});
        double worst = 0;
        for (uint32_t y = 0; y < display.height; ++y)
            for (uint32_t x = 0; x < display.width; ++x) {
                std::array<double, 3> expected = narrowEstimate(f, render, display, j, x, y);
                for (int c = 0; c < 3; ++c) worst = std::max(worst, std::fabs(expected[c] - out[(size_t(y) * display.width + x) * 4 + c]));
            }
        EXPECT_LT(worst, rig.upscaler->usesFp16() ? 4e-3 : 1e-4);
        for (uint32_t i = 4; i < 8; ++i) ASSERT_TRUE(allFinite(rig.frame(render, halton(i, render, display), {0, 0}, {0, 0}, false)));
    }
}

std::vector<uint8_t> withMetadata(std::vector<uint8_t> model, const std::string& key, const std::string& value);

// The accumulating resolve (the model's "vkml.history_weight_cap"): a model of constant
// parameters that trusts its history fully (trust 1, the unclipped history, the narrow estimate,
// gain 1, no residual) on a still camera averages every sample so far, each weighted by the narrow
// kernel, until the accumulated weight reaches the cap; from then on the history counts as cap.
// The blend resolve with the same parameters would keep the first frame for ever. At the edges a
// sample whose previous position (moved by the change of jitter) lies outside the previous frame
// has no history (upscaler_current.glsl, historyConfidence), and the pixel starts again from its
// current samples.
TEST_F(VulkanTest, UpscalerMlTemporalAccumulatesUpToTheModelsHistoryWeightCap) {
    const std::vector<uint8_t> trusting = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_accumulate.onnx");
    ASSERT_FALSE(trusting.empty());
    constexpr double kEpsilon = 1e-4;  // ML_ACCUMULATE_EPSILON
    // A moving pixels' cap ("vkml.moving_history_weight") changes nothing here: nothing moves.
    for (auto [cap, moving] : {std::pair<double, const char*>{16.0, nullptr}, {0.6, nullptr}, {16.0, "0.5"}}) {
        SCOPED_TRACE("cap " + std::to_string(cap) + (moving ? std::string(", moving pixels ") + moving : std::string()));
        std::vector<uint8_t> model = withMetadata(trusting, "vkml.history_weight_cap", std::to_string(cap));
        if (moving) model = withMetadata(model, "vkml.moving_history_weight", moving);
        Rig rig(ctx(), effects::UpscalerMode::MlTemporal, kDisplay, kRender, model);
        const size_t pixels = size_t(kDisplay.width) * kDisplay.height;
        std::vector<std::array<double, 3>> colour(pixels);
        std::vector<double> weight(pixels, 0.0);
        double worst = 0;
        Vec2 previousJitter{0, 0};
        for (uint32_t t = 0; t < 5; ++t) {
            Vec2 j = halton(t, kRender, kDisplay);
            // Whether the sample nearest display pixel (x, y) was inside the previous frame.
            auto hadHistory = [&](uint32_t x, uint32_t y) {
                const double rx = double(kRender.width) / kDisplay.width, ry = double(kRender.height) / kDisplay.height;
                const int cx = std::clamp(int(std::floor((x + 0.5) * rx + j.x)), 0, int(kRender.width) - 1);
                const int cy = std::clamp(int(std::floor((y + 0.5) * ry + j.y)), 0, int(kRender.height) - 1);
                const double px = cx + 0.5 - j.x + previousJitter.x, py = cy + 0.5 - j.y + previousJitter.y;
                return px >= 0 && py >= 0 && px < kRender.width && py < kRender.height;
            };
            std::vector<float> out = rig.frame(kRender, j, {0, 0}, {0, 0}, t == 0);
            fxtest::FrameInputs f = fxtest::renderFrame(kRender.width, kRender.height, float(kRender.width) / float(kDisplay.width), j, {0, 0}, {0, 0});
            for (uint32_t y = 0; y < kDisplay.height; ++y)
                for (uint32_t x = 0; x < kDisplay.width; ++x) {
                    const size_t i = size_t(y) * kDisplay.width + x;
                    NarrowSum n = narrowSum(f, kRender, kDisplay, j, x, y);
                    if (!hadHistory(x, y)) weight[i] = 0;
                    const double alpha = (n.weight + kEpsilon) / (weight[i] + n.weight + kEpsilon);
                    for (int c = 0; c < 3; ++c) {
                        colour[i][c] += (n.colour[c] / n.weight - colour[i][c]) * alpha;
                        worst = std::max(worst, std::fabs(colour[i][c] - out[i * 4 + c]));
                    }
                    weight[i] = std::min(weight[i] + n.weight, cap);
                }
            previousJitter = j;
        }
        EXPECT_LT(worst, rig.upscaler->usesFp16() ? 4e-3 : 2e-3);
    }
}

// A model's moving pixels' cap ("vkml.moving_history_weight") in the scene of
// UpscalerTaauKeepsUpWithShadingTheMotionDoesNotDescribe: the trusting model above with a history
// weight cap of 16 lags behind the shading as TAAU did without its moving cap; with a moving cap
// of 0.5 it keeps up (lavapipe: 14.8 dB without, 23.7 with).
TEST_F(VulkanTest, UpscalerMlTemporalMovingCapKeepsUpWithShadingTheMotionDoesNotDescribe) {
    const std::vector<uint8_t> trusting = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_accumulate.onnx");
    ASSERT_FALSE(trusting.empty());
    const std::vector<uint8_t> model = withMetadata(trusting, "vkml.history_weight_cap", "16");
    double quality[2];
    for (int capped = 0; capped < 2; ++capped) {
        Rig rig(ctx(), effects::UpscalerMode::MlTemporal, kDisplay, kRender, capped ? withMetadata(model, "vkml.moving_history_weight", "0.5") : model);
        quality[capped] = qualityWithShadingTheMotionDoesNotDescribe(rig);
    }
    EXPECT_GT(quality[1], 21.0) << "with the moving cap, after 24 frames";
    EXPECT_GT(quality[1], quality[0] + 4.0) << "the moving cap must keep the history from lagging (without it: " << quality[0] << " dB)";
}

// `model` with one more metadata_props entry: a ModelProto field appended to the serialized
// message is merged by any protobuf parser, so the test needs no protobuf library.
std::vector<uint8_t> withMetadata(std::vector<uint8_t> model, const std::string& key, const std::string& value) {
    auto varint = [](std::vector<uint8_t>& out, size_t v) {
        for (; v >= 0x80; v >>= 7) out.push_back(uint8_t(v | 0x80));
        out.push_back(uint8_t(v));
    };
    std::vector<uint8_t> entry;
    for (const auto& [field, text] : {std::pair<uint8_t, const std::string*>{1, &key}, {2, &value}}) {
        entry.push_back(uint8_t(field << 3 | 2));  // length-delimited
        varint(entry, text->size());
        entry.insert(entry.end(), text->begin(), text->end());
    }
    model.push_back(14 << 3 | 2);  // ModelProto.metadata_props
    varint(model, entry.size());
    model.insert(model.end(), entry.begin(), entry.end());
    return model;
}

// The ratio feature (render / display width) is clamped to the model's "vkml.ratio_feature_max":
// the probe network adds kRatioProbeGain x the feature to the current narrow estimate, so the
// first frame shows the value the feature pass wrote. At 1x a model trained up to 1.5x sees 2/3
// with the metadata and 1 without; at 2x the clamp does not bite.
constexpr double kRatioProbeGain = 2.0;  // make_temporal_test_models.py's RATIO_GAIN

TEST_F(VulkanTest, UpscalerMlTemporalClampsTheRatioFeatureToTheModelsMetadata) {
    const std::vector<uint8_t> probe = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_ratio_probe.onnx");
    ASSERT_FALSE(probe.empty());
    const std::string twoThirds = "0.6666667";
    struct Case {
        VkExtent2D display, render;
        std::string metadata;  // empty: none
        double feature;        // what the feature pass must write
    };
    const Case cases[] = {{{37, 29}, {37, 29}, "", 1.0},
                          {{37, 29}, {37, 29}, twoThirds, 2.0 / 3.0},
                          {kDisplay, kRender, twoThirds, 0.5},
                          {{36, 30}, {24, 20}, twoThirds, 2.0 / 3.0}};
    for (const Case& c : cases) {
        SCOPED_TRACE(std::to_string(c.render.width) + " -> " + std::to_string(c.display.width) + ", metadata '" + c.metadata + "'");
        Rig rig(ctx(), effects::UpscalerMode::MlTemporal, c.display, c.render,
                c.metadata.empty() ? probe : withMetadata(probe, "vkml.ratio_feature_max", c.metadata));
        Vec2 j = halton(3, c.render, c.display);
        std::vector<float> out = rig.frame(c.render, j, {0, 0}, {0, 0}, true);
        fxtest::FrameInputs f = fxtest::renderFrame(c.render.width, c.render.height, float(c.render.width) / float(c.display.width), j, {0, 0}, {0, 0});
        const double residual = 0.25 * std::tanh(kRatioProbeGain * c.feature);
        double worst = 0;
        for (uint32_t y = 0; y < c.display.height; ++y)
            for (uint32_t x = 0; x < c.display.width; ++x) {
                std::array<double, 3> narrow = narrowEstimate(f, c.render, c.display, j, x, y);
                for (int k = 0; k < 3; ++k) {
                    double expected = std::clamp(narrow[k] + residual, 0.0, 1.0);
                    worst = std::max(worst, std::fabs(expected - out[(size_t(y) * c.display.width + x) * 4 + k]));
                }
            }
        // The clamp moves the residual by 0.05 at 1x (tanh(2) vs tanh(4/3)); fp16 rounding is below 0.004.
        EXPECT_LT(worst, rig.upscaler->usesFp16() ? 4e-3 : 1e-4);
    }
}

// The history-validity feature (the depth test's confidence) is 1 at every output pixel of a
// static camera's second frame: the depth test compares this frame's linear depth with the
// previous frame's, which the display pass writes for every render pixel, each by exactly one
// invocation (ownedRenderPixel in upscaler_current.glsl). A render pixel left unwritten, or
// written with another pixel's depth, fails the test at the output pixels it covers. The probe
// network adds kValidityProbeGain x the feature to the current estimate; the sizes cover 1x, 1.5x,
// 2x, 3x and ratios that are none of them, with widths that are not multiples of the workgroup.
constexpr double kValidityProbeGain = 2.0;  // make_temporal_test_models.py's VALIDITY_GAIN

TEST_F(VulkanTest, UpscalerMlTemporalDepthTestTrustsEveryPixelOfAStaticCamera) {
    const std::vector<uint8_t> probe = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_validity_probe.onnx");
    ASSERT_FALSE(probe.empty());
    const std::pair<VkExtent2D, VkExtent2D> cases[] = {{{37, 29}, {37, 29}}, {{61, 37}, {41, 25}}, {kDisplay, kRender},
                                                       {{45, 27}, {15, 9}},  {{83, 50}, {37, 23}}, {{64, 48}, {48, 36}}};
    for (const auto& [display, render] : cases) {
        SCOPED_TRACE(std::to_string(render.width) + "x" + std::to_string(render.height) + " -> " + std::to_string(display.width) + "x" +
                     std::to_string(display.height));
        Rig rig(ctx(), effects::UpscalerMode::MlTemporal, display, render, probe);
        const Vec2 j = halton(3, render, display);
        std::vector<float> first = rig.frame(render, j, {0, 0}, {0, 0}, true);
        std::vector<float> second = rig.frame(render, j, {0, 0}, {0, 0}, false);
        // The reset frame has no valid history, so no residual: it is the current estimate. The
        // second frame takes the same estimate (same inputs) plus the residual of validity 1.
        const double residual = 0.25 * std::tanh(kValidityProbeGain);
        double worst = 0;
        uint32_t distrusted = 0;
        for (uint32_t y = 0; y < display.height; ++y)
            for (uint32_t x = 0; x < display.width; ++x) {
                bool wrong = false;
                for (int k = 0; k < 3; ++k) {
                    const size_t at = (size_t(y) * display.width + x) * 4 + k;
                    const double error = std::fabs(std::clamp(first[at] + residual, 0.0, 1.0) - second[at]);
                    worst = std::max(worst, error);
                    wrong = wrong || error > 0.01;
                }
                distrusted += wrong;
            }
        EXPECT_LT(worst, rig.upscaler->usesFp16() ? 4e-3 : 1e-4) << distrusted << " of " << display.width * display.height << " pixels distrusted their history";
    }
}

// StepCallbacks: `begin` and `end` around each step, in recording order, with the command buffer
// record() was given; every begin has its end. Without callbacks nothing is called.
struct StepLog {
    std::vector<std::string> events;
    std::vector<VkCommandBuffer> buffers;
    static effects::StepCallbacks callbacks(StepLog& log) {
        return {.begin = [](void* user, VkCommandBuffer cmd, const char* step) {
                    auto& l = *static_cast<StepLog*>(user);
                    l.events.push_back(std::string("begin ") + step);
                    l.buffers.push_back(cmd);
                },
                .end = [](void* user, VkCommandBuffer cmd) {
                    auto& l = *static_cast<StepLog*>(user);
                    l.events.push_back("end");
                    l.buffers.push_back(cmd);
                },
                .user = &log};
    }
};

TEST_F(VulkanTest, UpscalerCallsTheStepCallbacksAroundEachStep) {
    const std::vector<uint8_t> temporal = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_take_current.onnx");
    const std::vector<uint8_t> singleFrame = readFile(VKML_TEST_DATA_DIR "/onnx/bridge_upscaler_x2.onnx");
    ASSERT_FALSE(temporal.empty());
    ASSERT_FALSE(singleFrame.empty());
    using Steps = std::vector<std::string>;
    struct Case {
        effects::UpscalerMode mode;
        const std::vector<uint8_t>* model;
        float sharpness;
        Steps expected;
    };
    const std::vector<uint8_t> none;
    const Case cases[] = {
        {effects::UpscalerMode::Taau, &none, 0.0f, {"begin taau_resolve", "end"}},
        {effects::UpscalerMode::Taau, &none, 0.5f, {"begin taau_resolve", "end", "begin sharpen", "end"}},
        {effects::UpscalerMode::MlTemporal, &temporal, 0.0f, {"begin ml_features", "end", "begin network", "end", "begin ml_resolve", "end"}},
        {effects::UpscalerMode::MlSingleFrame, &singleFrame, 0.0f, {"begin to_tensor", "end", "begin network", "end", "begin to_image", "end"}}};
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(effects::toString(c.mode)) + ", sharpness " + std::to_string(c.sharpness));
        Rig rig(ctx(), c.mode, kDisplay, kRender, *c.model, c.sharpness);
        rig.frame(kRender, {0, 0}, {0, 0}, {0, 0}, true);  // no callbacks: nothing to call
        StepLog log;
        rig.steps = StepLog::callbacks(log);
        rig.frame(kRender, {0, 0}, {0, 0}, {0, 0}, false);
        EXPECT_EQ(log.events, c.expected);
        ASSERT_FALSE(log.buffers.empty());
        for (VkCommandBuffer cmd : log.buffers) EXPECT_EQ(cmd, log.buffers.front()) << "every call gets the command buffer being recorded";
        EXPECT_NE(log.buffers.front(), VkCommandBuffer(VK_NULL_HANDLE));
        log.events.clear();
        rig.steps.end = nullptr;  // either callback may be left out
        rig.frame(kRender, {0, 0}, {0, 0}, {0, 0}, false);
        Steps begins;
        for (const std::string& e : c.expected)
            if (e != "end") begins.push_back(e);
        EXPECT_EQ(log.events, begins);
    }
}

// An ML-temporal upscaler created from the ratio probe with one more metadata entry.
effects::Result<std::unique_ptr<effects::Upscaler>> createWithMetadata(engine::Context& ctx, const std::vector<uint8_t>& probe,
                                                                       const std::string& key, const std::string& value) {
    const std::vector<uint8_t> model = withMetadata(probe, key, value);
    effects::UpscalerDesc d;
    d.device = fxtest::effectDevice(ctx);
    d.maxRenderSize = kRender;
    d.displaySize = kDisplay;
    d.mode = effects::UpscalerMode::MlTemporal;
    d.modelBytes = model;
    return effects::Upscaler::create(d);
}

// A "vkml.ratio_feature_max", "vkml.history_weight_cap" or "vkml.moving_history_weight" that is
// not a positive number is refused when the effect is created, naming the key and the value.
TEST_F(VulkanTest, UpscalerMlTemporalRefusesBadMetadataNumbers) {
    const std::vector<uint8_t> probe = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_ratio_probe.onnx");
    ASSERT_FALSE(probe.empty());
    for (const char* key : {"vkml.ratio_feature_max", "vkml.history_weight_cap", "vkml.moving_history_weight"})
    for (const char* value : {"", "abc", "0", "-0.5", "nan", "inf", "0.5x", " 0.5", "1e39"}) {
        SCOPED_TRACE(std::string(key) + " = '" + value + "'");
        auto r = createWithMetadata(ctx(), probe, key, value);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, effects::ErrorCode::InvalidModel);
        EXPECT_NE(r.error().message.find("metadata '" + std::string(key) + "' is '" + value + "'"), std::string::npos) << r.error().message;
    }
}

// A moving pixels' cap ("vkml.moving_history_weight") caps the accumulating resolve's history
// weight, so a model that names it without a "vkml.history_weight_cap", or above that cap, is
// refused, naming both keys; at the cap it is accepted (moving pixels then keep what still ones do).
TEST_F(VulkanTest, UpscalerMlTemporalRefusesAMovingCapWithoutItsResolve) {
    const std::vector<uint8_t> probe = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_ratio_probe.onnx");
    ASSERT_FALSE(probe.empty());
    auto r = createWithMetadata(ctx(), probe, "vkml.moving_history_weight", "0.5");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, effects::ErrorCode::InvalidModel);
    EXPECT_NE(r.error().message.find("'vkml.moving_history_weight' is '0.5', but it names no 'vkml.history_weight_cap'"), std::string::npos)
        << r.error().message;
    const std::vector<uint8_t> capped = withMetadata(probe, "vkml.history_weight_cap", "4");
    r = createWithMetadata(ctx(), capped, "vkml.moving_history_weight", "4.5");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, effects::ErrorCode::InvalidModel);
    EXPECT_NE(r.error().message.find("'vkml.moving_history_weight' is '4.5', above its 'vkml.history_weight_cap' '4'"), std::string::npos)
        << r.error().message;
    EXPECT_TRUE(createWithMetadata(ctx(), capped, "vkml.moving_history_weight", "4"));
}

// "vkml.history_taps" names the feature pass's history fetch: "9" or "5". Anything else is refused
// when the effect is created, naming the key and the value; both valid values create.
TEST_F(VulkanTest, UpscalerMlTemporalRefusesHistoryTapsOtherThanNineOrFive) {
    const std::vector<uint8_t> probe = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_ratio_probe.onnx");
    ASSERT_FALSE(probe.empty());
    for (const char* value : {"", "7", "4", "0", "-5", "5.0", " 5", "9x", "abc"}) {
        SCOPED_TRACE(std::string("'") + value + "'");
        auto r = createWithMetadata(ctx(), probe, "vkml.history_taps", value);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, effects::ErrorCode::InvalidModel);
        EXPECT_NE(r.error().message.find("metadata 'vkml.history_taps' is '" + std::string(value) + "'; expected 9 or 5"), std::string::npos)
            << r.error().message;
    }
    for (const char* value : {"9", "5"}) {
        auto r = createWithMetadata(ctx(), probe, "vkml.history_taps", value);
        EXPECT_TRUE(r) << value << ": " << (r ? "" : r.error().message);
    }
}

// Every output format, through each shader that writes the output (the TAAU resolve, the
// sharpening pass, the ML resolve, the single-frame network's store): the same frames as
// R32G32B32A32_SFLOAT within the format's own precision (fxtest::outputFormats). A swapped
// channel, a wrong packing or a missing clamp fails by far. Formats this device cannot write
// as storage images must be refused with ErrorCode::Unsupported.
TEST_F(VulkanTest, UpscalerWritesEveryOutputFormat) {
    struct Path {
        effects::UpscalerMode mode;
        float sharpness;
        const char* name;
        std::vector<uint8_t> model;
        VkExtent2D display, render;
    };
    const std::vector<uint8_t> temporal = readFile(VKML_TEST_DATA_DIR "/onnx/temporal_take_current.onnx");
    const std::vector<uint8_t> singleFrame = readFile(VKML_TEST_DATA_DIR "/onnx/bridge_upscaler_x2.onnx");
    ASSERT_FALSE(temporal.empty());
    ASSERT_FALSE(singleFrame.empty());
    const Path paths[] = {{effects::UpscalerMode::Taau, 0.0f, "TAAU resolve", {}, {45, 27}, {23, 14}},
                          {effects::UpscalerMode::Taau, 0.5f, "sharpening", {}, {45, 27}, {23, 14}},
                          {effects::UpscalerMode::MlTemporal, 0.0f, "ML resolve", temporal, {45, 27}, {23, 14}},
                          {effects::UpscalerMode::MlSingleFrame, 0.0f, "single-frame network", singleFrame, {46, 28}, {23, 14}}};
    auto run = [&](const Path& path, VkFormat format) {
        Rig rig(ctx(), path.mode, path.display, path.render, path.model, path.sharpness, true, true, format);
        std::vector<float> out;
        for (uint32_t i = 0; i < 3; ++i)
            out = rig.frame(path.render, halton(i, path.render, path.display), {0.3f * i, 0}, {0.3f * (i ? i - 1 : 0), 0}, i == 0);
        return out;
    };
    for (const Path& path : paths) {
        const std::vector<float> reference = run(path, VK_FORMAT_R32G32B32A32_SFLOAT);
        for (const fxtest::OutputFormat& f : fxtest::outputFormats()) {
            SCOPED_TRACE(std::string(path.name) + ", " + f.name);
            if (!fxtest::storageCapable(ctx(), f.format)) {
                effects::UpscalerDesc d;
                d.device = fxtest::effectDevice(ctx());
                d.maxRenderSize = path.render;
                d.displaySize = path.display;
                d.outputFormat = f.format;
                auto refused = effects::Upscaler::create(d);
                ASSERT_FALSE(refused);
                EXPECT_EQ(refused.error().code, effects::ErrorCode::Unsupported);
                EXPECT_NE(refused.error().message.find(std::string(f.name) + " cannot be a storage image on this device"), std::string::npos)
                    << refused.error().message;
                continue;
            }
            EXPECT_LE(fxtest::worstRoundingUnits(f, reference, run(path, f.format)), 1.0) << "worst error, in units of the format's rounding bound";
        }
    }
}

// The single-frame network through the effect against the CPU reference of its graph, in fp32
// and fp16: the frame's region sRGB-encoded into the network's input at the maximum render size
// (edges repeated), and the output's valid region (scale x this frame's render size) taken as is
// when it fills the display, else resampled bilinearly to it. Both store paths run: the full
// render size, and a smaller one that leaves the input's edge repeated and the output resampled.
TEST_F(VulkanTest, UpscalerMlSingleFrameMatchesTheReferenceOfItsNetwork) {
    const char* path = VKML_TEST_DATA_DIR "/onnx/bridge_upscaler_x2.onnx";
    const VkExtent2D maxRender{23, 14}, display{46, 28};
    const uint32_t scale = 2, tw = maxRender.width, th = maxRender.height, ow = scale * tw, oh = scale * th;
    std::mt19937 rng(17);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<float> color(size_t(tw) * th * 4);
    for (size_t i = 0; i < color.size(); ++i) color[i] = i % 4 == 3 ? 1.0f : u(rng) * u(rng);
    mlplugin::OnnxLoadOptions options;
    options.inputShapes = {{"color", {1, 3, th, tw}}};
    auto model = mlplugin::loadOnnxFile(path, options);
    ASSERT_TRUE(model) << model.error().message;

    for (bool fp16 : {false, true}) {
        Rig rig(ctx(), effects::UpscalerMode::MlSingleFrame, display, maxRender, readFile(path), 0.0f, true, fp16);
        rig.color->fill(color);
        for (VkExtent2D render : {maxRender, VkExtent2D{17, 11}}) {
            SCOPED_TRACE(std::string(fp16 ? "fp16" : "fp32") + ", render size " + std::to_string(render.width) + "x" +
                         std::to_string(render.height));
            effects::UpscalerInputs in = rig.inputs(render, {0, 0}, true);
            fxtest::run(ctx(), [&](VkCommandBuffer cmd) { Rig::check(rig.upscaler->record(cmd, in)); });
            const std::vector<float> got = rig.output->read();

            std::vector<mlplugin::HostTensor> inputs(1);
            inputs[0].desc = model->graph.values[model->graph.inputs[0]].desc;
            inputs[0].data.resize(size_t(3) * tw * th);
            for (uint32_t y = 0; y < th; ++y)
                for (uint32_t x = 0; x < tw; ++x)
                    for (uint32_t c = 0; c < 3; ++c)
                        inputs[0].data[(size_t(c) * th + y) * tw + x] =
                            fxtest::srgbEncode(color[(size_t(std::min(y, render.height - 1)) * tw + std::min(x, render.width - 1)) * 4 + c]);
            auto reference = mlplugin::referenceEvaluateGraph(model->graph, inputs);
            ASSERT_TRUE(reference) << reference.error().message;
            const std::vector<double>& r = (*reference)[0].data;
            ASSERT_EQ(r.size(), size_t(3) * ow * oh);
            const int validW = int(scale * render.width), validH = int(scale * render.height);
            auto texel = [&](int x, int y, uint32_t c) {
                x = std::clamp(x, 0, validW - 1);
                y = std::clamp(y, 0, validH - 1);
                return std::clamp(r[(size_t(c) * oh + y) * ow + x], 0.0, 1.0);
            };
            double worst = 0;
            for (uint32_t y = 0; y < display.height; ++y)
                for (uint32_t x = 0; x < display.width; ++x) {
                    const double px = (x + 0.5) * validW / display.width - 0.5, py = (y + 0.5) * validH / display.height - 0.5;
                    const int bx = int(std::floor(px)), by = int(std::floor(py));
                    const double fx = px - bx, fy = py - by;
                    for (uint32_t c = 0; c < 3; ++c) {
                        const double top = texel(bx, by, c) * (1 - fx) + texel(bx + 1, by, c) * fx;
                        const double bottom = texel(bx, by + 1, c) * (1 - fx) + texel(bx + 1, by + 1, c) * fx;
                        const double expect = fxtest::srgbDecode(float(top * (1 - fy) + bottom * fy));
                        worst = std::max(worst, std::fabs(expect - got[(size_t(y) * display.width + x) * 4 + c]));
                    }
                }
            EXPECT_EQ(rig.upscaler->usesFp16(), fp16 && ctx().features().shaderFloat16 && ctx().features().storageBuffer16BitAccess);
            EXPECT_LT(worst, rig.upscaler->usesFp16() ? 2e-2 : 1e-4);
        }
    }
}

// The shipped networks (unshuffle 2) and small random ones at unshuffle 1, 2 and 4, in fp32
// (channels-first tensors) and fp16 (channels-last and, where the model allows, pixel-major: the
// features, the network and the parameters all change layout together) over a moving sequence:
// the same frames within fp16 precision. A layout mismatch anywhere scrambles features or
// parameters across pixels and channels and fails by far. 45x27 leaves partial workgroups.
TEST_F(VulkanTest, UpscalerMlTemporalFp16ChannelsLastMatchesFp32) {
    const std::pair<std::string, std::pair<VkExtent2D, VkExtent2D>> cases[] = {
        {VKML_ASSETS_DIR "/upscaler_temporal.onnx", {{61, 37}, {31, 19}}},
        {VKML_ASSETS_DIR "/upscaler_temporal_fast.onnx", {{61, 37}, {31, 19}}},  // the 5-tap feature pass
        {VKML_TEST_DATA_DIR "/onnx/temporal_r1.onnx", {{45, 27}, {23, 14}}},
        {VKML_TEST_DATA_DIR "/onnx/temporal_r4.onnx", {{45, 27}, {23, 14}}},
        {VKML_TEST_DATA_DIR "/onnx/temporal_r4.onnx", {{61, 37}, {31, 19}}},
        // Its output written by a Mul: the tensors keep the model's channel order (the others are
        // stored pixel-major, the order folded into their first and last convolutions).
        {VKML_TEST_DATA_DIR "/onnx/temporal_r2_scaled_output.onnx", {{61, 37}, {31, 19}}}};
    for (const auto& [path, sizes] : cases) {
        const auto [display, render] = sizes;
        SCOPED_TRACE(path + " at " + std::to_string(display.width) + "x" + std::to_string(display.height));
        std::vector<uint8_t> model = readFile(path);
        ASSERT_FALSE(model.empty());
        Rig fp32(ctx(), effects::UpscalerMode::MlTemporal, display, render, model, 0.0f, true, false);
        Rig fp16(ctx(), effects::UpscalerMode::MlTemporal, display, render, model, 0.0f, true, true);
        ASSERT_FALSE(fp32.upscaler->usesFp16());
        // Tensor cores for fp16 exactly where the device has them enabled (the harness passes the
        // context's features); the tensor-core kernels are fp16 only.
        EXPECT_FALSE(fp32.upscaler->usesTensorCores());
        EXPECT_EQ(fp16.upscaler->usesTensorCores(), ctx().features().cooperativeMatrixNV);
        if (!fp16.upscaler->usesFp16()) GTEST_SKIP() << "the device has no fp16 arithmetic";
        for (uint32_t i = 0; i < 5; ++i) {
            SCOPED_TRACE("frame " + std::to_string(i));
            const Vec2 j = halton(i + 1, render, display), camera{0.4f * float(i), 0.25f * float(i)}, previous{0.4f * float(i) - 0.4f, 0.25f * float(i) - 0.25f};
            std::vector<float> a = fp32.frame(render, j, camera, i ? previous : camera, i == 0);
            std::vector<float> b = fp16.frame(render, j, camera, i ? previous : camera, i == 0);
            ASSERT_EQ(a.size(), b.size());
            double worst = 0, sum = 0;
            for (size_t k = 0; k < a.size(); ++k) {
                ASSERT_TRUE(std::isfinite(b[k]));
                worst = std::max(worst, double(std::fabs(a[k] - b[k])));
                sum += std::fabs(a[k] - b[k]);
            }
            EXPECT_LT(sum / double(a.size()), 2e-3);
            EXPECT_LT(worst, 3e-2);
        }
    }
}

}  // namespace
