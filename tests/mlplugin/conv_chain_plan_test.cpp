// Graph compilation, CPU half: when convolution chains fuse into one dispatch and when not.
#include "graph/graph_plan.h"
#include "mlplugin/graph.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace mlplugin;
using detail::GraphPlan;
using detail::planGraph;

namespace {

struct Builder {
    GraphDesc g;
    DataType type = DataType::Float32;

    ValueId conv(ValueId x, uint32_t inC, uint32_t outC, uint32_t k, const std::string& name, ConvolutionDesc c = {}) {
        size_t n = size_t(outC) * inC * k * k;
        ValueId w = g.addConstant(name + ".w", TensorDesc::make(DataType::Float32, {outC, inC, k, k}), std::vector<float>(n, 0.01f));
        ValueId b = g.addConstant(name + ".b", TensorDesc::make(DataType::Float32, {outC}), std::vector<float>(outC, 0.1f));
        c.name = name;
        uint32_t p = k / 2 * c.dilations[0];
        if (c.padBegin == std::array<uint32_t, 2>{0, 0}) c.padBegin = c.padEnd = {p, p};
        return g.addNode(c, {x, w, b}).value()[0];
    }
    ValueId tanh(ValueId x, const std::string& name) {
        return g.addNode(ElementWiseDesc{.name = name, .op = ElementWiseOp::Activation, .activation = tanhActivation()}, {x}).value()[0];
    }
    ValueId espcnBody(ValueId x) {
        ValueId y = tanh(conv(x, 3, 64, 5, "conv1"), "tanh1");
        y = tanh(conv(y, 64, 32, 3, "conv2"), "tanh2");
        return conv(y, 32, 12, 3, "conv3");
    }
};

GraphDesc espcn(DataType type, uint32_t w, uint32_t h) {
    Builder b{{}, type};
    ValueId x = b.g.addInput("lowres", TensorDesc::make(type, {1, 3, h, w}));
    ValueId y = b.g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2}, {b.espcnBody(x)}).value()[0];
    b.g.markOutput(y);
    return b.g;
}

// The structural rules, apart from the cost model.
const detail::GraphPlanOptions kForced{.forceConvChains = true};

size_t chainFusions(const GraphPlan& p) {
    return size_t(std::count_if(p.report.fusions.begin(), p.report.fusions.end(),
                                [](const std::string& f) { return f.find("convolution-chain") != std::string::npos; }));
}

}  // namespace

TEST(ConvChainFusion, EspcnBecomesOneDispatchWithTheShuffleInItsStore) {
    for (DataType type : {DataType::Float16, DataType::Float32}) {
        auto plan = planGraph(espcn(type, 1920, 1080), {.forceConvChains = true, .sharedMemoryBytes = 49152});
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        ASSERT_EQ(chainFusions(*plan), 1u) << toString(type);
        if (type == DataType::Float32) continue;  // fp32 tiles are smaller: how many layers fuse is a cost decision
        ASSERT_EQ(plan->nodes.size(), 1u);
        const auto& node = plan->nodes[0];
        EXPECT_EQ(node.convChain.size(), 3u);
        EXPECT_TRUE(std::holds_alternative<DepthToSpaceDesc>(node.node.op));
        EXPECT_EQ(node.node.inputs.size(), 7u);  // x, then filter and bias of each layer
        auto it = std::find_if(plan->report.fusions.begin(), plan->report.fusions.end(),
                               [](const std::string& f) { return f.find("convolution-chain") != std::string::npos; });
        EXPECT_NE(it->find("3 layers, depth-to-space in the store"), std::string::npos) << *it;
        // The 64- and 32-channel intermediates are gone from the temporary resource.
        EXPECT_EQ(plan->report.temporaryBytes, 0u);
    }
}

TEST(ConvChainFusion, OnlyWhenForced) {
    // The fused kernel measured slower than the layers one by one: nothing fuses unless forced,
    // neither ESPCN (halos recomputed) nor a 1x1 chain (nothing recomputed).
    Builder b{{}, DataType::Float16};
    ValueId x = b.g.addInput("x", TensorDesc::make(DataType::Float16, {1, 32, 64, 96}));
    b.g.markOutput(b.conv(b.tanh(b.conv(x, 32, 32, 1, "a"), "t"), 32, 32, 1, "b"));
    for (const GraphDesc& g : {espcn(DataType::Float16, 1920, 1080), espcn(DataType::Float32, 1920, 1080), b.g}) {
        auto plan = planGraph(g, {.sharedMemoryBytes = 49152});
        ASSERT_TRUE(plan.ok());
        EXPECT_EQ(chainFusions(*plan), 0u);
        auto forced = planGraph(g, {.forceConvChains = true, .sharedMemoryBytes = 49152});
        ASSERT_TRUE(forced.ok());
        EXPECT_EQ(chainFusions(*forced), 1u);
    }
}

