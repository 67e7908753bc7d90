// bridge::MlPass inside the renderer's frame: the output image must equal the CPU reference
// network evaluated on the renderer's own channels (read back), converted the way the bindings
// say. Runs under validation + synchronization validation (VulkanTest).
#include "bridge/graph_session.h"
#include "bridge/ml_pass.h"
#include "engine/buffer.h"
#include "engine/frames.h"
#include "engine/renderer.h"
#include "mlplugin/graph_builder.h"
#include "mlplugin/onnx.h"
#include "vulkan_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <random>

using namespace mlplugin;
using bridge::Encoding;
using bridge::FrameImage;
using testsupport::VulkanTest;

namespace {

mlplugin::Device& device() {
    static std::unique_ptr<mlplugin::Device> d = bridge::createDevice(testsupport::context(), true);
    return *d;
}

bool fp16Supported() { return device().capabilities().fp16Storage && device().capabilities().fp16Arithmetic; }

std::vector<float> randomWeights(size_t n, uint32_t seed, float range) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-range, range);
    std::vector<float> v(n);
    for (float& x : v) {
        x = dist(rng);
        if (std::abs(x) < 0.05f * range) x = 0.05f * range;  // non-zero
    }
    return v;
}

Expr weights(GraphBuilder& g, const std::string& name, std::initializer_list<uint32_t> sizes, uint32_t seed) {
    size_t n = 1;
    for (uint32_t s : sizes) n *= s;
    float fanIn = float(n / *sizes.begin());
    return g.constant(name, TensorDesc::make(DataType::Float32, sizes), randomWeights(n, seed, 1.5f / std::sqrt(fanIn)));
}

// ESPCN-like x2: conv 3x3 + tanh, conv 3x3 -> 12 channels, depth-to-space. `nhwc`: the input
// lies channels-last (strided desc), the layout the first conv then reads directly.
GraphDesc upscalerX2(DataType type, uint32_t w, uint32_t h, bool nhwc = false) {
    GraphBuilder g;
    TensorDesc in = nhwc ? TensorDesc::strided(type, {1, 3, h, w}, {h * w * 3, 1, w * 3, 3}) : TensorDesc::make(type, {1, 3, h, w});
    Expr x = g.input("color", in);
    Expr y = tanh(conv2d(x, weights(g, "w1", {8, 3, 3, 3}, 1), weights(g, "b1", {8}, 2), {.pad = 1}));
    y = conv2d(y, weights(g, "w2", {12, 8, 3, 3}, 3), weights(g, "b2", {12}, 4), {.pad = 1});
    g.output(sigmoid(depthToSpace(y, 2)));
    return g.finish().value();
}

// Two inputs at render resolution: "color" (3) and "aux" = albedo rgb + normal xyz + depth (7).
GraphDesc denoiserLike(DataType type, uint32_t w, uint32_t h) {
    GraphBuilder g;
    Expr c = g.input("color", TensorDesc::make(type, {1, 3, h, w}));
    Expr aux = g.input("aux", TensorDesc::make(type, {1, 7, h, w}));
    Expr y = relu(conv2d(concat({c, aux}, 1), weights(g, "w1", {6, 10, 3, 3}, 5), weights(g, "b1", {6}, 6), {.pad = 1}));
    g.output(conv2d(y, weights(g, "w2", {3, 6, 1, 1}, 7), weights(g, "b2", {3}, 8)));
    return g.finish().value();
}

double srgbEncode(double c) { return c >= 0.0031308 ? 1.055 * std::pow(std::max(c, 0.0), 1.0 / 2.4) - 0.055 : c * 12.92; }
double srgbDecode(double c) {
    c = std::clamp(c, 0.0, 1.0);
    return c >= 0.04045 ? std::pow((c + 0.055) / 1.055, 2.4) : c / 12.92;
}

const engine::FrameReadback::FloatImage& channel(const engine::FrameReadback& rb, engine::Channel c) {
    for (const auto& img : rb.channels)
        if (img.channel == c) return img;
    throw std::runtime_error(std::string("channel not read back: ") + engine::toString(c));
}

engine::Channel toChannel(FrameImage i) {
    switch (i) {
    case FrameImage::Color: return engine::Channel::Color;
    case FrameImage::Albedo: return engine::Channel::Albedo;
    case FrameImage::Normal: return engine::Channel::Normal;
    case FrameImage::Depth: return engine::Channel::Depth;
    case FrameImage::Motion: return engine::Channel::Motion;
    }
    return engine::Channel::Color;
}

