// MlPass's binding plan (bridge/src/binding_plan.h) without a GPU: where each graph input lies in
// the input buffer, which slices the image_to_tensor shader gets, the output push constants, and
// the message and error code for every binding that does not fit the graph.
#include "binding_plan.h"
#include "engine/error.h"
#include "mlplugin/graph_builder.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlplugin;
using bridge::Encoding;
using bridge::FrameImage;
using bridge::ImageChannels;
using bridge::TensorInput;
using bridge::TensorOutput;
using bridge::detail::BindingPlan;
using bridge::detail::planBindings;

namespace {

const auto kAllImages = [](FrameImage) { return true; };

// A 1x1 convolution to `outChannels`, then an upsample by `scale` (the graph's body is irrelevant
// to the plan; it only has to be a valid graph).
Expr head(GraphBuilder& g, Expr x, uint32_t inChannels, uint32_t outChannels, uint32_t scale) {
    Expr y = conv2d(x, g.constant("w", TensorDesc::make(DataType::Float32, {outChannels, inChannels, 1, 1}),
                                  std::vector<float>(size_t(outChannels) * inChannels, 0.25f)));
    return scale > 1 ? resize(y, float(scale), float(scale)) : y;
}

// color [1,3,H,W] and aux [1,auxChannels,H,W] -> a [1,outChannels,scale*H,scale*W] output.
GraphDesc twoInputs(DataType type, uint32_t w, uint32_t h, uint32_t auxChannels, uint32_t outChannels, uint32_t scale, bool nhwcAux = false) {
    GraphBuilder g;
    Expr c = g.input("color", TensorDesc::make(type, {1, 3, h, w}));
    TensorDesc auxDesc = nhwcAux ? TensorDesc::strided(type, {1, auxChannels, h, w}, {h * w * auxChannels, 1, w * auxChannels, auxChannels})
                                 : TensorDesc::make(type, {1, auxChannels, h, w});
    Expr aux = g.input("aux", auxDesc);
    g.output(head(g, concat({c, aux}, 1), 3 + auxChannels, outChannels, scale));
    return g.finish().value();
}

// One input of `channels` channels -> 3 channels at the same size.
GraphDesc oneInput(uint32_t channels, uint32_t w, uint32_t h) {
    GraphBuilder g;
    g.output(head(g, g.input("x", TensorDesc::make(DataType::Float32, {1, channels, h, w})), channels, 3, 1));
    return g.finish().value();
}

TensorInput colorBinding(Encoding e = Encoding::Linear) { return {.name = "color", .channels = {{.image = FrameImage::Color, .encoding = e}}}; }

TensorInput auxBinding() {
    return {.name = "aux",
            .channels = {{.image = FrameImage::Albedo, .components = "rgb"},
                         {.image = FrameImage::Normal, .components = "xyz", .scale = 0.5f, .bias = 0.5f},
                         {.image = FrameImage::Depth, .components = "r"}}};
}

// The engine::Error the call throws (fails the test when it does not throw).
template <typename F>
engine::Error thrown(F&& f) {
    try {
        f();
    } catch (const engine::Error& e) {
        return e;
    }
    ADD_FAILURE() << "no engine::Error thrown";
    return engine::Error("none");
}

class BindingPlanTest : public ::testing::TestWithParam<DataType> {};

TEST_P(BindingPlanTest, InputsShareOneAlignedBufferInGraphOrder) {
    const DataType type = GetParam();
    const uint32_t elem = type == DataType::Float16 ? 2 : 4;
    std::mt19937 rng(1234 + uint32_t(type));
    for (int trial = 0; trial < 8; ++trial) {
        // Awkward sizes, fresh each trial.
        const uint32_t w = 1 + rng() % 67, h = 1 + rng() % 41;
        GraphDesc g = twoInputs(type, w, h, 7, 3, 2);
        // Bindings given in the opposite order to the graph's inputs: matched by name.
        BindingPlan p = planBindings("MlPass 't'", g, {auxBinding(), colorBinding(Encoding::Srgb)}, TensorOutput{.encoding = Encoding::Srgb},
                                     {w, h}, {2 * w, 2 * h}, kAllImages);
        ASSERT_EQ(p.inputRanges.size(), 2u);
        const uint64_t colorBytes = g.values[g.inputs[0]].desc.requiredBytes(), auxBytes = g.values[g.inputs[1]].desc.requiredBytes();
        // The aux binding comes first, so its input is laid out first; the colour input follows
        // at the next 256-byte boundary.
        EXPECT_EQ(p.inputRanges[1].offset, 0u);
        EXPECT_EQ(p.inputRanges[1].size, auxBytes);
        EXPECT_EQ(p.inputRanges[0].offset % bridge::detail::kInputAlignment, 0u);
        EXPECT_GE(p.inputRanges[0].offset, auxBytes);
        EXPECT_LT(p.inputRanges[0].offset, auxBytes + bridge::detail::kInputAlignment);
        EXPECT_EQ(p.inputRanges[0].size, colorBytes);
        EXPECT_EQ(p.inputBytes, p.inputRanges[0].offset + colorBytes);

        // Slices: albedo, normal, depth (aux), then colour; images in first-use order.
        ASSERT_EQ(p.toTensor.sliceCount, 4u);
        EXPECT_EQ(p.toTensor.width, w);
        EXPECT_EQ(p.toTensor.height, h);
        ASSERT_EQ(p.sources.size(), 4u);
        EXPECT_EQ(p.sources[0], FrameImage::Albedo);
        EXPECT_EQ(p.sources[3], FrameImage::Color);
        const auto& normal = p.toTensor.slices[1];
        EXPECT_EQ(normal.image, 1u);
        EXPECT_EQ(normal.channelCount, 3u);
        EXPECT_EQ(normal.offset, 3u * w * h);  // NCHW: channel 3 of aux
        EXPECT_FLOAT_EQ(normal.scale[2], 0.5f);
        EXPECT_FLOAT_EQ(normal.bias[0], 0.5f);
        EXPECT_EQ(p.toTensor.slices[2].channelCount, 1u);
        EXPECT_EQ(p.toTensor.slices[2].offset, 6u * w * h);
        const auto& color = p.toTensor.slices[3];
        EXPECT_EQ(color.offset, p.inputRanges[0].offset / elem);  // in elements of the tensor's type
        EXPECT_EQ(color.encoding, 1u);
        EXPECT_EQ(color.strideC, w * h);
        EXPECT_EQ(color.strideH, w);
        EXPECT_EQ(color.strideW, 1u);
        for (uint32_t s = 0; s < p.toTensor.sliceCount; ++s) EXPECT_EQ(p.toTensor.slices[s].dtype, type == DataType::Float16 ? 1u : 0u);

        EXPECT_EQ(p.toImage.width, 2 * w);
        EXPECT_EQ(p.toImage.height, 2 * h);
        EXPECT_EQ(p.toImage.channelCount, 3u);
        EXPECT_EQ(p.toImage.encoding, 1u);
        EXPECT_EQ(p.outputBytes, g.values[g.outputs[0]].desc.requiredBytes());
        EXPECT_EQ(p.fp16, type == DataType::Float16);
    }
}

TEST_P(BindingPlanTest, ChannelsLastInputsGetTheirStrides) {
    const uint32_t w = 13, h = 5;
    GraphDesc g = twoInputs(GetParam(), w, h, 7, 4, 1, /*nhwcAux=*/true);
    BindingPlan p = planBindings("t", g, {colorBinding(), auxBinding()}, {}, {w, h}, {w, h}, kAllImages);
    const auto& depth = p.toTensor.slices[3];  // colour, albedo, normal, depth
    EXPECT_EQ(depth.strideC, 1u);
    EXPECT_EQ(depth.strideW, 7u);
    EXPECT_EQ(depth.strideH, 7u * w);
    EXPECT_EQ(depth.offset - p.toTensor.slices[1].offset, 6u);  // channel 6 of an NHWC tensor
    EXPECT_EQ(p.toImage.channelCount, 4u);
}

std::string precisionName(const ::testing::TestParamInfo<DataType>& p) { return p.param == DataType::Float16 ? "fp16" : "fp32"; }
INSTANTIATE_TEST_SUITE_P(Precision, BindingPlanTest, ::testing::Values(DataType::Float32, DataType::Float16), precisionName);

TEST(BindingPlanErrors, EachMismatchIsNamedWithItsCode) {
    const uint32_t w = 9, h = 7;
    GraphDesc g = twoInputs(DataType::Float32, w, h, 7, 3, 2);
    const std::vector<TensorInput> good = {colorBinding(), auxBinding()};
    struct Case {
        const char* what;
        std::function<void()> call;
        engine::ErrorCode code;
        const char* message;
    };
    auto plan = [&](std::vector<TensorInput> in, TensorOutput out, VkExtent2D ie, VkExtent2D oe, std::function<bool(FrameImage)> provided) {
        return [=] { planBindings("MlPass 'up'", g, in, out, ie, oe, provided); };
    };
    std::vector<TensorInput> misnamed = good;
    misnamed[1].name = "albedo";
    std::vector<TensorInput> fewChannels = good;
    fewChannels[1].channels.pop_back();
    std::vector<TensorInput> badLetters = good;
    badLetters[1].channels[2].components = "q";
    const Case cases[] = {
        {"one binding for two inputs", plan({colorBinding()}, {}, {w, h}, {2 * w, 2 * h}, kAllImages), engine::ErrorCode::InvalidModel,
         "MlPass 'up': the model has 2 input(s) ('color', 'aux') but 1 input binding(s) are given"},
        {"unknown input name", plan(misnamed, {}, {w, h}, {2 * w, 2 * h}, kAllImages), engine::ErrorCode::InvalidModel,
         "the model has no input 'albedo' (inputs: 'color', 'aux')"},
        {"channel count", plan(fewChannels, {}, {w, h}, {2 * w, 2 * h}, kAllImages), engine::ErrorCode::InvalidModel,
         "has 7 channel(s) but its binding reads 6"},
        {"input extent", plan(good, {}, {w + 1, h}, {2 * w, 2 * h}, kAllImages), engine::ErrorCode::InvalidModel,
         "is 9x7 (WxH) but the input images are 10x7"},
        {"output extent", plan(good, {}, {w, h}, {2 * w + 1, 2 * h}, kAllImages), engine::ErrorCode::InvalidModel,
         "is 18x14 (WxH) but the output image is 19x14"},
        {"unknown output", plan(good, {.name = "rgb"}, {w, h}, {2 * w, 2 * h}, kAllImages), engine::ErrorCode::InvalidModel,
         "the model has no output 'rgb'"},
        {"missing image", plan(good, {}, {w, h}, {2 * w, 2 * h}, [](FrameImage f) { return f != FrameImage::Normal; }),
         engine::ErrorCode::InvalidArgument, "reads the normal image, which this stage does not provide"},
        {"component letters", plan(badLetters, {}, {w, h}, {2 * w, 2 * h}, kAllImages), engine::ErrorCode::InvalidArgument,
         "'q' in components 'q' is not one of r g b a x y z w"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        engine::Error e = thrown(c.call);
        EXPECT_EQ(e.code(), c.code) << e.what();
        EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
}

TEST(BindingPlanErrors, ShaderLimitsOnImagesAndChannelRuns) {
    // 17 one-channel runs: image_to_tensor.comp takes 16.
    TensorInput runs{.name = "x"};
    for (int i = 0; i < 17; ++i) runs.channels.push_back({.image = FrameImage::Depth, .components = "r"});
    engine::Error e = thrown([&] { planBindings("p", oneInput(17, 6, 5), {runs}, {}, {6, 5}, {6, 5}, kAllImages); });
    EXPECT_EQ(e.code(), engine::ErrorCode::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("more than 16 image channel runs"), std::string::npos) << e.what();
    // Five distinct images: the shader has four sources.
    TensorInput five{.name = "x"};
    for (FrameImage f : {FrameImage::Color, FrameImage::Albedo, FrameImage::Normal, FrameImage::Depth, FrameImage::Motion})
        five.channels.push_back({.image = f, .components = "r"});
    e = thrown([&] { planBindings("p", oneInput(5, 6, 5), {five}, {}, {6, 5}, {6, 5}, kAllImages); });
    EXPECT_NE(std::string(e.what()).find("more than 4 distinct images"), std::string::npos) << e.what();
    // Sixteen runs over four images fit.
    TensorInput sixteen{.name = "x"};
    for (int i = 0; i < 16; ++i) sixteen.channels.push_back({.image = FrameImage(i % 4), .components = "r"});
    BindingPlan p = planBindings("p", oneInput(16, 6, 5), {sixteen}, {}, {6, 5}, {6, 5}, kAllImages);
    EXPECT_EQ(p.toTensor.sliceCount, 16u);
    EXPECT_EQ(p.sources.size(), 4u);
    EXPECT_EQ(p.toTensor.slices[15].offset, 15u * 30u);
}

TEST(BindingPlanErrors, OutputChannelsAndShape) {
    // A 2-channel output has no image form; a rank-3 output is not an image tensor.
    GraphDesc two = twoInputs(DataType::Float32, 8, 8, 7, 2, 1);
    engine::Error e = thrown([&] { planBindings("p", two, {colorBinding(), auxBinding()}, {}, {8, 8}, {8, 8}, kAllImages); });
    EXPECT_EQ(e.code(), engine::ErrorCode::InvalidModel);
    EXPECT_NE(std::string(e.what()).find("has 2 channels; the output image takes 1, 3 or 4"), std::string::npos) << e.what();
}

}  // namespace
