// Compiled graphs on the GPU against the whole-graph CPU reference: fused and unfused, aliased
// and not, fp32 and fp16, with junk-filled temporaries so an intermediate overwritten while
// still live shows up as a wrong output.
#include "op_test.h"

#include "mlplugin/graph.h"

#include <algorithm>
#include <cmath>
#include <random>

using namespace mlplugin;

namespace {

std::vector<float> randomData(size_t n, uint32_t seed, float scale) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-scale, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = u(rng);
    return v;
}

struct Net {
    GraphDesc g;
    DataType type;
    uint32_t seed = 100;

    TensorDesc t(std::initializer_list<uint32_t> s) { return TensorDesc::make(type, s); }
    ValueId weights(const std::string& name, std::initializer_list<uint32_t> sizes) {
        size_t n = 1;
        for (uint32_t s : sizes) n *= s;
        size_t fanIn = n / *sizes.begin();
        return g.addConstant(name, TensorDesc::make(DataType::Float32, sizes), randomData(n, seed++, 1.5f / float(std::sqrt(double(fanIn)))));
    }
    ValueId conv(ValueId x, uint32_t inC, uint32_t outC, uint32_t k, const std::string& name, uint32_t stride = 1) {
        ValueId w = weights(name + ".w", {outC, inC, k, k});
        ValueId b = weights(name + ".b", {outC});
        uint32_t p = k / 2;
        ConvolutionDesc c{.name = name, .strides = {stride, stride}, .padBegin = {p, p}, .padEnd = {p, p}};
        return g.addNode(c, {x, w, b}).value()[0];
    }
    ValueId act(ValueId x, Activation a, const std::string& name) {
        return g.addNode(ElementWiseDesc{.name = name, .op = ElementWiseOp::Activation, .activation = a}, {x}).value()[0];
    }
};

GraphDesc espcn(DataType type, uint32_t h, uint32_t w) {
    Net n{{}, type};
    ValueId x = n.g.addInput("lowres", n.t({1, 3, h, w}));
    ValueId y = n.act(n.conv(x, 3, 16, 5, "conv1"), tanhActivation(), "tanh1");
    y = n.act(n.conv(y, 16, 8, 3, "conv2"), tanhActivation(), "tanh2");
    y = n.conv(y, 8, 12, 3, "conv3");
    y = n.g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2}, {y}).value()[0];
    n.g.markOutput(y);
    return n.g;
}

// ESPCN's real widths at scale s: 5x5 3->64 + tanh, 3x3 64->32 + tanh, 3x3 32->3 s^2, depth-to-space
// s. `layers` 1..4 stops early (4: the whole network; 3: without the shuffle).
GraphDesc espcnFull(DataType type, uint32_t h, uint32_t w, uint32_t scale, uint32_t layers = 4) {
    Net n{{}, type};
    ValueId y = n.g.addInput("lowres", n.t({1, 3, h, w}));
    if (layers >= 1) y = n.act(n.conv(y, 3, 64, 5, "conv1"), tanhActivation(), "tanh1");
    if (layers >= 2) y = n.act(n.conv(y, 64, 32, 3, "conv2"), tanhActivation(), "tanh2");
    if (layers >= 3) y = n.conv(y, 32, 3 * scale * scale, 3, "conv3");
    if (layers >= 4) y = n.g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = scale}, {y}).value()[0];
    n.g.markOutput(y);
    return n.g;
}

// Strided conv down, transposed conv up, concat with the skip, add, and a second output.
GraphDesc unet(DataType type) {
    Net n{{}, type};
    ValueId x = n.g.addInput("x", n.t({1, 4, 16, 12}));  // channel slices stay 256-byte aligned in fp16 too
    ValueId e1 = n.act(n.conv(x, 4, 8, 3, "enc1"), relu(), "relu1");
    ValueId down = n.act(n.conv(e1, 8, 8, 3, "down", 2), relu(), "relu2");
    ValueId mid = n.act(n.conv(down, 8, 8, 3, "mid"), leakyRelu(0.1f), "lrelu");
    ValueId upW = n.weights("up.w", {8, 8, 2, 2});
    ConvolutionDesc up{.name = "up", .transposed = true, .strides = {2, 2}};
    ValueId u = n.g.addNode(up, {mid, upW}).value()[0];
    ValueId cat = n.g.addNode(ConcatDesc{.name = "cat", .axis = 1}, {u, e1}).value()[0];
    ValueId dec = n.act(n.conv(cat, 16, 4, 3, "dec1"), relu(), "relu3");
    dec = n.conv(dec, 4, 4, 3, "dec2");
    ValueId sum = n.g.addNode(ElementWiseDesc{.name = "skip", .op = ElementWiseOp::Add}, {dec, x}).value()[0];
    n.g.markOutput(sum);
    ValueId pooled = n.g.addNode(PoolingDesc{.name = "gap", .type = PoolingType::Average, .global = true}, {mid}).value()[0];
    n.g.markOutput(pooled);
    return n.g;
}

}  // namespace

class GraphTest : public testsupport::VulkanTest, public ::testing::WithParamInterface<DataType> {};

TEST_P(GraphTest, EspcnUpscalerMatchesReference) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    GraphDesc g = espcn(GetParam(), 11, 13);
    optest::checkGraph(g, {});
    optest::checkGraph(g, {}, GraphCompileFlagDisableFusion | GraphCompileFlagDisableAliasing);
}

TEST_P(GraphTest, UnetWithSkipsMatchesReferenceAndAliases) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    GraphDesc g = unet(GetParam());
    // dec1 + dec2 would become one convolution chain with nothing left to alias; this is about aliasing.
    auto compiled = compileGraph(optest::device(), g, GraphCompileFlagDisableConvChains);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_GE(compiled->report.fusions.size(), 5u);  // 4 activations + the concat
    auto fused = [&](const std::string& text) {
        return std::any_of(compiled->report.fusions.begin(), compiled->report.fusions.end(),
                           [&](const std::string& f) { return f.find(text) != std::string::npos; });
    };
    std::string all;
    for (const std::string& f : compiled->report.fusions) all += "\n  " + f;
    SCOPED_TRACE("fusions:" + all);
    // The concat disappears either way: its producers write slices of its output, or (fp16 on
    // the tensor-core kernels) the next convolution's loads read both parts where they are;
    // then there is no concat output to alias either.
    if (fused("concat 'cat' -> read by the convolution's loads")) {
        EXPECT_LE(compiled->report.temporaryBytes, compiled->report.temporaryBytesNaive);
    } else {
        EXPECT_TRUE(fused("concat 'cat' -> removed"));
        EXPECT_LT(compiled->report.temporaryBytes, compiled->report.temporaryBytesNaive);
    }
    optest::checkGraph(g, {});
    optest::checkGraph(g, {}, GraphCompileFlagDisableFusion);
}