// The CPU side of image_to_tensor: the graph inputs as the bindings define them, from read-back
// channels, laid out per each input's desc (strides included).
std::vector<HostTensor> referenceInputs(const GraphDesc& g, const std::vector<bridge::TensorInput>& bindings, const engine::FrameReadback& rb,
                                        bool roundHalf) {
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < g.inputs.size(); ++i) {
        const TensorDesc& d = g.values[g.inputs[i]].desc;
        const bridge::TensorInput& b = bindings[i];
        HostTensor t{d, std::vector<double>(d.requiredBytes() / byteSize(d.dataType))};
        auto s = d.effectiveStrides();
        uint32_t c = 0;
        for (const bridge::ImageChannels& run : b.channels) {
            const auto& img = channel(rb, toChannel(run.image));
            for (char comp : run.components) {
                uint32_t k = uint32_t(std::string("rgba").find(comp) != std::string::npos ? std::string("rgba").find(comp) : std::string("xyzw").find(comp));
                for (uint32_t y = 0; y < d.sizes[2]; ++y)
                    for (uint32_t x = 0; x < d.sizes[3]; ++x) {
                        double v = img.data[(size_t(y) * img.width + x) * img.components + k];
                        if (run.encoding == Encoding::Srgb) v = srgbEncode(v);
                        v = v * run.scale + run.bias;
                        t.data[c * s[1] + y * s[2] + x * s[3]] = roundHalf ? roundToHalf(v) : v;
                    }
                ++c;
            }
        }
        inputs.push_back(std::move(t));
    }
    return inputs;
}

struct Comparison {
    double relL2 = 0;    // against the reference rounded to fp16
    double maxUlps = 0;  // largest difference in fp16 ulps of the reference value
    size_t checked = 0;
};

// The output image is RGBA16F: an fp32 network can match the reference only to its last fp16
// bit (lavapipe's fp32 -> fp16 store does not round to nearest).
double halfUlp(double v) {
    double a = std::abs(v);
    if (a < std::ldexp(1.0, -14)) return std::ldexp(1.0, -24);
    return std::ldexp(1.0, int(std::floor(std::log2(a))) - 10);
}

// Expected output image (RGB, decoded, stored as fp16 like the RGBA16F image) vs the read-back.
Comparison compareOutput(const GraphDesc& g, const std::vector<bridge::TensorInput>& bindings, const bridge::TensorOutput& out,
                         const engine::FrameReadback& rb) {
    const bool half = g.values[g.inputs[0]].desc.dataType == DataType::Float16;
    auto result = referenceEvaluateGraph(g, referenceInputs(g, bindings, rb, half));
    if (!result) throw std::runtime_error(result.error().message);
    const HostTensor& t = result.value()[0];
    auto s = t.desc.effectiveStrides();
    const auto& img = channel(rb, engine::Channel::Output);
    EXPECT_EQ(img.width, t.desc.sizes[3]);
    EXPECT_EQ(img.height, t.desc.sizes[2]);
    double num = 0, den = 0;
    Comparison c;
    for (uint32_t y = 0; y < img.height; ++y)
        for (uint32_t x = 0; x < img.width; ++x)
            for (uint32_t k = 0; k < 3; ++k) {
                uint32_t tc = t.desc.sizes[1] == 1 ? 0 : k;
                double v = t.data[tc * s[1] + y * s[2] + x * s[3]] * out.scale + out.bias;
                if (out.encoding == Encoding::Srgb) v = srgbDecode(v);
                double got = img.data[(size_t(y) * img.width + x) * 3 + k];
                c.maxUlps = std::max(c.maxUlps, std::abs(got - v) / halfUlp(v));
                v = roundToHalf(v);
                num += (got - v) * (got - v);
                den += v * v;
                ++c.checked;
            }
    c.relL2 = std::sqrt(num / std::max(den, 1e-30));
    return c;
}

engine::RendererDesc rendererDesc(uint32_t w, uint32_t h, float scale) {
    engine::RendererDesc d;
    d.outputWidth = w;
    d.outputHeight = h;
    d.renderScale = scale;
    d.upscale = engine::UpscaleMode::Bilinear;  // any non-native mode: the ML pass replaces the filter
    return d;
}

bridge::TensorInput srgbColor() { return {.name = "color", .channels = {{.image = FrameImage::Color, .components = "rgb", .encoding = Encoding::Srgb}}}; }

