// effects::Denoiser on lavapipe: the shipped denoiser network on application images, against the
// plugin's CPU reference of the same ONNX graph (double precision).
#include "effect_harness.h"
#include "vulkan_test.h"

#include "effects/denoiser.h"
#include "mlplugin/onnx.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace {

using fxtest::TestImage;
using testsupport::VulkanTest;

effects::DenoiserDesc desc(engine::Context& ctx, VkExtent2D maxSize) {
    effects::DenoiserDesc d;
    d.device = fxtest::effectDevice(ctx);
    d.maxSize = maxSize;
    d.outputFormat = VK_FORMAT_R32G32B32A32_SFLOAT;
    d.modelPath = VKML_ASSETS_DIR "/denoiser.onnx";
    return d;
}

TEST_F(VulkanTest, DenoiserMatchesTheReferenceOfItsNetwork) {
    const VkExtent2D maxSize{30, 22}, size{27, 19}, tensor{32, 24};  // tensor: maxSize rounded up to 8
    auto created = effects::Denoiser::create(desc(ctx(), maxSize));
    ASSERT_TRUE(created) << created.error().message;
    effects::Denoiser& dn = **created;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const size_t n = size_t(maxSize.width) * maxSize.height;
    std::vector<float> color(n * 4), albedo(n * 4), normal(n * 4), depth(n);
    for (size_t p = 0; p < n; ++p) {
        for (int c = 0; c < 3; ++c) {
            color[p * 4 + c] = u(rng) * u(rng);
            albedo[p * 4 + c] = u(rng);
            normal[p * 4 + c] = u(rng) * 2.0f - 1.0f;
        }
        color[p * 4 + 3] = albedo[p * 4 + 3] = normal[p * 4 + 3] = 1.0f;
        depth[p] = 0.9f + 0.1f * u(rng);
    }
    TestImage ci(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, maxSize, false), ai(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, maxSize, false),
        ni(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, maxSize, false), di(ctx(), VK_FORMAT_D32_SFLOAT, maxSize, false),
        out(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, maxSize, true);
    ci.fill(color);
    ai.fill(albedo);
    ni.fill(normal);
    di.fill(depth);
    effects::DenoiserInputs in{ci.input(), ai.input(), ni.input(), di.input(), out.input(), size, 0};
    std::vector<std::string> steps;  // StepCallbacks: begin and end around each step, in order
    in.steps = {.begin = [](void* log, VkCommandBuffer, const char* step) { static_cast<std::vector<std::string>*>(log)->push_back(step); },
                .end = [](void* log, VkCommandBuffer) { static_cast<std::vector<std::string>*>(log)->push_back("end"); },
                .user = &steps};
    fxtest::run(ctx(), [&](VkCommandBuffer cmd) {
        ASSERT_TRUE(dn.recordInitialization(cmd));
        effects::Status s = dn.record(cmd, in);
        ASSERT_TRUE(s) << s.error().message;
    });
    EXPECT_EQ(steps, (std::vector<std::string>{"to_tensor", "end", "network", "end", "to_image", "end"}));
    std::vector<float> got = out.read();

    // The reference: the same graph at the tensor size, fed what the effect feeds it (the frame's
    // region, edges repeated; colour sRGB-encoded), on the CPU.
    mlplugin::OnnxLoadOptions options;
    options.inputShapes = {{"color", {1, 3, tensor.height, tensor.width}}, {"albedo", {1, 3, tensor.height, tensor.width}},
                           {"normal", {1, 3, tensor.height, tensor.width}}, {"depth", {1, 1, tensor.height, tensor.width}}};
    auto model = mlplugin::loadOnnxFile(VKML_ASSETS_DIR "/denoiser.onnx", options);
    ASSERT_TRUE(model) << model.error().message;
    std::vector<mlplugin::HostTensor> inputs(4);
    const uint32_t channels[] = {3, 3, 3, 1};
    for (int k = 0; k < 4; ++k) {
        inputs[k].desc = model->graph.values[model->graph.inputs[k]].desc;
        inputs[k].data.resize(size_t(channels[k]) * tensor.width * tensor.height);
    }
    for (uint32_t y = 0; y < tensor.height; ++y)
        for (uint32_t x = 0; x < tensor.width; ++x) {
            size_t src = size_t(std::min(y, size.height - 1)) * maxSize.width + std::min(x, size.width - 1), plane = size_t(tensor.width) * tensor.height,
                   dst = size_t(y) * tensor.width + x;
            for (uint32_t c = 0; c < 3; ++c) {
                inputs[0].data[c * plane + dst] = fxtest::srgbEncode(color[src * 4 + c]);
                inputs[1].data[c * plane + dst] = albedo[src * 4 + c];
                inputs[2].data[c * plane + dst] = normal[src * 4 + c];
            }
            inputs[3].data[dst] = depth[src];
        }
    auto reference = mlplugin::referenceEvaluateGraph(model->graph, inputs);
    ASSERT_TRUE(reference) << reference.error().message;
    const std::vector<double>& r = (*reference)[0].data;
    double worst = 0;
    const size_t plane = size_t(tensor.width) * tensor.height;
    for (uint32_t y = 0; y < size.height; ++y)
        for (uint32_t x = 0; x < size.width; ++x)
            for (uint32_t c = 0; c < 3; ++c) {
                double expect = fxtest::srgbDecode(float(std::clamp(r[c * plane + size_t(y) * tensor.width + x], 0.0, 1.0)));
                worst = std::max(worst, std::fabs(expect - got[(size_t(y) * maxSize.width + x) * 4 + c]));
            }
    EXPECT_LT(worst, dn.usesFp16() ? 2e-2 : 1e-4);
    EXPECT_EQ(dn.usesTensorCores(), dn.usesFp16() && ctx().features().cooperativeMatrixNV);
}