// ESPCN's real widths at scales 2, 3 and 4 (12, 27 and 48 channels before the shuffle, the
// shuffle folded into the last convolution's store), at an odd size, with and without fp16
// arithmetic (on the tensor cores that selects other kernels). Prefixes of the network localise
// a failure to a layer.
TEST_P(GraphTest, EspcnAtEveryScaleMatchesReference) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    // 29 x 47 inputs: the x3 output holds an odd number of fp16 values.
    for (uint32_t scale : {2u, 3u, 4u})
        for (uint32_t layers : {1u, 2u, 3u, 4u}) {
            if (scale != 3 && layers != 4) continue;
            for (uint32_t flags : {0u, uint32_t(ExecutionFlagAllowHalfPrecisionComputation)}) {
                if (flags && GetParam() != DataType::Float16) continue;
                SCOPED_TRACE("x" + std::to_string(scale) + ", " + std::to_string(layers) + " layers" + (flags ? ", fp16 arithmetic" : ""));
                optest::RunOptions options;
                options.executionFlags = flags;
                optest::checkGraph(espcnFull(GetParam(), 29, 47, scale, layers), options);
            }
        }
}

INSTANTIATE_TEST_SUITE_P(Precision, GraphTest, ::testing::Values(DataType::Float32, DataType::Float16),
                         [](const auto& p) { return std::string(toString(p.param)); });

TEST_P(GraphTest, ConcatIntoAGraphOutputWritesSlicesInPlace) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    Net n{{}, GetParam()};
    ValueId x = n.g.addInput("x", n.t({1, 3, 16, 16}));
    ValueId a = n.act(n.conv(x, 3, 4, 3, "a"), relu(), "ra");
    ValueId b = n.conv(x, 3, 2, 1, "b");
    ValueId cat = n.g.addNode(ConcatDesc{.name = "cat", .axis = 1}, {a, b}).value()[0];
    n.g.markOutput(cat);
    auto compiled = compileGraph(optest::device(), n.g);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(compiled->report.dispatchablesOut, 2u);
    optest::checkGraph(n.g, {});
}

// Graph input and output stored channels-last by the caller (GraphDesc::setLayout): every node
// that touches them reads and writes NHWC, fused or not, at odd sizes and channel counts. Checked
// against the same graph in packed NCHW, element by element through each side's own layout (a
// node left on the old layout reads and writes the wrong elements).
TEST_P(GraphTest, ChannelsLastGraphInputsAndOutputs) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    const uint32_t c = 20, h = 13, w = 11;
    auto nhwc = [&](uint32_t ch) { return TensorDesc::strided(GetParam(), {1, ch, h, w}, {h * w * ch, 1, w * ch, ch}); };
    auto build = [&](bool channelsLast, bool deep) {
        Net n{{}, GetParam()};
        ValueId x = n.g.addInput("x", n.t({1, c, h, w}));
        // Deep: conv, ReLU, conv 1x1, then conv 3x3 + ReLU writing the output (a fused activation).
        ValueId y = n.conv(x, c, 12, 1, "only");
        if (deep) {
            y = n.conv(n.act(n.conv(x, c, 16, 3, "body"), relu(), "relu"), 16, 16, 1, "mid");
            y = n.act(n.conv(y, 16, 12, 3, "last"), relu(), "last relu");
        }
        n.g.markOutput(y);
        if (channelsLast) {
            EXPECT_TRUE(n.g.setLayout(x, nhwc(c)).ok());
            EXPECT_TRUE(n.g.setLayout(y, nhwc(12)).ok());
        }
        return n.g;
    };
    const HostTensor packed = optest::randomTensor(TensorDesc::make(GetParam(), {1, c, h, w}), 7);
    HostTensor strided{nhwc(c), std::vector<double>(size_t(h) * w * c)};
    for (uint32_t k = 0; k < c; ++k)
        for (uint32_t i = 0; i < h * w; ++i) strided.data[size_t(i) * c + k] = packed.data[size_t(k) * h * w + i];
    for (bool deep : {false, true})
        for (uint32_t flags : {0u, uint32_t(GraphCompileFlagDisableFusion | GraphCompileFlagDisableAliasing)}) {
            SCOPED_TRACE(std::string(deep ? "four layers" : "one conv") + (flags ? ", unfused" : ""));
            GraphDesc ref = build(false, deep), g = build(true, deep);
            auto want = referenceEvaluateGraph(ref, {packed});
            ASSERT_TRUE(want.ok()) << want.error().message;
            auto compiled = compileGraph(optest::device(), g, flags);
            ASSERT_TRUE(compiled.ok()) << compiled.error().message;
            std::vector<HostTensor> got = optest::runGraph(*compiled, g, {strided}, {});
            ASSERT_EQ(got.size(), 1u);
            const double tolerance = GetParam() == DataType::Float16 ? 2e-2 : 1e-4;
            double worst = 0;
            for (uint32_t k = 0; k < 12; ++k)
                for (uint32_t i = 0; i < h * w; ++i)
                    worst = std::max(worst, std::fabs(got[0].data[size_t(i) * 12 + k] - (*want)[0].data[size_t(k) * h * w + i]));
            EXPECT_LT(worst, tolerance);
        }
}