void expectWithin(const Comparison& c, DataType type) {
    EXPECT_GT(c.checked, 0u);
    if (type == DataType::Float32) {
        EXPECT_LE(c.maxUlps, 1.01);
        EXPECT_LT(c.relL2, 1e-3);
    } else {
        EXPECT_LT(c.relL2, 1e-2);
    }
}

const uint32_t kUpscaleChannels = engine::Channel::Color | engine::Channel::Output;

class MlPassTest : public VulkanTest, public ::testing::WithParamInterface<DataType> {
protected:
    void SetUp() override {
        VulkanTest::SetUp();
        if (GetParam() == DataType::Float16 && !fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    }
    double tolerance() const { return GetParam() == DataType::Float16 ? 1e-2 : 1e-3; }
    // fp32: every element within one fp16 ulp (the output image's precision) of the reference;
    // fp16: relative L2 below 1e-2.
    void expectMatches(const Comparison& c) const { expectWithin(c, GetParam()); }
};

}  // namespace

TEST_P(MlPassTest, UpscalerMatchesCpuReference) {
    DataType type = GetParam();
    bridge::MlPassDesc desc{.name = "ml_upscale",
                            .buildGraph = [type](uint32_t w, uint32_t h) { return upscalerX2(type, w, h); },
                            .inputs = {srgbColor()},
                            .output = {.encoding = Encoding::Srgb}};
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rendererDesc(46, 30, 0.5f));  // render 23x15: odd sizes
    r.setUpscaler(pass.upscaler());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(0, 3), kUpscaleChannels);
    auto order = r.graph().passOrder();
    for (const char* p : {"ml_upscale.to_tensor", "ml_upscale.network", "ml_upscale.to_image"})
        EXPECT_NE(std::find(order.begin(), order.end(), p), order.end()) << p;
    EXPECT_EQ(std::find(order.begin(), order.end(), "upscale_bilinear"), order.end());
    Comparison c = compareOutput(*pass.graph(), desc.inputs, desc.output, rb);
    EXPECT_EQ(c.checked, 46u * 30u * 3u);
    expectMatches(c);
    // The check can fail: the same reference without the sRGB encode of the input is far off.
    bridge::MlPassDesc wrong = desc;
    wrong.inputs[0].channels[0].encoding = Encoding::Linear;
    EXPECT_GT(compareOutput(*pass.graph(), wrong.inputs, desc.output, rb).relL2, 3 * tolerance());
    EXPECT_EQ(pass.stats().compilations, 1u);
    EXPECT_EQ(pass.stats().weightInitializations, 1u);
}

// Channels-last input: the conversion writes NHWC through the graph input's strides and the
// first convolution reads that layout directly (no transpose pass).
TEST_P(MlPassTest, ChannelsLastInputLayout) {
    DataType type = GetParam();
    bridge::MlPassDesc desc{.name = "ml_nhwc",
                            .buildGraph = [type](uint32_t w, uint32_t h) { return upscalerX2(type, w, h, true); },
                            .inputs = {srgbColor()},
                            .output = {.encoding = Encoding::Srgb}};
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rendererDesc(32, 20, 0.5f));
    r.setUpscaler(pass.upscaler());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(1, 2), kUpscaleChannels);
    EXPECT_FALSE(pass.graph()->values[pass.graph()->inputs[0]].desc.isPacked());
    expectMatches(compareOutput(*pass.graph(), desc.inputs, desc.output, rb));
}

// Several images, one of them concatenated from three, all converted in one dispatch; range
// mapping on normals ([-1,1] -> [0,1]).
TEST_P(MlPassTest, SeveralInputsConcatenatedInOneConversion) {
    DataType type = GetParam();
    bridge::MlPassDesc desc{
        .name = "ml_multi",
        .buildGraph = [type](uint32_t w, uint32_t h) { return denoiserLike(type, w, h); },
        .inputs = {srgbColor(),
                   {.name = "aux",
                    .channels = {{.image = FrameImage::Albedo, .components = "rgb"},
                                 {.image = FrameImage::Normal, .components = "xyz", .scale = 0.5f, .bias = 0.5f},
                                 {.image = FrameImage::Depth, .components = "r"}}}},
        .output = {.encoding = Encoding::Linear, .scale = 0.5f, .bias = 0.25f}};
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rendererDesc(24, 18, 1.0f));  // same size in and out
    r.setUpscaler(pass.upscaler());
    uint32_t channels = kUpscaleChannels | engine::Channel::Albedo | engine::Channel::Normal | engine::Channel::Depth;
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(2, 5), channels);
    auto order = r.graph().passOrder();
    EXPECT_EQ(std::count_if(order.begin(), order.end(), [](const std::string& p) { return p.rfind("ml_multi.", 0) == 0; }), 3);
    expectMatches(compareOutput(*pass.graph(), desc.inputs, desc.output, rb));
}