TEST(ConvChainFusion, OptionsTurnItOff) {
    GraphDesc g = espcn(DataType::Float16, 64, 48);
    auto off = planGraph(g, {.convChains = false, .forceConvChains = true});
    ASSERT_TRUE(off.ok());
    EXPECT_EQ(chainFusions(*off), 0u);
    EXPECT_EQ(off->nodes.size(), 3u) << "three convolutions, the depth-to-space in the last one's store";
    EXPECT_TRUE(off->nodes.back().fusion.depthToSpace.has_value());
    // Too little shared memory for any tile.
    auto tiny = planGraph(g, {.forceConvChains = true, .sharedMemoryBytes = 2048});
    ASSERT_TRUE(tiny.ok());
    EXPECT_EQ(chainFusions(*tiny), 0u);
}

TEST(ConvChainFusion, NotWhenAnIntermediateHasAnotherConsumer) {
    Builder b{{}, DataType::Float16};
    ValueId x = b.g.addInput("x", TensorDesc::make(DataType::Float16, {1, 3, 32, 32}));
    ValueId mid = b.tanh(b.conv(x, 3, 16, 3, "conv1"), "tanh1");
    ValueId out = b.conv(mid, 16, 8, 3, "conv2");
    b.g.markOutput(out);
    ValueId pooled = b.g.addNode(PoolingDesc{.name = "gap", .type = PoolingType::Average, .global = true}, {mid}).value()[0];
    b.g.markOutput(pooled);
    auto plan = planGraph(b.g, kForced);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(chainFusions(*plan), 0u);

    // Also when the intermediate is a graph output.
    Builder c{{}, DataType::Float16};
    x = c.g.addInput("x", TensorDesc::make(DataType::Float16, {1, 3, 32, 32}));
    mid = c.conv(x, 3, 16, 3, "conv1");
    c.g.markOutput(mid);
    c.g.markOutput(c.conv(mid, 16, 8, 3, "conv2"));
    auto plan2 = planGraph(c.g, kForced);
    ASSERT_TRUE(plan2.ok());
    EXPECT_EQ(chainFusions(*plan2), 0u);
}

TEST(ConvChainFusion, NotForShapesTheKernelDoesNotTake) {
    struct Variant { const char* what; ConvolutionDesc second; uint32_t k; };
    const Variant variants[] = {
        {"stride 2", {.strides = {2, 2}}, 3},
        {"dilation 2", {.dilations = {2, 2}}, 3},
        {"even kernel", {.padBegin = {1, 1}, .padEnd = {0, 0}}, 2},
        {"valid padding", {}, 3},  // built below: a 3x3 without padding shrinks the image
        {"grouped", {.groups = 2}, 3},
    };
    for (const Variant& v : variants) {
        Builder b{{}, DataType::Float16};
        ValueId x = b.g.addInput("x", TensorDesc::make(DataType::Float16, {1, 4, 16, 16}));
        ValueId mid = b.conv(x, 4, 8, 3, "conv1");
        ConvolutionDesc second = v.second;
        uint32_t inC = second.groups == 2 ? 4 : 8;
        if (std::string(v.what) == "valid padding") {
            size_t n = size_t(8) * 8 * 9;
            ValueId w = b.g.addConstant("w", TensorDesc::make(DataType::Float32, {8, 8, 3, 3}), std::vector<float>(n, 0.01f));
            ValueId y = b.g.addNode(ConvolutionDesc{.name = "valid"}, {mid, w}).value()[0];
            b.g.markOutput(y);
        } else {
            b.g.markOutput(b.conv(mid, inC, 8, v.k, "conv2", second));
        }
        auto plan = planGraph(b.g, kForced);
        ASSERT_TRUE(plan.ok()) << v.what << ": " << plan.error().message;
        EXPECT_EQ(chainFusions(*plan), 0u) << v.what;
    }
}

TEST(ConvChainFusion, NotWhenWeightsAreGraphInputs) {
    Builder b{{}, DataType::Float16};
    ValueId x = b.g.addInput("x", TensorDesc::make(DataType::Float16, {1, 4, 16, 16}));
    ValueId w = b.g.addInput("w", TensorDesc::make(DataType::Float16, {8, 8, 3, 3}));
    ValueId mid = b.conv(x, 4, 8, 3, "conv1");
    ValueId y = b.g.addNode(ConvolutionDesc{.name = "conv2", .padBegin = {1, 1}, .padEnd = {1, 1}}, {mid, w}).value()[0];
    b.g.markOutput(y);
    auto plan = planGraph(b.g, kForced);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(chainFusions(*plan), 0u);
}

TEST(ConvChainFusion, DepthToSpaceStaysWhenTheLastOutputIsAlsoRead) {
    Builder b{{}, DataType::Float16};
    ValueId x = b.g.addInput("x", TensorDesc::make(DataType::Float16, {1, 3, 16, 16}));
    ValueId last = b.conv(b.conv(x, 3, 8, 3, "conv1"), 8, 12, 3, "conv2");
    b.g.markOutput(last);
    b.g.markOutput(b.g.addNode(DepthToSpaceDesc{.name = "d2s", .blockSize = 2}, {last}).value()[0]);
    auto plan = planGraph(b.g, kForced);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(chainFusions(*plan), 1u);
    EXPECT_EQ(plan->nodes.size(), 2u);  // the chain, then the depth-to-space on its own
}