TEST_P(GraphTest, ElementWiseChainsMatchTheUnfusedReference) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    Net n{{}, GetParam()};
    ValueId x = n.g.addInput("x", n.t({2, 5, 3, 7}));
    ValueId y = n.g.addInput("y", n.t({1, 5, 1, 7}));  // broadcasts
    ValueId k = n.g.addConstant("k", TensorDesc::make(DataType::Float32, {1, 5, 1, 1}), {0.5f, 2.0f, -1.0f, 0.25f, 1.5f});
    ValueId m = n.g.addNode(ElementWiseDesc{.name = "mul", .op = ElementWiseOp::Multiply}, {x, k}).value()[0];
    ValueId s = n.g.addNode(ElementWiseDesc{.name = "sub", .op = ElementWiseOp::Subtract, .inputScaleBias = ScaleBias{0.5f, 0.25f}}, {m, y}).value()[0];
    ValueId t = n.g.addNode(ElementWiseDesc{.name = "tanh", .op = ElementWiseOp::Activation, .activation = tanhActivation()}, {s}).value()[0];
    ValueId c = n.g.addNode(ElementWiseDesc{.name = "clip", .op = ElementWiseOp::Clip, .clipMin = -0.5f, .clipMax = 0.6f}, {t}).value()[0];
    ValueId p = n.g.addNode(ElementWiseDesc{.name = "max", .op = ElementWiseOp::Max}, {c, x}).value()[0];
    n.g.markOutput(p);
    auto compiled = compileGraph(optest::device(), n.g);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(compiled->report.dispatchablesOut, 2u);  // mul+sub(+tanh fused)+clip, then max
    optest::checkGraph(n.g, {});
}

// 8-D chains whose inputs broadcast along alternating dims: the fused kernel's loop keeps 8
// dims, the outer 3 as specialization constants.
TEST_P(GraphTest, EightDimensionalElementWiseChains) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    Net n{{}, GetParam()};
    ValueId x = n.g.addInput("x", n.t({2, 1, 2, 1, 2, 1, 2, 1}));
    ValueId y = n.g.addInput("y", n.t({1, 3, 1, 3, 1, 3, 1, 3}));
    ValueId z = n.g.addInput("z", n.t({2, 3, 1, 1, 2, 3, 1, 1}));
    ValueId a = n.g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {x, y}).value()[0];
    ValueId m = n.g.addNode(ElementWiseDesc{.name = "mul", .op = ElementWiseOp::Multiply}, {a, z}).value()[0];
    ValueId t = n.g.addNode(ElementWiseDesc{.name = "tanh", .op = ElementWiseOp::Activation, .activation = tanhActivation()}, {m}).value()[0];
    n.g.markOutput(t);
    auto compiled = compileGraph(optest::device(), n.g);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(compiled->report.dispatchablesOut, 1u);
    optest::checkGraph(n.g, {});
}

// Transposed convolutions become a sub-pixel convolution + depth-to-space (graph_fusion.cpp):
// strides 2 and 3, kernels 3-9, pads with and without a phase offset, output padding, bias and
// fused activation, several output channels, batch 2; and shapes the rewrite leaves alone (kernel
// = stride, an output that is not whole s x s blocks) next to them.
TEST_P(GraphTest, TransposedConvolutionsMatchTheReference) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    struct Case {
        uint32_t inC, outC, k, stride, pad, outputPadding;
        bool bias, rewritten;
    };
    const Case cases[] = {
        {6, 1, 9, 2, 4, 1, true, true},    // FSRCNN's last layer
        {5, 3, 4, 2, 1, 0, true, true},    // k4 s2 p1 (DCGAN): phase offset, one extra tap
        {4, 2, 3, 2, 1, 1, false, true},   // k3 s2 p1 op1
        {3, 2, 7, 3, 3, 2, true, true},    // stride 3, no phase offset
        {3, 2, 5, 3, 2, 2, true, true},    // stride 3, offset 2
        {4, 4, 2, 2, 0, 0, true, false},   // kernel = stride: left alone
        {4, 2, 3, 2, 1, 0, true, false},   // 2H - 1 rows: not whole blocks, left alone
    };
    for (const Case& c : cases) {
        SCOPED_TRACE("k" + std::to_string(c.k) + " s" + std::to_string(c.stride) + " p" + std::to_string(c.pad) + " op" +
                     std::to_string(c.outputPadding) + " " + std::to_string(c.inC) + "->" + std::to_string(c.outC));
        Net n{{}, GetParam()};
        ValueId x = n.g.addInput("x", n.t({2, c.inC, 5, 7}));
        ValueId w = n.weights("w", {c.inC, c.outC, c.k, c.k});
        std::vector<ValueId> ins{x, w};
        if (c.bias) ins.push_back(n.weights("b", {c.outC}));
        ConvolutionDesc up{.name = "up", .transposed = true, .strides = {c.stride, c.stride}, .padBegin = {c.pad, c.pad},
                           .padEnd = {c.pad, c.pad}, .outputPadding = {c.outputPadding, c.outputPadding},
                           .activation = leakyRelu(0.2f)};
        n.g.markOutput(n.g.addNode(up, ins).value()[0]);
        auto compiled = compileGraph(optest::device(), n.g);
        ASSERT_TRUE(compiled.ok()) << compiled.error().message;
        bool rewritten = std::any_of(compiled->report.fusions.begin(), compiled->report.fusions.end(),
                                     [](const std::string& f) { return f.find("sub-pixel convolution") != std::string::npos; });
        EXPECT_EQ(rewritten, c.rewritten);
        optest::checkGraph(n.g, {});
    }
}

class GraphCompile : public testsupport::VulkanTest {};

// --- fusions into the tensor-core implicit GEMM (graph_fusion.cpp; fp16 on VK_NV_cooperative_matrix) ---

bool coopFp16() { return optest::fp16Supported() && optest::device().capabilities().cooperativeMatrixNV; }

size_t fusionsContaining(const CompiledGraph& c, const std::string& text) {
    return size_t(std::count_if(c.report.fusions.begin(), c.report.fusions.end(), [&](const std::string& f) { return f.find(text) != std::string::npos; }));
}

// The graph against the reference with fp32 arithmetic and with fp16 arithmetic allowed (the
// kernels' F16_ARITH builds).
void checkBothArithmetics(const GraphDesc& g) {
    optest::checkGraph(g, {});
    optest::RunOptions half;
    half.executionFlags = ExecutionFlagAllowHalfPrecisionComputation;
    optest::checkGraph(g, half);
}

ValueId prelu(Net& n, ValueId x, uint32_t channels, const std::string& name) {
    ValueId slope = n.g.addConstant(name + ".slope", TensorDesc::make(DataType::Float32, {1, channels, 1, 1}), randomData(channels, n.seed++, 0.5f));
    return n.g.addNode(ElementWiseDesc{.name = name, .op = ElementWiseOp::PRelu}, {x, slope}).value()[0];
}