// Two frames in flight, frames before and after resizes and a same-size rebuild: weights are
// initialized once (a resize reshapes), descriptors written once per slot and pass, output right.
TEST_P(MlPassTest, FramesInFlightAcrossResize) {
    DataType type = GetParam();
    bridge::MlPassDesc desc{.name = "ml_upscale",
                            .buildGraph = [type](uint32_t w, uint32_t h) { return upscalerX2(type, w, h); },
                            .inputs = {srgbColor()},
                            .output = {.encoding = Encoding::Srgb}};
    engine::Frames frames(ctx(), {.framesInFlight = 2});
    desc.retire = &frames.deletion();
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rendererDesc(40, 24, 0.5f));
    r.setUpscaler(pass.upscaler());
    const engine::TargetDesc target{.headless = true, .channels = kUpscaleChannels, .framesInFlight = 2};
    r.build(target);

    uint32_t frame = 0;
    auto run = [&](uint32_t count) {
        std::vector<uint32_t> slotFrame(2, UINT32_MAX);
        for (uint32_t i = 0; i < count; ++i, ++frame) {
            engine::Frame& f = frames.beginFrame();
            r.record(f.cmd, f.slot, engine::FrameParams::onPath(0, frame));
            frames.endFrame();
            slotFrame[f.slot] = frame;
        }
        frames.waitIdle();
        // The newest frame's read-back.
        uint32_t newest = slotFrame[0] == frame - 1 ? 0 : 1;
        return r.readback(newest);
    };
    engine::FrameReadback rb = run(4);
    expectMatches(compareOutput(*pass.graph(), desc.inputs, desc.output, rb));
    EXPECT_EQ(pass.stats().compilations, 1u);
    EXPECT_EQ(pass.stats().weightInitializations, 1u);
    EXPECT_EQ(pass.stats().bindingUpdates, 2u * 3u);  // 2 slots x 3 passes, then never again

    // A resize is a reshape: the weights initialized at the first extent stay (render 28x18, then
    // odd 27x17). Frames of the old extent are still in flight when the graph is rebuilt.
    auto resize = [&](uint32_t w, uint32_t h, uint32_t reshapes) {
        r.resize(w, h);
        r.build(target);
        engine::FrameReadback after = run(3);
        EXPECT_EQ(channel(after, engine::Channel::Output).width, w);
        expectMatches(compareOutput(*pass.graph(), desc.inputs, desc.output, after));
        EXPECT_EQ(pass.stats().compilations, 1u);
        EXPECT_EQ(pass.stats().reshapes, reshapes);
        EXPECT_EQ(pass.stats().weightInitializations, 1u);
        EXPECT_TRUE(pass.compiled()->report.persistentReused) << pass.compiled()->report.persistentChange;
    };
    resize(56, 36, 1);
    r.build(target);  // same extents: nothing recompiled, weights kept
    rb = run(3);
    expectMatches(compareOutput(*pass.graph(), desc.inputs, desc.output, rb));
    EXPECT_EQ(pass.stats().reshapes, 1u);
    resize(54, 34, 2);
}

INSTANTIATE_TEST_SUITE_P(Precision, MlPassTest, ::testing::Values(DataType::Float32, DataType::Float16),
                         [](const ::testing::TestParamInfo<DataType>& p) { return std::string(toString(p.param)); });

// An ONNX model (ESPCN x2, one channel, free dims "height"/"width") loaded from a file: the
// green channel in, grey out.
class MlPassOnnxTest : public VulkanTest {};