// The output store in every output format: the R32G32B32A32_SFLOAT result within the format's
// own rounding (clamped to [0, 1] for the unorm formats, alpha 1 where the format has none).
TEST_F(VulkanTest, DenoiserWritesEveryOutputFormat) {
    const VkExtent2D size{19, 13};
    const size_t n = size_t(size.width) * size.height;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<float> color(n * 4), albedo(n * 4), normal(n * 4), depth(n);
    for (size_t p = 0; p < n; ++p) {
        for (int c = 0; c < 3; ++c) color[p * 4 + c] = 1.2f * u(rng), albedo[p * 4 + c] = u(rng), normal[p * 4 + c] = u(rng) * 2 - 1;
        color[p * 4 + 3] = albedo[p * 4 + 3] = normal[p * 4 + 3] = 1.0f;
        depth[p] = u(rng);
    }
    TestImage ci(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, size, false), ai(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, size, false),
        ni(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, size, false), di(ctx(), VK_FORMAT_D32_SFLOAT, size, false);
    ci.fill(color);
    ai.fill(albedo);
    ni.fill(normal);
    di.fill(depth);
    auto denoise = [&](VkFormat format) {
        effects::DenoiserDesc d = desc(ctx(), size);
        d.outputFormat = format;
        auto created = effects::Denoiser::create(d);
        if (!created) throw std::runtime_error(created.error().message);
        TestImage out(ctx(), format, size, true);
        effects::DenoiserInputs in{ci.input(), ai.input(), ni.input(), di.input(), out.input(), size, 0};
        fxtest::run(ctx(), [&](VkCommandBuffer cmd) {
            ASSERT_TRUE((*created)->recordInitialization(cmd));
            ASSERT_TRUE((*created)->record(cmd, in));
        });
        return out.read();
    };
    const std::vector<float> reference = denoise(VK_FORMAT_R32G32B32A32_SFLOAT);
    for (const fxtest::OutputFormat& f : fxtest::outputFormats()) {
        SCOPED_TRACE(f.name);
        if (!fxtest::storageCapable(ctx(), f.format)) {
            effects::DenoiserDesc d = desc(ctx(), size);
            d.outputFormat = f.format;
            auto refused = effects::Denoiser::create(d);
            ASSERT_FALSE(refused);
            EXPECT_EQ(refused.error().code, effects::ErrorCode::Unsupported);
            continue;
        }
        EXPECT_LE(fxtest::worstRoundingUnits(f, reference, denoise(f.format)), 1.0) << "worst error, in units of the format's rounding bound";
    }
}

TEST_F(VulkanTest, DenoiserErrorsNameTheImageAndTheNumbers) {
    auto created = effects::Denoiser::create(desc(ctx(), {16, 16}));
    ASSERT_TRUE(created) << created.error().message;
    TestImage img(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, {16, 16}, false), out(ctx(), VK_FORMAT_R32G32B32A32_SFLOAT, {16, 16}, true);
    effects::DenoiserInputs in{img.input(), img.input(), img.input(), img.input(), out.input(), {20, 16}, 0};
    effects::Status s = effects::validateDenoiserInputs((*created)->desc(), in);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("the size 20x16 exceeds the maximum size 16x16"), std::string::npos) << s.error().message;
    in.size = {16, 16};
    in.albedo = {};
    s = effects::validateDenoiserInputs((*created)->desc(), in);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("the albedo image is missing"), std::string::npos) << s.error().message;
    fxtest::run(ctx(), [&](VkCommandBuffer cmd) {
        in.albedo = img.input();
        effects::Status r = (*created)->record(cmd, in);
        ASSERT_FALSE(r);
        EXPECT_NE(r.error().message.find("recordInitialization"), std::string::npos) << r.error().message;
    });
    // An sRGB view is decoded by the sampler: with DenoiserFlagColorSrgb it would be decoded twice.
    effects::DenoiserDesc srgb = (*created)->desc();
    srgb.flags |= effects::DenoiserFlagColorSrgb;
    in.color.format = VK_FORMAT_R8G8B8A8_SRGB;
    s = effects::validateDenoiserInputs(srgb, in);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("the color image has the sRGB format R8G8B8A8_SRGB, which the sampler already decodes to linear; "
                                     "with DenoiserFlagColorSrgb its values would be decoded twice"),
              std::string::npos)
        << s.error().message;
    EXPECT_TRUE(effects::validateDenoiserInputs((*created)->desc(), in));  // linear values: fine
    effects::DenoiserDesc bad = desc(ctx(), {16, 16});
    bad.modelPath = VKML_TEST_DATA_DIR "/onnx/bridge_upscaler_x2.onnx";
    auto wrong = effects::Denoiser::create(bad);
    ASSERT_FALSE(wrong);
    EXPECT_EQ(wrong.error().code, effects::ErrorCode::InvalidModel) << wrong.error().message;
}

}  // namespace