ValueId nearest(Net& n, ValueId x, float scale, const std::string& name) {
    return n.g.addNode(ResampleDesc{.name = name, .mode = ResampleMode::Nearest, .scales = {scale, scale}}, {x}).value()[0];
}

// SRVGG-compact shaped (realesr-animevideov3 at small scale): conv + PReLU layers, a last conv
// whose pixel shuffle and the nearest-upsampled input's add fold into its store.
GraphDesc srvggSmall(DataType type, uint32_t h, uint32_t w, uint32_t channels) {
    Net n{{}, type};
    ValueId x = n.g.addInput("x", n.t({1, 3, h, w}));
    ValueId y = prelu(n, n.conv(x, 3, channels, 3, "first"), channels, "p0");
    for (int i = 1; i <= 3; ++i) y = prelu(n, n.conv(y, channels, channels, 3, "body" + std::to_string(i)), channels, "p" + std::to_string(i));
    y = n.g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2, .order = DepthSpaceOrder::CRD}, {n.conv(y, channels, 12, 3, "last")}).value()[0];
    ValueId base = nearest(n, x, 2.0f, "base");
    n.g.markOutput(n.g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {y, base}).value()[0]);
    return n.g;
}

// OIDN shaped (small): max pools after encoder convs, decoders reading concat(nearest x2 of the
// level below, the skip), the last concat with the 9-channel graph input (channels not a multiple
// of 8: per-element loads for that part).
GraphDesc oidnSmall(DataType type, uint32_t h, uint32_t w) {
    Net n{{}, type};
    auto conv = [&](ValueId x, uint32_t i, uint32_t o, const std::string& name) { return n.act(n.conv(x, i, o, 3, name), relu(), name + ".relu"); };
    auto pool = [&](ValueId x, const std::string& name) {
        return n.g.addNode(PoolingDesc{.name = name, .type = PoolingType::Max, .window = {2, 2}, .strides = {2, 2}}, {x}).value()[0];
    };
    auto cat = [&](ValueId a, ValueId b, const std::string& name) { return n.g.addNode(ConcatDesc{.name = name, .axis = 1}, {a, b}).value()[0]; };
    ValueId x = n.g.addInput("x", n.t({1, 9, h, w}));
    ValueId p1 = pool(conv(conv(x, 9, 16, "e0"), 16, 16, "e1"), "pool1");
    ValueId p2 = pool(conv(p1, 16, 24, "e2"), "pool2");
    ValueId y = conv(p2, 24, 32, "e3");
    y = conv(cat(nearest(n, y, 2.0f, "up2"), p1, "cat2"), 48, 24, "d2");
    y = conv(cat(nearest(n, y, 2.0f, "up1"), x, "cat1"), 33, 16, "d1");
    n.g.markOutput(n.conv(y, 16, 3, 3, "out"));
    return n.g;
}

TEST_F(GraphCompile, SrvggEpiloguesFoldIntoTheConvolutions) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: these fusions need conv2d_igemm";
    for (uint32_t channels : {16u, 24u}) {
        SCOPED_TRACE(channels);
        GraphDesc g = srvggSmall(DataType::Float16, 13, 37, channels);
        auto compiled = compileGraph(optest::device(), g);
        ASSERT_TRUE(compiled.ok()) << compiled.error().message;
        EXPECT_EQ(fusionsContaining(*compiled, "PReLU in the convolution's epilogue"), 4u);
        EXPECT_EQ(fusionsContaining(*compiled, "residual add in the convolution's epilogue (nearest x2"), 1u);
        EXPECT_EQ(compiled->report.dispatchablesOut, 5u) << "one dispatch per convolution";
        checkBothArithmetics(g);
    }
}

// Winograd F(2x2, 3x3) (conv2d_winograd, a tuning candidate only) forced through a tuning table
// on every convolution that lists the tile: the first and body convolutions with their PReLU
// epilogues (the last one keeps the implicit GEMM: Winograd declines its depth-to-space and
// residual). The network must still match the reference within the fp16 tolerance.
TEST_F(GraphCompile, SrvggOnWinogradTiles) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: conv2d_winograd needs them";
    Device& dev = optest::device();
    GraphDesc g = srvggSmall(DataType::Float16, 13, 37, 24);
    for (uint32_t flags : {0u, uint32_t(ExecutionFlagAllowHalfPrecisionComputation)}) {
        auto plain = compileGraph(dev, g, flags);
        ASSERT_TRUE(plain.ok()) << plain.error().message;
        std::vector<std::string> tiles;
        for (const TunableConvolution& t : plain->report.tuning)
            for (const std::string& c : t.candidates)
                if (c.starts_with("winograd_") && std::find(tiles.begin(), tiles.end(), c) == tiles.end()) tiles.push_back(c);
        EXPECT_FALSE(tiles.empty());
        for (const std::string& tile : tiles) {
            SCOPED_TRACE(tile + (flags ? " (fp16 arithmetic)" : ""));
            auto table = std::make_shared<TuningTable>();
            for (const TunableConvolution& t : plain->report.tuning)
                if (std::find(t.candidates.begin(), t.candidates.end(), tile) != t.candidates.end()) table->set(t.key, {tile, 0});
            dev.setTuningTable(table);
            auto tuned = compileGraph(dev, g, flags);
            ASSERT_TRUE(tuned.ok()) << tuned.error().message;
            size_t taken = size_t(std::count_if(tuned->report.tuning.begin(), tuned->report.tuning.end(),
                                                [&](const TunableConvolution& t) { return t.chosen == tile; }));
            EXPECT_GE(taken, 4u) << "the first and the three body convolutions";
            EXPECT_EQ(fusionsContaining(*tuned, "PReLU in the convolution's epilogue"), 4u);
            optest::RunOptions options;
            options.executionFlags = flags;
            optest::checkGraph(g, options);
            dev.setTuningTable(nullptr);
        }
    }
}

TEST_F(GraphCompile, UnetPoolsConcatsAndUpsamplesFoldIntoTheConvolutions) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: these fusions need conv2d_igemm";
    GraphDesc g = oidnSmall(DataType::Float16, 20, 36);
    auto compiled = compileGraph(optest::device(), g);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(fusionsContaining(*compiled, "max pool in the convolution's store"), 2u);
    EXPECT_EQ(fusionsContaining(*compiled, "read by the convolution's loads (nearest x2)"), 2u);
    EXPECT_EQ(compiled->report.dispatchablesOut, 7u) << "one dispatch per convolution";
    optest::checkGraph(g, {});
    optest::checkGraph(g, {}, GraphCompileFlagDisableChannelsLast);
    optest::RunOptions half;
    half.executionFlags = ExecutionFlagAllowHalfPrecisionComputation;
    optest::checkGraph(g, half);
}