TEST_F(MlPassOnnxTest, OnnxFileWithFreeDimensions) {
    bridge::MlPassDesc desc{.name = "ml_onnx",
                            .onnxPath = std::string(VKML_TEST_DATA_DIR) + "/onnx/espcn_dynamic_op13.onnx",
                            .heightDim = "height",
                            .widthDim = "width",
                            .dataType = DataType::Float32,
                            .inputs = {{.channels = {{.image = FrameImage::Color, .components = "g", .encoding = Encoding::Srgb}}}},
                            .output = {.encoding = Encoding::Srgb}};
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rendererDesc(38, 26, 0.5f));
    r.setUpscaler(pass.upscaler());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(0, 1), kUpscaleChannels);
    expectWithin(compareOutput(*pass.graph(), desc.inputs, desc.output, rb), DataType::Float32);
    // Another extent: the parsed model is converted again and reshaped, the weights stay.
    r.resize(46, 30);
    rb = engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(0, 2), kUpscaleChannels);
    EXPECT_EQ(pass.graph()->values[pass.graph()->inputs[0]].desc.sizes[3], 23u);
    expectWithin(compareOutput(*pass.graph(), desc.inputs, desc.output, rb), DataType::Float32);
    EXPECT_EQ(pass.stats().compilations, 1u);
    EXPECT_EQ(pass.stats().reshapes, 1u);
    EXPECT_EQ(pass.stats().weightInitializations, 1u);
}

// Bad input: a clear exception naming the problem, at construction or at build().
class MlPassErrorTest : public VulkanTest {
protected:
    std::string buildError(bridge::MlPassDesc desc, engine::RendererDesc rd = rendererDesc(32, 32, 0.5f)) {
        try {
            bridge::MlPass pass(ctx(), device(), std::move(desc));
            engine::Renderer r(ctx(), rd);
            r.setUpscaler(pass.upscaler());
            r.build({.headless = true, .framesInFlight = 1});
        } catch (const std::exception& e) {
            return e.what();
        }
        return "(no error)";
    }
    static bridge::MlPassDesc upscaler() {
        return {.name = "bad", .buildGraph = [](uint32_t w, uint32_t h) { return upscalerX2(DataType::Float32, w, h); }, .inputs = {srgbColor()}};
    }
};

TEST_F(MlPassErrorTest, MissingModelFile) {
    bridge::MlPassDesc d{.name = "bad", .onnxPath = "/nonexistent/upscaler_x2.onnx", .inputs = {srgbColor()}};
    EXPECT_EQ(buildError(d), "MlPass 'bad': cannot open the model file '/nonexistent/upscaler_x2.onnx'");
    d.onnxPath = "/dev/zero";  // refused before it is read: it would never end
    EXPECT_EQ(buildError(d), "MlPass 'bad': the model file '/dev/zero' is not a regular file");
}

TEST_F(MlPassErrorTest, NoModelOrTwoModels) {
    bridge::MlPassDesc d = upscaler();
    d.buildGraph = nullptr;
    EXPECT_NE(buildError(d).find("give exactly one model"), std::string::npos);
    d = upscaler();
    d.onnxBytes = {1, 2, 3};
    EXPECT_NE(buildError(d).find("2 given"), std::string::npos);
}

TEST_F(MlPassErrorTest, InputCountMismatch) {
    bridge::MlPassDesc d = upscaler();
    d.inputs.push_back(srgbColor());
    d.inputs.back().name = "";
    EXPECT_EQ(buildError(d), "MlPass 'bad': the model has 1 input(s) ('color') but 2 input binding(s) are given");
}

TEST_F(MlPassErrorTest, ChannelCountMismatch) {
    bridge::MlPassDesc d = upscaler();
    d.inputs[0].channels[0].components = "rgba";
    EXPECT_EQ(buildError(d), "MlPass 'bad': input 'color' fp32[1,3,16,16] has 3 channel(s) but its binding reads 4");
}

TEST_F(MlPassErrorTest, UnknownInputName) {
    bridge::MlPassDesc d = upscaler();
    d.inputs[0].name = "colour";
    EXPECT_EQ(buildError(d), "MlPass 'bad': the model has no input 'colour' (inputs: 'color')");
}

TEST_F(MlPassErrorTest, BadComponentLetter) {
    bridge::MlPassDesc d = upscaler();
    d.inputs[0].channels[0].components = "rgq";
    EXPECT_NE(buildError(d).find("'q' in components 'rgq' is not one of r g b a x y z w"), std::string::npos);
}

TEST_F(MlPassErrorTest, OutputSizeDoesNotMatchTheOutputImage) {
    // A x2 network at render scale 1: its 64x64 output does not fit the 32x32 output image.
    std::string e = buildError(upscaler(), rendererDesc(32, 32, 1.0f));
    EXPECT_EQ(e.rfind("MlPass 'bad': output '", 0), 0u) << e;
    EXPECT_NE(e.find("' fp32[1,3,64,64] is 64x64 (WxH) but the output image is 32x32"), std::string::npos) << e;
}

