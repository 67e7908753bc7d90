// Fused convolution chains (conv_chain.comp) on the GPU against the whole-graph CPU reference:
// 2 and 3 layers, odd sizes, few and many channels, with and without depth-to-space (both
// orders), activations, a missing bias, batch 2; fp32 and fp16. Fusion is opt-in
// (GraphCompileFlagForceConvChains).
#include "op_test.h"

#include "mlplugin/graph.h"

#include <algorithm>
#include <random>

using namespace mlplugin;

namespace {

struct Layer {
    uint32_t channels, kernel;
    Activation activation;
    bool bias = true;
};

struct ChainCase {
    const char* name;
    uint32_t batch, inC, h, w;
    std::vector<Layer> layers;
    uint32_t block = 0;  // depth-to-space block, 0: none
    DepthSpaceOrder order = DepthSpaceOrder::DCR;
};

void PrintTo(const ChainCase& c, std::ostream* os) { *os << c.name; }

std::vector<float> randomData(size_t n, uint32_t seed, float scale) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-scale, scale);
    std::vector<float> v(n);
    for (auto& x : v) x = u(rng);
    return v;
}

GraphDesc build(const ChainCase& c, DataType type) {
    GraphDesc g;
    ValueId x = g.addInput("x", TensorDesc::make(type, {c.batch, c.inC, c.h, c.w}));
    uint32_t inC = c.inC, seed = 7;
    for (size_t l = 0; l < c.layers.size(); ++l) {
        const Layer& L = c.layers[l];
        std::string name = "conv" + std::to_string(l);
        uint32_t k = L.kernel;
        size_t n = size_t(L.channels) * inC * k * k;
        ValueId w = g.addConstant(name + ".w", TensorDesc::make(DataType::Float32, {L.channels, inC, k, k}),
                                  randomData(n, seed++, 1.5f / std::sqrt(float(inC * k * k))));
        std::vector<ValueId> inputs{x, w};
        if (L.bias) inputs.push_back(g.addConstant(name + ".b", TensorDesc::make(DataType::Float32, {L.channels}), randomData(L.channels, seed++, 0.5f)));
        ConvolutionDesc conv{.name = name, .padBegin = {k / 2, k / 2}, .padEnd = {k / 2, k / 2}};
        x = g.addNode(conv, inputs).value()[0];
        if (L.activation.type != ActivationType::None)
            x = g.addNode(ElementWiseDesc{.name = "act" + std::to_string(l), .op = ElementWiseOp::Activation, .activation = L.activation}, {x})
                    .value()[0];
        inC = L.channels;
    }
    if (c.block) x = g.addNode(DepthToSpaceDesc{.name = "d2s", .blockSize = c.block, .order = c.order}, {x}).value()[0];
    g.markOutput(x);
    return g;
}

const ChainCase kCases[] = {
    {"ThreeLayersDepthToSpaceDcr", 1, 3, 23, 37, {{17, 5, tanhActivation()}, {5, 3, tanhActivation()}, {12, 3, {}}}, 2},
    {"TwoLayersRelu", 1, 5, 37, 23, {{17, 3, relu()}, {3, 1, {}}}},
    {"ThreeLayersCrdBatch2NoBias", 2, 3, 11, 19, {{16, 3, {}, false}, {8, 5, relu()}, {4, 3, tanhActivation()}}, 2, DepthSpaceOrder::CRD},
    {"TwoLayersDepthToSpace3", 1, 3, 9, 14, {{8, 3, leakyRelu(0.1f)}, {18, 3, {}}}, 3},
    {"EspcnChannels", 1, 3, 13, 9, {{64, 5, tanhActivation()}, {32, 3, tanhActivation()}, {12, 3, {}}}, 2},
};

class ConvChainTest : public testsupport::VulkanTest, public ::testing::WithParamInterface<std::tuple<ChainCase, DataType>> {};

TEST_P(ConvChainTest, FusedChainMatchesReference) {
    auto [c, type] = GetParam();
    if (type == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    GraphDesc g = build(c, type);
    auto compiled = compileGraph(optest::device(), g, GraphCompileFlagForceConvChains);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    const auto& fusions = compiled->report.fusions;
    bool fused = std::any_of(fusions.begin(), fusions.end(), [](const std::string& f) { return f.find("convolution-chain") != std::string::npos; });
    // ESPCN's 64-channel intermediates need more shared memory than small devices have in fp32.
    bool mayNotFit = std::string(c.name) == "EspcnChannels" && optest::device().capabilities().maxComputeSharedMemoryBytes < 49152;
    if (!mayNotFit) {
        EXPECT_TRUE(fused) << "no convolution chain fused";
        if (c.layers.size() == 3) {
            EXPECT_EQ(compiled->report.dispatchablesOut, 1u);
        }
    }
    optest::checkGraph(g, {}, GraphCompileFlagForceConvChains);
    if (type == DataType::Float16) {
        optest::checkGraph(g, {.executionFlags = ExecutionFlagAllowHalfPrecisionComputation}, GraphCompileFlagForceConvChains);
    }
}

// Layer by layer, the depth-to-space (DCR and CRD, blocks 2 and 3, batch 2) folds into the last
// convolution's store: one dispatch fewer, same function.
TEST_P(ConvChainTest, LayerByLayerFoldsDepthToSpaceIntoTheStore) {
    auto [c, type] = GetParam();
    if (type == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "device lacks fp16";
    GraphDesc g = build(c, type);
    auto compiled = compileGraph(optest::device(), g, GraphCompileFlagDisableConvChains);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    const auto& fusions = compiled->report.fusions;
    bool folded = std::any_of(fusions.begin(), fusions.end(), [](const std::string& f) { return f.find("depth-to-space in the convolution's store") != std::string::npos; });
    EXPECT_EQ(folded, c.block > 1);
    EXPECT_EQ(compiled->report.dispatchablesOut, c.layers.size());
    optest::checkGraph(g, {}, GraphCompileFlagDisableConvChains);
    optest::checkGraph(g, {}, GraphCompileFlagDisableFusion);  // the separate depth-to-space, for comparison
}

INSTANTIATE_TEST_SUITE_P(Chains, ConvChainTest,
                         ::testing::Combine(::testing::ValuesIn(kCases), ::testing::Values(DataType::Float32, DataType::Float16)),
                         [](const auto& p) { return std::string(std::get<0>(p.param).name) + "_" + toString(std::get<1>(p.param)); });

// The flag turns the pass off (also when forced); the unfused graph is the same function.
class ConvChainFlags : public testsupport::VulkanTest {};

TEST_F(ConvChainFlags, DisableFlagCompilesLayerByLayer) {
    GraphDesc g = build(kCases[0], DataType::Float32);
    auto compiled = compileGraph(optest::device(), g, GraphCompileFlagDisableConvChains | GraphCompileFlagForceConvChains);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(compiled->report.dispatchablesOut, 3u) << "layer by layer; the depth-to-space folds into the last store";
    for (const std::string& f : compiled->report.fusions) EXPECT_EQ(f.find("convolution-chain"), std::string::npos) << f;
    optest::checkGraph(g, {}, GraphCompileFlagDisableConvChains);
}

}  // namespace