// Odd sizes: the pool drops the last row and column (floor), partial tiles everywhere.
// The shipped single-frame upscaler's shape on the tensor cores: head, body, then the tail conv ->
// depth-to-space, + the bilinear x2 of the input, clip to [0, 1], all in the tail's store, at odd
// sizes; against the unfused reference with and without fp16 arithmetic.
TEST_F(GraphCompile, BilinearResidualAndClipInTheStore) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: these fusions need conv2d_igemm";
    Net n{{}, DataType::Float16};
    ValueId x = n.g.addInput("x", n.t({1, 3, 13, 21}));
    ValueId body = n.act(n.conv(n.act(n.conv(x, 3, 16, 3, "head"), relu(), "relu"), 16, 16, 3, "body"), relu(), "relu 2");
    ValueId tail = n.g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2}, {n.conv(body, 16, 12, 3, "tail")}).value()[0];
    ValueId base = n.g.addNode(ResampleDesc{.name = "base", .mode = ResampleMode::Linear, .transform = CoordinateTransform::PytorchHalfPixel,
                                            .scales = {2.0f, 2.0f}}, {x}).value()[0];
    ValueId sum = n.g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {base, tail}).value()[0];
    n.g.markOutput(n.g.addNode(ElementWiseDesc{.name = "clip", .op = ElementWiseOp::Clip, .clipMin = 0.0f, .clipMax = 1.0f}, {sum}).value()[0]);
    auto compiled = compileGraph(optest::device(), n.g);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(fusionsContaining(*compiled, "residual add in the convolution's epilogue (bilinear x2"), 1u);
    EXPECT_EQ(fusionsContaining(*compiled, "in its read), clipped"), 1u);
    EXPECT_EQ(compiled->report.dispatchablesOut, 3u) << "one dispatch per convolution";
    checkBothArithmetics(n.g);
}

// A VDSR/EDSR-style global skip through a bicubic x2 of the input (PyTorch's
// F.interpolate(mode='bicubic') exported as Resize cubic): the resize runs as its own dispatch
// (no convolution reads through a cubic filter) and the graph matches the unfused reference, at
// odd sizes, fp32 and fp16.
TEST_F(GraphCompile, BicubicResidualRunsAsItsOwnDispatch) {
    for (DataType type : {DataType::Float32, DataType::Float16}) {
        if (type == DataType::Float16 && !optest::fp16Supported()) continue;
        SCOPED_TRACE(type == DataType::Float16 ? "fp16" : "fp32");
        Net n{{}, type};
        ValueId x = n.g.addInput("x", n.t({1, 3, 9, 13}));
        ValueId body = n.act(n.conv(x, 3, 8, 3, "head"), relu(), "relu");
        ValueId tail = n.g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2}, {n.conv(body, 8, 12, 3, "tail")}).value()[0];
        ValueId base = n.g.addNode(ResampleDesc{.name = "base", .mode = ResampleMode::Cubic, .transform = CoordinateTransform::HalfPixel,
                                                .scales = {2.0f, 2.0f}}, {x}).value()[0];
        ValueId sum = n.g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {base, tail}).value()[0];
        n.g.markOutput(n.g.addNode(ElementWiseDesc{.name = "clip", .op = ElementWiseOp::Clip, .clipMin = 0.0f, .clipMax = 1.0f}, {sum}).value()[0]);
        auto compiled = compileGraph(optest::device(), n.g);
        ASSERT_TRUE(compiled.ok()) << compiled.error().message;
        EXPECT_EQ(fusionsContaining(*compiled, "'base'"), 0u) << "the cubic resize is folded nowhere";
        EXPECT_GE(compiled->report.dispatchablesOut, 3u) << "two convolutions and the resize";
        checkBothArithmetics(n.g);
    }
}

// conv2d_igemm's fragment stores (FRAG_STORE: 16-channel fragments of channels-last outputs
// stored straight from the accumulators) with every epilogue they take: bias, ReLU, a residual
// read 1:1, a clip and a per-channel PReLU, at widths that leave a partial fragment at the right
// edge (which goes through the patch instead), with and without fp16 arithmetic. (The tiles with
// fp16 accumulators, which only a tuning table picks, take fragment stores in
// Convolution.ImplicitGemmEveryCandidate.)
TEST_F(GraphCompile, WholeFragmentStoresTakeEveryEpilogue) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: these fusions need conv2d_igemm";
    for (auto [h, w] : {std::pair{13u, 37u}, std::pair{16u, 32u}}) {
        SCOPED_TRACE(std::to_string(h) + "x" + std::to_string(w));
        Net n{{}, DataType::Float16};
        ValueId x = n.g.addInput("x", n.t({1, 16, h, w}));
        ValueId a = n.act(n.conv(x, 16, 32, 3, "a"), relu(), "relu");
        ValueId b = prelu(n, n.conv(a, 32, 32, 3, "b"), 32, "prelu");
        ValueId sum = n.g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {n.conv(b, 32, 32, 1, "c"), a}).value()[0];
        ValueId clipped = n.g.addNode(ElementWiseDesc{.name = "clip", .op = ElementWiseOp::Clip, .clipMin = -0.25f, .clipMax = 0.5f}, {sum}).value()[0];
        n.g.markOutput(n.conv(clipped, 32, 3, 3, "out"));
        auto compiled = compileGraph(optest::device(), n.g);
        ASSERT_TRUE(compiled.ok()) << compiled.error().message;
        EXPECT_EQ(fusionsContaining(*compiled, "PReLU in the convolution's epilogue"), 1u);
        EXPECT_EQ(fusionsContaining(*compiled, "residual add in the convolution's epilogue"), 1u);
        EXPECT_EQ(compiled->report.dispatchablesOut, 4u) << "one dispatch per convolution";
        checkBothArithmetics(n.g);
    }
}