TEST_F(MlPassErrorTest, ImageTheStageDoesNotProvide) {
    bridge::MlPassDesc d = upscaler();
    d.inputs[0].channels[0].image = FrameImage::Motion;
    d.inputs[0].channels[0].components = "rgr";
    engine::FrameGraph fg(ctx());
    bridge::MlPass pass(ctx(), device(), d);
    bridge::MlPassImages images;
    images.color = fg.createImage("color", {VK_FORMAT_R16G16B16A16_SFLOAT, 16, 16});
    images.output = fg.createImage("out", {VK_FORMAT_R16G16B16A16_SFLOAT, 32, 32});
    images.inputExtent = {16, 16};
    images.outputExtent = {32, 32};
    try {
        pass.addPasses(fg, images);
        FAIL() << "no error";
    } catch (const std::exception& e) {
        EXPECT_STREQ(e.what(), "MlPass 'bad': input 'color' fp32[1,3,16,16] reads the motion image, which this stage does not provide");
    }
}

TEST_F(MlPassErrorTest, MalformedOnnxBytes) {
    bridge::MlPassDesc d{.name = "bad", .onnxBytes = {0xde, 0xad, 0xbe, 0xef}, .inputs = {srgbColor()}};
    std::string e = buildError(d);
    EXPECT_EQ(e.rfind("MlPass 'bad': model (bytes): not a valid ONNX protobuf", 0), 0u) << e;  // at construction
}

TEST_F(MlPassOnnxTest, OnnxFileInFp16) {
    if (!fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    bridge::MlPassDesc desc{.name = "ml_onnx16",
                            .onnxPath = std::string(VKML_TEST_DATA_DIR) + "/onnx/bridge_upscaler_x2.onnx",
                            .dataType = DataType::Float16,
                            .inputs = {srgbColor()},
                            .output = {.encoding = Encoding::Srgb}};
    bridge::MlPass pass(ctx(), device(), desc);
    EXPECT_EQ(pass.graph(), nullptr);  // compiled at the first build
    engine::Renderer r(ctx(), rendererDesc(34, 22, 0.5f));
    r.setUpscaler(pass.upscaler());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(3, 1), kUpscaleChannels);
    EXPECT_EQ(pass.graph()->values[pass.graph()->inputs[0]].desc.dataType, DataType::Float16);
    // Reference: the same model loaded in fp32 (referenceEvaluateGraph rejects this fp16 graph's
    // scalar constant: "reference input 1 holds 1 values, its desc addresses 2").
    OnnxLoadOptions options;
    options.freeDimensions = {{"H", 11}, {"W", 17}};
    GraphDesc reference = loadOnnxFile(desc.onnxPath, options).value().graph;
    expectWithin(compareOutput(reference, desc.inputs, desc.output, rb), DataType::Float16);
}

// As the renderer's denoiser: noisy colour (sRGB), albedo, normals and depth in, colour out at
// render resolution. The renderer is deterministic, so the noisy input is the colour of the
// same frame rendered without a denoiser.
TEST_F(MlPassOnnxTest, DenoiserMatchesCpuReference) {
    bridge::MlPassDesc desc{
        .name = "ml_denoise",
        .buildGraph = [](uint32_t w, uint32_t h) { return denoiserLike(DataType::Float32, w, h); },
        .inputs = {srgbColor(),
                   {.name = "aux",
                    .channels = {{.image = FrameImage::Albedo, .components = "rgb"},
                                 {.image = FrameImage::Normal, .components = "xyz"},
                                 {.image = FrameImage::Depth, .components = "r"}}}},
        .output = {.encoding = Encoding::Srgb}};
    engine::RendererDesc rd = rendererDesc(32, 24, 1.0f);
    rd.shadows = engine::ShadowMode::Stochastic;
    const uint32_t channels = engine::Channel::Color | engine::Channel::Albedo | engine::Channel::Normal | engine::Channel::Depth;
    const engine::FrameParams params = engine::FrameParams::onPath(0, 4);
    engine::FrameReadback noisy;
    {
        engine::Renderer r(ctx(), rd);
        noisy = engine::renderSingleFrame(ctx(), r, params, channels);
    }
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rd);
    r.setDenoiser(pass.denoiser());
    engine::FrameReadback denoised = engine::renderSingleFrame(ctx(), r, params, channels);
    auto order = r.graph().passOrder();
    EXPECT_NE(std::find(order.begin(), order.end(), "ml_denoise.network"), order.end());
    // The reference reads the noisy frame's channels; its output is compared with the colour
    // the denoised frame read back (the denoiser's output is the renderer's colour from then on).
    noisy.channels.push_back(channel(denoised, engine::Channel::Color));
    noisy.channels.back().channel = engine::Channel::Output;
    expectWithin(compareOutput(*pass.graph(), desc.inputs, desc.output, noisy), pass.computeType());
}