// A 1x1 convolution that alone reads a convolution's activated output runs in that
// convolution's epilogue (conv2d_igemm PROJ_C): 32 channels-last outputs in whole fragments,
// three NCHW outputs (an RGB head with its own sigmoid) element by element after a PReLU, 16
// channels widened to 64, at widths with a partial fragment; against the unfused reference with and without fp16
// arithmetic. A 1x1 whose input has another reader stays a convolution of its own.
TEST_F(GraphCompile, PointwiseHeadsRunInTheEpilogue) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: this fusion needs conv2d_igemm";
    for (auto [h, w] : {std::pair{13u, 37u}, std::pair{16u, 32u}}) {
        SCOPED_TRACE(std::to_string(h) + "x" + std::to_string(w));
        Net n{{}, DataType::Float16};
        ValueId x = n.g.addInput("x", n.t({1, 16, h, w}));
        ValueId params = n.conv(n.act(n.conv(x, 16, 32, 3, "a"), relu(), "relu"), 32, 32, 1, "params");
        n.g.markOutput(params);
        ASSERT_TRUE(n.g.setLayout(params, TensorDesc::strided(DataType::Float16, {1, 32, h, w}, {h * w * 32, 1, w * 32, 32})).ok());
        ValueId rgb = n.act(n.conv(prelu(n, n.conv(x, 16, 32, 3, "b"), 32, "prelu"), 32, 3, 1, "rgb"), sigmoid(), "sigmoid");
        n.g.markOutput(rgb);
        n.g.markOutput(n.conv(n.act(n.conv(x, 16, 16, 3, "c"), leakyRelu(0.1f), "lrelu"), 16, 64, 1, "wide"));
        auto compiled = compileGraph(optest::device(), n.g);
        ASSERT_TRUE(compiled.ok()) << compiled.error().message;
        EXPECT_EQ(fusionsContaining(*compiled, "1x1 convolution in the convolution's epilogue"), 3u);
        EXPECT_EQ(compiled->report.dispatchablesOut, 3u) << "one dispatch per 3x3 convolution";
        checkBothArithmetics(n.g);
    }
    Net n{{}, DataType::Float16};
    ValueId x = n.g.addInput("x", n.t({1, 16, 9, 21}));
    ValueId shared = n.act(n.conv(x, 16, 32, 3, "a"), relu(), "relu");
    n.g.markOutput(n.conv(shared, 32, 16, 1, "head"));
    n.g.markOutput(n.conv(shared, 32, 16, 3, "other"));
    auto compiled = compileGraph(optest::device(), n.g);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(fusionsContaining(*compiled, "1x1 convolution in the convolution's epilogue"), 0u) << "its input has two readers";
    optest::checkGraph(n.g, {});
}

// Every tile a tuner may pick for a projected convolution (fp32 and fp16 accumulators, B staged
// whole or by rows, 16- and 32-pixel-wide tiles), forced through a tuning table: the outputs must
// match the reference whatever the table says.
TEST_F(GraphCompile, PointwiseHeadsOnEveryCandidateTile) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: this fusion needs conv2d_igemm";
    Device& dev = optest::device();
    Net n{{}, DataType::Float16};
    ValueId x = n.g.addInput("x", n.t({2, 16, 19, 45}));
    ValueId params = n.conv(n.act(n.conv(x, 16, 32, 3, "a"), relu(), "relu"), 32, 32, 1, "params");
    n.g.markOutput(params);
    ASSERT_TRUE(n.g.setLayout(params, TensorDesc::strided(DataType::Float16, {2, 32, 19, 45}, {19 * 45 * 32, 1, 45 * 32, 32})).ok());
    n.g.markOutput(n.conv(n.act(n.conv(x, 16, 16, 3, "b"), relu(), "relu b"), 16, 3, 1, "rgb"));
    const uint32_t flags = ExecutionFlagAllowHalfPrecisionComputation;
    auto plain = compileGraph(dev, n.g, flags);
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    size_t projected = 0;
    for (const TunableConvolution& t : plain->report.tuning) {
        if (t.key.find(" proj") == std::string::npos) continue;
        ++projected;
        for (const std::string& tile : t.candidates) {
            SCOPED_TRACE(t.key + ": " + tile);
            auto table = std::make_shared<TuningTable>();
            table->set(t.key, {tile, 0});
            dev.setTuningTable(table);
            auto tuned = compileGraph(dev, n.g, flags);
            ASSERT_TRUE(tuned.ok()) << tuned.error().message;
            EXPECT_EQ(fusionsContaining(*tuned, "1x1 convolution in the convolution's epilogue"), 2u);
            optest::RunOptions options;
            options.executionFlags = flags;
            optest::checkGraph(n.g, options);
            dev.setTuningTable(nullptr);
        }
    }
    EXPECT_EQ(projected, 2u);
}

// Conv -> conv intermediates padded to whole 16-channel fragments (graph_pad.cpp): exact against
// the unpadded reference, forced on any device, at odd sizes, fp32 and fp16, through activations
// whose value at 0 is not 0 (sigmoid: the new channels hold 0.5, which zero filter columns must
// cancel). Padded: 24 -> 32 twice (one feeding a 1x1 head) and 40 -> 48. Left alone: 20 channels
// (32 would add more than half), a graph output, and an intermediate an add also reads. On a
// device with fp16 tensor cores the default compile pads the same three, and the flag turns it off.
TEST_F(GraphCompile, ChannelPaddingToWholeFragmentsIsExact) {
    auto build = [](DataType type) {
        Net n{{}, type};
        ValueId x = n.g.addInput("x", n.t({1, 5, 13, 11}));
        ValueId a = n.act(n.conv(x, 5, 24, 3, "a"), relu(), "relu a");
        ValueId b = n.act(n.conv(a, 24, 24, 3, "b"), leakyRelu(0.1f), "lrelu b");
        n.g.markOutput(n.conv(b, 24, 8, 1, "head"));
        ValueId g = n.act(n.conv(x, 5, 40, 3, "g"), sigmoid(), "sigmoid g");
        n.g.markOutput(n.conv(g, 40, 8, 3, "h"));
        ValueId d = n.act(n.conv(x, 5, 20, 3, "d"), relu(), "relu d");
        n.g.markOutput(n.conv(d, 20, 4, 3, "e"));
        n.g.markOutput(n.conv(x, 5, 24, 3, "f"));
        ValueId shared = n.conv(x, 5, 24, 1, "s");
        ValueId sum = n.g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {shared, shared}).value()[0];
        n.g.markOutput(n.conv(sum, 24, 4, 3, "t"));
        n.g.markOutput(n.conv(shared, 24, 4, 3, "u"));
        return n.g;
    };
    for (DataType type : {DataType::Float32, DataType::Float16}) {
        if (type == DataType::Float16 && !optest::fp16Supported()) continue;
        SCOPED_TRACE(type == DataType::Float16 ? "fp16" : "fp32");
        GraphDesc g = build(type);
        auto forced = compileGraph(optest::device(), g, GraphCompileFlagForceChannelPadding);
        ASSERT_TRUE(forced.ok()) << forced.error().message;
        EXPECT_EQ(forced->report.paddedValues, 3u);
        EXPECT_EQ(fusionsContaining(*forced, "padded from 24 to 32 channels"), 2u);
        EXPECT_EQ(fusionsContaining(*forced, "padded from 40 to 48 channels"), 1u);
        optest::checkGraph(g, {}, GraphCompileFlagForceChannelPadding);
        if (type == DataType::Float16) {
            optest::RunOptions half;
            half.executionFlags = ExecutionFlagAllowHalfPrecisionComputation;
            optest::checkGraph(g, half, GraphCompileFlagForceChannelPadding);
        }
        auto plain = compileGraph(optest::device(), g);
        ASSERT_TRUE(plain.ok()) << plain.error().message;
        const bool tensorCores = type == DataType::Float16 && coopFp16();
        EXPECT_EQ(plain->report.paddedValues, tensorCores ? 3u : 0u);
        auto off = compileGraph(optest::device(), g, GraphCompileFlagDisableChannelPadding);
        ASSERT_TRUE(off.ok()) << off.error().message;
        EXPECT_EQ(off->report.paddedValues, 0u);
    }
}

TEST_F(GraphCompile, MaxPoolInTheStoreAtOddSizes) {
    if (!coopFp16()) GTEST_SKIP() << "no fp16 tensor cores: these fusions need conv2d_igemm";
    for (auto [h, w] : {std::pair{11u, 15u}, std::pair{33u, 17u}, std::pair{3u, 3u}}) {
        SCOPED_TRACE(std::to_string(h) + "x" + std::to_string(w));
        Net n{{}, DataType::Float16};
        ValueId x = n.g.addInput("x", n.t({2, 8, h, w}));
        ValueId y = n.act(n.conv(x, 8, 40, 3, "c"), leakyRelu(0.1f), "lrelu");
        n.g.markOutput(n.g.addNode(PoolingDesc{.name = "pool", .type = PoolingType::Max, .window = {2, 2}, .strides = {2, 2}}, {y}).value()[0]);
        auto compiled = compileGraph(optest::device(), n.g);
        ASSERT_TRUE(compiled.ok()) << compiled.error().message;
        EXPECT_EQ(fusionsContaining(*compiled, "max pool in the convolution's store"), 1u);
        optest::checkGraph(n.g, {});
    }
}

// A whole network (several launches with barriers between dependent ones) executed as a
// CommandBundle gives what record() gives: the reference's result, on any device.
TEST_F(GraphCompile, NetworkExecutedAsABundle) {
    for (DataType type : {DataType::Float32, DataType::Float16}) {
        if (type == DataType::Float16 && !optest::fp16Supported()) continue;
        SCOPED_TRACE(type == DataType::Float16 ? "fp16" : "fp32");
        optest::RunOptions bundle;
        bundle.viaBundle = true;
        optest::checkGraph(srvggSmall(type, 13, 37, 16), bundle);
        optest::checkGraph(oidnSmall(type, 20, 36), bundle);
    }
}

class GraphErrors : public testsupport::VulkanTest {};

TEST_F(GraphErrors, InvalidNodeIsNamed) {
    GraphDesc g;
    ValueId x = g.addInput("x", TensorDesc::make(DataType::Float32, {1, 6, 8, 8}));
    ValueId w = g.addConstant("w", TensorDesc::make(DataType::Float32, {4, 3, 3, 3}), std::vector<float>(108, 0.5f));
    ConvolutionDesc c{.name = "bad", .padBegin = {1, 1}, .padEnd = {1, 1}, .groups = 4};
    auto y = g.addNode(c, {x, w});
    ASSERT_TRUE(y.ok()) << y.error().message;
    g.markOutput((*y)[0]);
    auto compiled = compileGraph(optest::device(), g);
    ASSERT_FALSE(compiled.ok());
    EXPECT_NE(compiled.error().message.find("graph node 0 (convolution 'bad')"), std::string::npos) << compiled.error().message;
}

TEST_F(GraphErrors, SetLayoutChangesOnlyTheStridesOfInputsAndOutputs) {
    GraphDesc g;
    ValueId x = g.addInput("x", TensorDesc::make(DataType::Float32, {1, 4, 5, 6}));
    ValueId y = g.addNode(ElementWiseDesc{.name = "r", .op = ElementWiseOp::Activation, .activation = relu()}, {x}).value()[0];
    ValueId z = g.addNode(ElementWiseDesc{.name = "s", .op = ElementWiseOp::Activation, .activation = relu()}, {y}).value()[0];
    g.markOutput(z);
    const TensorDesc nhwc = TensorDesc::strided(DataType::Float32, {1, 4, 5, 6}, {120, 1, 24, 4});
    auto message = [&](ValueId v, const TensorDesc& d) {
        Status s = g.setLayout(v, d);
        EXPECT_FALSE(s.ok());
        return s.ok() ? std::string() : s.error().message;
    };
    EXPECT_NE(message(y, nhwc).find("not a graph input or output"), std::string::npos);
    EXPECT_NE(message(99, nhwc).find("not a graph input or output"), std::string::npos);
    EXPECT_NE(message(x, TensorDesc::strided(DataType::Float32, {1, 4, 6, 5}, {120, 1, 20, 4})).find("only the strides change"), std::string::npos);
    EXPECT_NE(message(x, TensorDesc::strided(DataType::Float16, {1, 4, 5, 6}, {120, 1, 24, 4})).find("only the strides change"), std::string::npos);
    // Overlapping elements in an output.
    EXPECT_FALSE(g.setLayout(z, TensorDesc::strided(DataType::Float32, {1, 4, 5, 6}, {0, 1, 1, 1})).ok());
    EXPECT_TRUE(g.setLayout(x, nhwc).ok());
    EXPECT_TRUE(g.setLayout(z, nhwc).ok());
}