// Outside the renderer: two networks chained in one frame graph (a clear writes the source,
// network A upscales it into `mid`, network B upscales `mid` into `out`, a copy reads `out`).
// B's transients reuse the memory of A's, whose lifetimes ended: the temporaries are ordinary
// frame-graph transients.
class MlPassFrameGraphTest : public VulkanTest {};

TEST_F(MlPassFrameGraphTest, ChainedNetworksShareTransientMemory) {
    auto desc = [](std::string name) {
        return bridge::MlPassDesc{.name = std::move(name),
                                  .buildGraph = [](uint32_t w, uint32_t h) { return upscalerX2(DataType::Float32, w, h); },
                                  .inputs = {srgbColor()},
                                  .output = {.encoding = Encoding::Srgb}};
    };
    bridge::MlPass a(ctx(), device(), desc("a")), b(ctx(), device(), desc("b"));
    engine::FrameGraph fg(ctx());
    const VkFormat f = VK_FORMAT_R16G16B16A16_SFLOAT;
    engine::ResourceHandle src = fg.createImage("src", {f, 20, 16});
    engine::ResourceHandle mid = fg.createImage("mid", {f, 40, 32});
    engine::ResourceHandle out = fg.createImage("out", {f, 80, 64});
    engine::Buffer readback(ctx(), 80 * 64 * 8, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    engine::ResourceHandle rb = fg.importBuffer("readback", readback.handle(), readback.size(), {},
                                                {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    fg.addPass({.name = "clear", .type = engine::PassType::Transfer, .uses = {{src, engine::Access::TransferWrite}},
                .record = [src](engine::PassContext& pc) {
                    VkClearColorValue c{{0.1f, 0.4f, 0.8f, 1.0f}};
                    VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
                    vkCmdClearColorImage(pc.commandBuffer(), pc.image(src), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &c, 1, &range);
                }});
    bridge::MlPassResources ra = a.addPasses(fg, {.color = src, .output = mid, .inputExtent = {20, 16}, .outputExtent = {40, 32}});
    bridge::MlPassResources rb2 = b.addPasses(fg, {.color = mid, .output = out, .inputExtent = {40, 32}, .outputExtent = {80, 64}});
    fg.addPass({.name = "copy", .type = engine::PassType::Transfer, .uses = {{out, engine::Access::TransferRead}, {rb, engine::Access::TransferWrite}},
                .record = [out, rb](engine::PassContext& pc) {
                    VkBufferImageCopy region{};
                    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                    region.imageExtent = {80, 64, 1};
                    vkCmdCopyImageToBuffer(pc.commandBuffer(), pc.image(out), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pc.buffer(rb), 1, &region);
                }});
    fg.bake();
    ASSERT_NE(ra.temporary, engine::kInvalidResource);
    ASSERT_NE(rb2.temporary, engine::kInvalidResource);
    bool shared = false;
    for (engine::ResourceHandle x : {ra.input, ra.output, ra.temporary})
        for (engine::ResourceHandle y : {rb2.input, rb2.output, rb2.temporary}) shared = shared || fg.aliased(x, y);
    EXPECT_TRUE(shared) << fg.describe();
    EXPECT_LT(fg.stats().transientBytes, fg.stats().transientBytesUnaliased);
    // The graph placed the barriers between the passes: input tensor written -> read by the network,
    // A's output image written as storage -> sampled by B's conversion (layout transition).
    const auto order = fg.passOrder();
    auto barriersBefore = [&](const std::string& pass) -> const engine::BarrierBatch* {
        const uint32_t index = uint32_t(std::find(order.begin(), order.end(), pass) - order.begin());
        for (const engine::BarrierBatch& batch : fg.barriers())
            if (batch.beforePass == index) return &batch;
        return nullptr;
    };
    const engine::BarrierBatch* beforeNetwork = barriersBefore("a.network");
    ASSERT_NE(beforeNetwork, nullptr);
    bool inputVisible = false;
    for (const VkBufferMemoryBarrier2& bb : beforeNetwork->buffers)
        inputVisible = inputVisible || (bb.buffer == fg.physicalBuffer(ra.input) && (bb.srcAccessMask & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT));
    EXPECT_TRUE(inputVisible) << fg.describe();
    const engine::BarrierBatch* beforeB = barriersBefore("b.to_tensor");
    ASSERT_NE(beforeB, nullptr);
    bool midTransition = false;
    for (const VkImageMemoryBarrier2& ib : beforeB->images)
        midTransition = midTransition || (ib.image == fg.physicalImage(mid) && ib.oldLayout == VK_IMAGE_LAYOUT_GENERAL &&
                                          ib.newLayout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    EXPECT_TRUE(midTransition) << fg.describe();
    ctx().submitAndWait([&](VkCommandBuffer cmd) { fg.execute(cmd, 0); });
    ctx().submitAndWait([&](VkCommandBuffer cmd) { fg.execute(cmd, 1); });  // a second slot binds its own range
    EXPECT_EQ(a.stats().bindingUpdates, 6u);
    EXPECT_EQ(a.stats().weightInitializations, 1u);
    // A constant image through both networks: pixels at the same place in both 2x2 depth-to-space
    // patterns, with receptive fields clear of the borders, are equal.
    readback.invalidate();
    const uint16_t* px = static_cast<const uint16_t*>(readback.mapped());
    auto at = [&](uint32_t x, uint32_t y, uint32_t c) { return px[(y * 80 + x) * 4 + c]; };
    for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(at(36, 28, c), at(44, 36, c)) << c;
    EXPECT_EQ(at(36, 28, 3), 0x3c00);  // alpha 1.0
}

// The shipped models (assets/, tools/train) through their documented contracts: the upscaler
// as the renderer's upscaler, the denoiser as its denoiser, each matching the CPU reference.
class MlPassShippedModelTest : public VulkanTest {
protected:
    static std::string asset(const char* name) { return std::string(VKML_ASSETS_DIR) + "/" + name; }
    static bool exists(const std::string& path) { return std::ifstream(path).good(); }
};

TEST_F(MlPassShippedModelTest, UpscalerX2) {
    const std::string path = asset("upscaler_x2.onnx");
    if (!exists(path)) GTEST_SKIP() << path << " not present";
    bridge::MlPassDesc desc{.name = "ml_upscale", .onnxPath = path, .inputs = {srgbColor()}, .output = {.encoding = Encoding::Srgb}};
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rendererDesc(40, 24, 0.5f));
    r.setUpscaler(pass.upscaler());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(0, 2), kUpscaleChannels);
    // The default precision: fp16 with fp16 arithmetic where the device has it.
    expectWithin(compareOutput(*pass.graph(), desc.inputs, desc.output, rb), pass.computeType());
}

TEST_F(MlPassShippedModelTest, Denoiser) {
    const std::string path = asset("denoiser.onnx");
    if (!exists(path)) GTEST_SKIP() << path << " not present";
    bridge::MlPassDesc desc{.name = "ml_denoise",
                            .onnxPath = path,
                            .inputs = {srgbColor(),
                                       {.name = "albedo", .channels = {{.image = FrameImage::Albedo, .components = "rgb"}}},
                                       {.name = "normal", .channels = {{.image = FrameImage::Normal, .components = "xyz"}}},
                                       {.name = "depth", .channels = {{.image = FrameImage::Depth, .components = "r"}}}},
                            .output = {.encoding = Encoding::Srgb}};
    engine::RendererDesc rd = rendererDesc(32, 24, 1.0f);
    rd.shadows = engine::ShadowMode::Stochastic;
    const uint32_t channels = engine::Channel::Color | engine::Channel::Albedo | engine::Channel::Normal | engine::Channel::Depth;
    const engine::FrameParams params = engine::FrameParams::onPath(0, 4);
    engine::FrameReadback noisy;
    {
        engine::Renderer r(ctx(), rd);
        noisy = engine::renderSingleFrame(ctx(), r, params, channels);
    }
    bridge::MlPass pass(ctx(), device(), desc);
    engine::Renderer r(ctx(), rd);
    r.setDenoiser(pass.denoiser());
    engine::FrameReadback denoised = engine::renderSingleFrame(ctx(), r, params, channels);
    noisy.channels.push_back(channel(denoised, engine::Channel::Color));
    noisy.channels.back().channel = engine::Channel::Output;
    expectWithin(compareOutput(*pass.graph(), desc.inputs, desc.output, noisy), pass.computeType());
}