// A graph input read by two convolutions and an output written by a third, renumbered by
// permuteChannels: the graph computes the same function of the renumbered tensors (CPU reference,
// so it runs everywhere), and the GPU agrees with the reference on the rewritten graph.
TEST_F(GraphErrors, PermuteChannelsFoldsTheOrderIntoTheConvolutions) {
    const uint32_t c = 6, out = 5, h = 7, w = 9;
    auto build = [&] {
        Net n{{}, DataType::Float32};
        ValueId x = n.g.addInput("x", n.t({1, c, h, w}));
        ValueId a = n.conv(x, c, 8, 3, "wide");
        ValueId b = n.conv(x, c, 8, 1, "narrow");
        ValueId s = n.g.addNode(ElementWiseDesc{.name = "sum", .op = ElementWiseOp::Add}, {a, b}).value()[0];
        n.g.markOutput(n.conv(n.act(s, relu(), "relu"), 8, out, 3, "head"));
        return n.g;
    };
    const std::vector<uint32_t> inOrder{3, 0, 5, 1, 4, 2}, outOrder{4, 2, 0, 3, 1};
    GraphDesc ref = build(), g = build();
    ASSERT_TRUE(g.permuteChannels(g.inputs[0], inOrder).ok());
    ASSERT_TRUE(g.permuteChannels(g.outputs[0], outOrder).ok());
    const HostTensor x = optest::randomTensor(TensorDesc::make(DataType::Float32, {1, c, h, w}), 11);
    HostTensor xp = x;
    for (uint32_t k = 0; k < c; ++k) std::copy_n(x.data.begin() + inOrder[k] * h * w, h * w, xp.data.begin() + k * h * w);
    auto want = referenceEvaluateGraph(ref, {x});
    auto got = referenceEvaluateGraph(g, {xp});
    ASSERT_TRUE(want.ok() && got.ok());
    for (uint32_t k = 0; k < out; ++k)
        for (uint32_t i = 0; i < h * w; ++i)
            ASSERT_NEAR((*got)[0].data[k * h * w + i], (*want)[0].data[outOrder[k] * h * w + i], 1e-12) << "channel " << k << " element " << i;
    optest::checkGraph(g, {});
}

TEST_F(GraphErrors, PermuteChannelsRefusesWhatItCannotFoldAndChangesNothing) {
    Net n{{}, DataType::Float32};
    ValueId x = n.g.addInput("x", n.t({1, 4, 5, 6}));
    ValueId y = n.conv(x, 4, 4, 3, "first");
    ValueId r = n.act(x, relu(), "relu on the input");
    ValueId z = n.g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {y, r}).value()[0];
    n.g.markOutput(z);
    ValueId second = n.g.addInput("second", n.t({1, 4, 5, 6}));
    ValueId q = n.conv(second, 4, 3, 1, "head");
    n.g.markOutput(q);
    n.g.markOutput(n.act(q, relu(), "reads the output"));
    const GraphDesc before = n.g;
    auto message = [&](ValueId v, std::vector<uint32_t> order) {
        Status s = n.g.permuteChannels(v, order);
        EXPECT_FALSE(s.ok());
        return s.ok() ? std::string() : s.error().message;
    };
    EXPECT_NE(message(x, {0, 1, 2}).find("the order has 3 entries, 'x' has 4 channels"), std::string::npos);
    EXPECT_NE(message(x, {0, 1, 1, 3}).find("not a permutation of 0..3"), std::string::npos);
    EXPECT_NE(message(x, {0, 1, 2, 4}).find("not a permutation"), std::string::npos);
    EXPECT_NE(message(y, {0, 1, 2, 3}).find("is not a graph input or output"), std::string::npos);
    EXPECT_NE(message(x, {3, 2, 1, 0}).find("(element_wise 'relu on the input') reads 'x'"), std::string::npos) << message(x, {3, 2, 1, 0});
    EXPECT_NE(message(z, {3, 2, 1, 0}).find("(element_wise 'add') writes 'add'"), std::string::npos) << message(z, {3, 2, 1, 0});
    EXPECT_NE(message(q, {2, 1, 0}).find("is also read by nodes"), std::string::npos);
    // Nothing was half-done: the weights are those of the unchanged graph.
    for (size_t v = 0; v < before.values.size(); ++v) EXPECT_EQ(n.g.values[v].constantData, before.values[v].constantData) << "value " << v;
    // The second input's convolution takes an order.
    EXPECT_TRUE(n.g.permuteChannels(second, std::vector<uint32_t>{1, 0, 3, 2}).ok());
}

TEST_F(GraphCompile, ConstantOperandOfElementWiseIsCopiedToPersistent) {
    GraphDesc g;
    ValueId x = g.addInput("x", TensorDesc::make(DataType::Float32, {1, 3, 5, 7}));
    ValueId k = g.addConstant("k", TensorDesc::make(DataType::Float32, {1, 3, 1, 1}), {0.25f, -2.0f, 3.0f});
    ValueId m = g.addNode(ElementWiseDesc{.name = "scale", .op = ElementWiseOp::Multiply}, {x, k}).value()[0];
    ValueId r = g.addNode(ElementWiseDesc{.name = "sig", .op = ElementWiseOp::Activation, .activation = sigmoid()}, {m}).value()[0];
    g.markOutput(r);
    optest::checkGraph(g, {});
}

TEST_F(GraphCompile, GemmFollowedByABiasAddBecomesOneGemm) {
    GraphDesc g;
    ValueId a = g.addInput("a", TensorDesc::make(DataType::Float32, {7, 5}));
    ValueId w = g.addConstant("w", TensorDesc::make(DataType::Float32, {5, 6}), std::vector<float>(30, 0.25f));
    ValueId bias = g.addConstant("bias", TensorDesc::make(DataType::Float32, {6}), {1, 2, 3, 4, 5, 6});
    ValueId m = g.addNode(GemmDesc{.name = "fc"}, {a, w}).value()[0];
    ValueId y = g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add, .activation = relu()}, {m, bias}).value()[0];
    g.markOutput(y);
    auto compiled = compileGraph(optest::device(), g);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(compiled->report.dispatchablesOut, 1u);
    optest::checkGraph(g, {});
}
