// Graph compilation, CPU half: validation, ordering, fusion, memory planning, barriers.
#include "graph/graph_plan.h"
#include "mlplugin/graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace mlplugin;
using detail::GraphPlan;
using detail::planGraph;
using detail::ValuePlacement;

namespace {

TensorDesc f32(std::initializer_list<uint32_t> s) { return TensorDesc::make(DataType::Float32, s); }

std::vector<float> randomData(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& x : v) x = u(rng);
    return v;
}

ValueId conv3x3(GraphDesc& g, ValueId x, uint32_t inC, uint32_t outC, const std::string& name, uint32_t seed) {
    ValueId w = g.addConstant(name + ".w", f32({outC, inC, 3, 3}), randomData(size_t(outC) * inC * 9, seed));
    ValueId b = g.addConstant(name + ".b", f32({outC}), randomData(outC, seed + 1));
    ConvolutionDesc c{.name = name, .padBegin = {1, 1}, .padEnd = {1, 1}};
    return g.addNode(c, {x, w, b}).value()[0];
}

ValueId activation(GraphDesc& g, ValueId x, Activation a, const std::string& name) {
    return g.addNode(ElementWiseDesc{.name = name, .op = ElementWiseOp::Activation, .activation = a}, {x}).value()[0];
}

const ValuePlacement& placementOf(const GraphPlan& p, ValueId v) { return p.placement[v]; }

}  // namespace

TEST(GraphShapes, InferredFromInputsAndAttributes) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 3, 17, 33}));
    ValueId y = conv3x3(g, x, 3, 12, "conv", 1);
    EXPECT_EQ(g.values[y].desc.toString(), "fp32[1,12,17,33]");
    ValueId z = g.addNode(DepthToSpaceDesc{.name = "d2s", .blockSize = 2}, {y}).value()[0];
    EXPECT_EQ(g.values[z].desc.toString(), "fp32[1,3,34,66]");
    ValueId p = g.addNode(PoolingDesc{.name = "pool", .type = PoolingType::Max, .window = {3, 3}, .strides = {2, 2}}, {z}).value()[0];
    EXPECT_EQ(g.values[p].desc.toString(), "fp32[1,3,16,32]");
    ValueId t = g.addNode(TransposeDesc{.name = "t", .permutation = {0, 2, 3, 1}}, {p}).value()[0];
    EXPECT_EQ(g.values[t].desc.toString(), "fp32[1,16,32,3]");
    ValueId r = g.addNode(ReduceDesc{.name = "r", .op = ReduceOp::Mean, .axesMask = 0b0110}, {t}).value()[0];
    EXPECT_EQ(g.values[r].desc.toString(), "fp32[1,1,1,3]");
    ValueId c = g.addNode(ConcatDesc{.name = "cat", .axis = 1}, {y, y}).value()[0];
    EXPECT_EQ(g.values[c].desc.toString(), "fp32[1,24,17,33]");
}

TEST(GraphShapes, BroadcastingAndErrors) {
    GraphDesc g;
    ValueId a = g.addInput("a", f32({2, 1, 5}));
    ValueId b = g.addInput("b", f32({3, 1}));
    ValueId s = g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {a, b}).value()[0];
    EXPECT_EQ(g.values[s].desc.toString(), "fp32[2,3,5]");
    ValueId c = g.addInput("c", f32({4}));
    auto bad = g.addNode(ElementWiseDesc{.name = "bad", .op = ElementWiseOp::Add}, {a, c});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("do not broadcast"), std::string::npos) << bad.error().message;
    auto missing = g.addNode(ElementWiseDesc{.name = "m", .op = ElementWiseOp::Add}, {a, 99});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("refers to value 99"), std::string::npos) << missing.error().message;
    auto slice = g.addNode(SliceDesc{.name = "s"}, {a});
    ASSERT_FALSE(slice.ok());
    EXPECT_NE(slice.error().message.find("set the output desc"), std::string::npos);
}

TEST(GraphPlan, OrdersCullsAndRejectsCycles) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 4, 5, 5}));
    ValueId a = activation(g, x, relu(), "a");
    ValueId dead = activation(g, x, sigmoid(), "dead");
    (void)dead;
    ValueId b = activation(g, a, tanhActivation(), "b");
    g.markOutput(b);
    auto plan = planGraph(g, {.fuse = false, .alias = true});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 2u) << "the node nobody reads is culled";
    EXPECT_EQ(plan->nodes[0].label, "element_wise 'a'");
    EXPECT_EQ(plan->nodes[1].label, "element_wise 'b'");

    // Make 'a' read 'b': a cycle.
    GraphDesc cyclic = g;
    cyclic.nodes[0].inputs[0] = b;
    auto bad = planGraph(cyclic, {});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("cycle"), std::string::npos) << bad.error().message;
}

TEST(GraphPlan, RejectsStructuralErrorsWithNames) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({4}));
    ValueId y = activation(g, x, relu(), "r");
    g.markOutput(y);
    {
        GraphDesc bad = g;
        bad.values.push_back({"ghost", f32({4}), GraphValue::Kind::Intermediate, {}});
        bad.nodes[0].inputs[0] = ValueId(bad.values.size() - 1);
        auto r = planGraph(bad, {});
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("'ghost' is read but never written"), std::string::npos) << r.error().message;
    }
    {
        GraphDesc bad = g;
        bad.addConstant("k", f32({3}), {1.0f, 2.0f});
        auto r = planGraph(bad, {});
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("constant 'k' has 2 values"), std::string::npos) << r.error().message;
    }
    {
        GraphDesc bad = g;
        bad.outputs = {x};
        auto r = planGraph(bad, {});
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("is a graph input or constant"), std::string::npos) << r.error().message;
    }
    {
        GraphDesc bad = g;
        bad.outputs.clear();
        EXPECT_FALSE(planGraph(bad, {}).ok());
    }
}

TEST(GraphFusion, ActivationMovesIntoConvolution) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 3, 9, 7}));
    ValueId c = conv3x3(g, x, 3, 8, "c1", 3);
    ValueId r = activation(g, c, relu(), "r1");
    g.markOutput(r);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 1u);
    EXPECT_EQ(std::get<ConvolutionDesc>(plan->nodes[0].node.op).activation.type, ActivationType::Relu);
    EXPECT_EQ(plan->nodes[0].node.outputs[0], r);
    ASSERT_EQ(plan->report.fusions.size(), 1u);
    EXPECT_NE(plan->report.fusions[0].find("fused relu"), std::string::npos);
}

TEST(GraphFusion, NoFusionWhenTheIntermediateIsAlsoAnOutput) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 3, 9, 7}));
    ValueId c = conv3x3(g, x, 3, 8, "c1", 3);
    ValueId r = activation(g, c, relu(), "r1");
    g.markOutput(r);
    g.markOutput(c);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->nodes.size(), 2u);
}

TEST(GraphFusion, BatchNormFoldsIntoWeightsAndBiasAddBecomesBias) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 2, 5, 5}));
    ValueId w = g.addConstant("w", f32({3, 2, 1, 1}), randomData(6, 5));
    ValueId conv = g.addNode(ConvolutionDesc{.name = "c"}, {x, w}).value()[0];
    ValueId k = g.addConstant("k", f32({1, 3, 1, 1}), {0.5f, -1.0f, 2.0f});
    ValueId add = g.addNode(ElementWiseDesc{.name = "bias", .op = ElementWiseOp::Add}, {conv, k}).value()[0];
    g.markOutput(add);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 1u);
    EXPECT_TRUE(std::get<ConvolutionDesc>(plan->nodes[0].node.op).bias.has_value());

    GraphDesc h;
    ValueId hx = h.addInput("x", f32({1, 2, 5, 5}));
    ValueId hw = h.addConstant("w", f32({3, 2, 1, 1}), {1, 2, 3, 4, 5, 6});
    ValueId hc = h.addNode(ConvolutionDesc{.name = "c"}, {hx, hw}).value()[0];
    ValueId mean = h.addConstant("mean", f32({3}), {0.1f, 0.2f, 0.3f});
    ValueId var = h.addConstant("var", f32({3}), {1.0f, 4.0f, 0.25f});
    ValueId sc = h.addConstant("scale", f32({3}), {2.0f, 1.0f, 1.0f});
    ValueId sh = h.addConstant("shift", f32({3}), {0.0f, 1.0f, -1.0f});
    ValueId bn = h.addNode(BatchNormalizationDesc{.name = "bn", .epsilon = 0.0f}, {hc, mean, var, sc, sh}).value()[0];
    h.markOutput(bn);
    auto p2 = planGraph(h, {});
    ASSERT_TRUE(p2.ok()) << p2.error().message;
    ASSERT_EQ(p2->nodes.size(), 1u);
    const auto& in = p2->nodes[0].node.inputs;
    ASSERT_EQ(in.size(), 3u);
    const auto& fw = p2->values[in[1]].constantData;
    const auto& fb = p2->values[in[2]].constantData;
    // Channel 0: k = 2/sqrt(1) = 2; channel 1: k = 1/2; channel 2: k = 1/0.5 = 2.
    EXPECT_FLOAT_EQ(fw[0], 2.0f);
    EXPECT_FLOAT_EQ(fw[2], 1.5f);
    EXPECT_FLOAT_EQ(fw[5], 12.0f);
    EXPECT_FLOAT_EQ(fb[0], -0.2f);
    EXPECT_FLOAT_EQ(fb[1], -0.1f + 1.0f);
    EXPECT_FLOAT_EQ(fb[2], -0.6f - 1.0f);
}

TEST(GraphMemory, AliasingNeverOverlapsLiveValuesAndBeatsTheNaivePlan) {
    // A small U-Net-like graph: a skip connection keeps an early value alive across the chain.
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 3, 16, 16}));
    ValueId e1 = conv3x3(g, x, 3, 8, "e1", 10);
    ValueId e2 = conv3x3(g, e1, 8, 8, "e2", 11);
    ValueId e3 = conv3x3(g, e2, 8, 8, "e3", 12);
    ValueId e4 = conv3x3(g, e3, 8, 8, "e4", 13);
    ValueId skip = g.addNode(ElementWiseDesc{.name = "skip", .op = ElementWiseOp::Add}, {e4, e1}).value()[0];
    ValueId out = conv3x3(g, skip, 8, 3, "out", 14);
    g.markOutput(out);
    // Convolution chains would keep e2..e4 out of memory altogether; this is about aliasing.
    auto plan = planGraph(g, {.convChains = false});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_LT(plan->report.temporaryBytes, plan->report.temporaryBytesNaive);

    std::vector<int> first(plan->values.size(), -1), last(plan->values.size(), -1);
    for (size_t s = 0; s < plan->nodes.size(); ++s) {
        for (ValueId v : plan->nodes[s].node.outputs) first[v] = int(s);
        for (ValueId v : plan->nodes[s].node.inputs) if (v != kNoValue) last[v] = int(s);
    }
    for (size_t a = 0; a < plan->values.size(); ++a)
        for (size_t b = a + 1; b < plan->values.size(); ++b) {
            const auto& pa = placementOf(*plan, ValueId(a));
            const auto& pb = placementOf(*plan, ValueId(b));
            if (pa.where != ValuePlacement::Where::Temporary || pb.where != ValuePlacement::Where::Temporary) continue;
            bool livesOverlap = !(last[a] < first[b] || last[b] < first[a]);
            bool bytesOverlap = pa.offset < pb.offset + pb.bytes && pb.offset < pa.offset + pa.bytes;
            EXPECT_FALSE(livesOverlap && bytesOverlap) << plan->values[a].name << " and " << plan->values[b].name;
        }
    EXPECT_EQ(placementOf(*plan, x).where, ValuePlacement::Where::GraphInput);
    EXPECT_EQ(placementOf(*plan, out).where, ValuePlacement::Where::GraphOutput);
    EXPECT_EQ(placementOf(*plan, e1).offset % detail::kGraphAlignment, 0u);

    auto naive = planGraph(g, {.fuse = true, .alias = false, .convChains = false});
    ASSERT_TRUE(naive.ok());
    EXPECT_EQ(naive->report.temporaryBytes, naive->report.temporaryBytesNaive);
}

TEST(GraphBarriers, OnlyBetweenDependentDispatches) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 4, 8, 8}));
    ValueId a = activation(g, x, relu(), "a");        // reads x
    ValueId b = activation(g, x, sigmoid(), "b");     // independent of a
    ValueId s = g.addNode(ElementWiseDesc{.name = "sum", .op = ElementWiseOp::Add}, {a, b}).value()[0];
    g.markOutput(s);
    auto plan = planGraph(g, {.fuse = false, .alias = true});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 3u);
    EXPECT_FALSE(plan->nodes[0].barrierBefore);
    EXPECT_FALSE(plan->nodes[1].barrierBefore) << "independent branches are not serialized";
    EXPECT_TRUE(plan->nodes[2].barrierBefore);
    EXPECT_EQ(plan->report.barriers, 1u);
}

TEST(GraphFusion, ConcatOfProducersBecomesSlicesOfItsOutput) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 3, 16, 16}));  // 256 floats per channel: slices stay aligned
    ValueId a = conv3x3(g, x, 3, 4, "a", 20);
    ValueId b = conv3x3(g, x, 3, 2, "b", 21);
    ValueId cat = g.addNode(ConcatDesc{.name = "cat", .axis = 1}, {a, b}).value()[0];
    ValueId y = conv3x3(g, cat, 6, 3, "y", 22);
    g.markOutput(y);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->nodes.size(), 3u) << "the concat is gone";
    EXPECT_EQ(plan->views[a].base, cat);
    EXPECT_EQ(plan->views[a].offset, 0u);
    EXPECT_EQ(plan->views[b].offset, 4u * 256 * 4);
    EXPECT_EQ(placementOf(*plan, b).offset, placementOf(*plan, cat).offset + 4u * 256 * 4);
    EXPECT_EQ(plan->values[b].desc.strides[0], 6u * 256) << "the producer writes with the concat's strides";
    const auto& conv = std::get<ConvolutionDesc>(plan->nodes[1].node.op);
    EXPECT_TRUE(conv.output.hasStrides);

    // 7x7 channels are 196 bytes apart: not a valid descriptor offset, so the concat stays.
    GraphDesc h;
    ValueId hx = h.addInput("x", f32({1, 3, 7, 7}));
    ValueId ha = conv3x3(h, hx, 3, 1, "a", 23);
    ValueId hb = conv3x3(h, hx, 3, 1, "b", 24);
    ValueId hcat = h.addNode(ConcatDesc{.name = "cat", .axis = 1}, {ha, hb}).value()[0];
    h.markOutput(conv3x3(h, hcat, 2, 1, "y", 25));
    auto kept = planGraph(h, {});
    ASSERT_TRUE(kept.ok()) << kept.error().message;
    EXPECT_EQ(kept->nodes.size(), 4u);
}

TEST(GraphFusion, ElementWiseChainsBecomeOneDispatch) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 3, 5, 7}));
    ValueId y = g.addInput("y", f32({1, 3, 5, 7}));
    ValueId k = g.addConstant("k", f32({1, 3, 1, 1}), {0.5f, 2.0f, -1.0f});
    ValueId m = g.addNode(ElementWiseDesc{.name = "mul", .op = ElementWiseOp::Multiply}, {x, k}).value()[0];
    ValueId s = g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {m, y}).value()[0];
    ValueId e = g.addNode(ElementWiseDesc{.name = "exp", .op = ElementWiseOp::Exp}, {s}).value()[0];
    ValueId q = g.addNode(ElementWiseDesc{.name = "sqrt", .op = ElementWiseOp::Sqrt}, {e}).value()[0];
    g.markOutput(q);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 2u) << "three steps per dispatch at most";
    ASSERT_EQ(plan->nodes[0].chain.size(), 3u);
    EXPECT_EQ(plan->nodes[0].chain[0].op, ElementWiseOp::Multiply);
    EXPECT_EQ(plan->nodes[0].chain[2].op, ElementWiseOp::Exp);
    std::vector<ValueId> slots{x, k, y, kNoValue};
    EXPECT_EQ(plan->nodes[0].node.inputs, slots);
    EXPECT_TRUE(plan->nodes[1].chain.empty());
    bool logged = false;
    for (const auto& f : plan->report.fusions) logged |= f.find("one element-wise dispatch (3 steps)") != std::string::npos;
    EXPECT_TRUE(logged);

    // A consumer that broadcasts the running value (its output is larger) is not fused.
    GraphDesc h;
    ValueId hx = h.addInput("x", f32({1, 3, 1, 1}));
    ValueId hy = h.addInput("y", f32({1, 3, 4, 4}));
    ValueId hn = h.addNode(ElementWiseDesc{.name = "neg", .op = ElementWiseOp::Negate}, {hx}).value()[0];
    ValueId ha = h.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {hn, hy}).value()[0];
    h.markOutput(ha);
    auto kept = planGraph(h, {});
    ASSERT_TRUE(kept.ok()) << kept.error().message;
    EXPECT_EQ(kept->nodes.size(), 2u);
}

TEST(GraphFusion, FusedChainRunsAfterTheNodesItsLaterStepsRead) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 2, 3, 3}));
    ValueId y = g.addInput("y", f32({1, 2, 3, 3}));
    ValueId a = g.addNode(ElementWiseDesc{.name = "neg", .op = ElementWiseOp::Negate}, {x}).value()[0];
    ValueId d = conv3x3(g, y, 2, 2, "conv", 30);  // declared between the chain's two steps
    ValueId s = g.addNode(ElementWiseDesc{.name = "sub", .op = ElementWiseOp::Subtract}, {a, d}).value()[0];
    g.markOutput(s);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 2u);
    EXPECT_EQ(plan->nodes[0].label, "convolution 'conv'");
    EXPECT_EQ(plan->nodes[1].chain.size(), 2u);
}

TEST(GraphLayout, Fp16ConvToConvIntermediatesGoChannelsLast) {
    auto everyConv = [](const ConvolutionDesc&) { return true; };
    GraphDesc g;
    ValueId x = g.addInput("x", TensorDesc::make(DataType::Float16, {1, 3, 9, 7}));
    ValueId shared = conv3x3(g, x, 3, 16, "c1", 3);          // read by two convolutions: NHWC
    ValueId narrow = conv3x3(g, shared, 16, 12, "c2", 5);    // 12 channels: not 8-aligned, stays NCHW
    ValueId left = conv3x3(g, narrow, 12, 8, "c4", 7);       // read by an add: stays NCHW
    ValueId right = conv3x3(g, shared, 16, 8, "c3", 9);
    ValueId sum = g.addNode(ElementWiseDesc{.name = "sum", .op = ElementWiseOp::Add}, {left, right}).value()[0];
    g.markOutput(sum);

    auto plan = planGraph(g, {.channelsLastConv = everyConv});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->report.channelsLastValues, 1u);
    const TensorDesc& nhwc = plan->values[shared].desc;
    ASSERT_TRUE(nhwc.hasStrides);
    EXPECT_EQ(nhwc.effectiveStrides()[1], 1u) << "channels innermost";
    EXPECT_EQ(nhwc.effectiveStrides()[3], 16u);
    EXPECT_EQ(nhwc.requiredBytes(), TensorDesc::make(DataType::Float16, {1, 16, 9, 7}).requiredBytes());
    for (ValueId v : {x, narrow, left, right, sum}) EXPECT_FALSE(plan->values[v].desc.hasStrides) << plan->values[v].name;
    // The writer's output and every reader's input carry the same layout.
    for (const auto& pn : plan->nodes) {
        const auto* conv = std::get_if<ConvolutionDesc>(&pn.node.op);
        if (!conv) continue;
        if (pn.node.outputs[0] == shared) {
            EXPECT_EQ(conv->output.effectiveStrides(), nhwc.effectiveStrides());
        }
        if (pn.node.inputs[0] == shared) {
            EXPECT_EQ(conv->input.effectiveStrides(), nhwc.effectiveStrides()) << pn.label;
        }
    }

    auto packed = planGraph(g, {});  // off unless the device's tensor-core convolution is enabled
    ASSERT_TRUE(packed.ok());
    EXPECT_EQ(packed->report.channelsLastValues, 0u);
    EXPECT_FALSE(packed->values[shared].desc.hasStrides);

    GraphDesc f32Graph;  // fp32 intermediates keep NCHW
    ValueId y = f32Graph.addInput("y", f32({1, 3, 9, 7}));
    f32Graph.markOutput(conv3x3(f32Graph, conv3x3(f32Graph, y, 3, 16, "a", 11), 16, 8, "b", 13));
    auto fp32Plan = planGraph(f32Graph, {.channelsLastConv = everyConv});
    ASSERT_TRUE(fp32Plan.ok());
    EXPECT_EQ(fp32Plan->report.channelsLastValues, 0u);
}

TEST(GraphLayout, ChannelsLastOnlyWhereEveryConvolutionTakesIt) {
    GraphDesc g;
    ValueId x = g.addInput("x", TensorDesc::make(DataType::Float16, {1, 3, 9, 7}));
    ValueId a = conv3x3(g, x, 3, 16, "first", 3);   // its kernel would store NHWC element by element
    ValueId b = conv3x3(g, a, 16, 16, "second", 5);
    g.markOutput(conv3x3(g, b, 16, 8, "third", 7));
    std::vector<std::string> asked;
    auto notFirst = [&](const ConvolutionDesc& d) {
        asked.push_back(d.name);
        return d.name != "first";
    };
    auto plan = planGraph(g, {.channelsLastConv = notFirst});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_FALSE(plan->values[a].desc.hasStrides) << "its writer does not take NHWC well";
    EXPECT_TRUE(plan->values[b].desc.hasStrides);
    EXPECT_EQ(plan->report.channelsLastValues, 1u);
    EXPECT_NE(std::find(asked.begin(), asked.end(), "third"), asked.end()) << "readers are asked too";
}

TEST(GraphFusion, TransposedConvolutionBecomesSubPixelConvolution) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 6, 5, 7}));
    ValueId w = g.addConstant("w", f32({6, 3, 9, 9}), randomData(6 * 3 * 81, 5));
    ValueId b = g.addConstant("b", f32({3}), {0.5f, -1.0f, 2.0f});
    ConvolutionDesc up{.name = "deconv", .transposed = true, .strides = {2, 2}, .padBegin = {4, 4}, .padEnd = {4, 4}, .outputPadding = {1, 1}};
    ValueId y = g.addNode(up, {x, w, b}).value()[0];
    g.markOutput(y);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 1u) << "the depth-to-space folds into the new convolution's store";
    const auto& pn = plan->nodes[0];
    const auto& conv = std::get<ConvolutionDesc>(pn.node.op);
    EXPECT_FALSE(conv.transposed);
    EXPECT_EQ(conv.filter.sizes[0], 12u) << "3 channels x 4 phases";
    EXPECT_EQ(conv.filter.sizes[2], 5u) << "ceil(9 / 2) taps";
    EXPECT_EQ(conv.padBegin[0], 2u);
    EXPECT_EQ(conv.output.sizes[2], 5u);
    ASSERT_TRUE(pn.fusion.depthToSpace.has_value());
    EXPECT_EQ(pn.fusion.depthToSpace->order, DepthSpaceOrder::CRD);
    EXPECT_EQ(pn.node.outputs[0], y);
    const auto& bias = plan->values[pn.node.inputs[2]].constantData;
    ASSERT_EQ(bias.size(), 12u);
    EXPECT_EQ(bias[4], -1.0f) << "channel 1's four phases";
    EXPECT_NE(plan->report.fusions.front().find("4-phase sub-pixel convolution (5x5, 12 channels)"), std::string::npos)
        << plan->report.fusions.front();
}

TEST(GraphFusion, DepthToSpaceFoldsIntoTheConvolutionStore) {
    auto build = [](bool convAlsoOutput) {
        GraphDesc g;
        ValueId x = g.addInput("x", f32({1, 3, 9, 7}));
        ValueId c = conv3x3(g, x, 3, 12, "tail", 3);
        DepthToSpaceDesc d2s{.name = "shuffle", .blockSize = 2, .order = DepthSpaceOrder::CRD};
        ValueId y = g.addNode(d2s, {c}).value()[0];
        g.markOutput(y);
        if (convAlsoOutput) g.markOutput(c);
        return std::make_pair(g, y);
    };
    auto [g, y] = build(false);
    auto plan = planGraph(g, {});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 1u);
    const auto& folded = plan->nodes[0];
    ASSERT_TRUE(folded.fusion.depthToSpace.has_value());
    EXPECT_EQ(folded.fusion.depthToSpace->order, DepthSpaceOrder::CRD);
    EXPECT_EQ(folded.node.outputs[0], y) << "the fused node writes the depth-to-space's output";
    EXPECT_TRUE(std::holds_alternative<ConvolutionDesc>(folded.node.op));
    EXPECT_NE(plan->report.fusions.back().find("depth-to-space in the convolution's store"), std::string::npos);

    auto [g2, y2] = build(true);  // the convolution's own output is needed too: no folding
    auto both = planGraph(g2, {});
    ASSERT_TRUE(both.ok());
    EXPECT_EQ(both->nodes.size(), 2u);
    EXPECT_FALSE(both->nodes[0].fusion.depthToSpace.has_value());
    auto off = planGraph(g, {.fuse = false});
    ASSERT_TRUE(off.ok());
    EXPECT_EQ(off->nodes.size(), 2u);
}

// A convolution whose reader is a fused convolution chain ending in a depth-to-space keeps its
// own store (the chain node carries the depth-to-space as its op; ml_bench's denoiser hit this).
TEST(GraphFusion, DepthToSpaceFoldSkipsConvolutionChains) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 8, 18, 14}));
    ValueId w = g.addConstant("down.w", f32({8, 8, 3, 3}), randomData(8 * 8 * 9, 21));
    ConvolutionDesc down{.name = "down", .strides = {2, 2}, .padBegin = {1, 1}, .padEnd = {1, 1}};  // stride 2: not chainable
    ValueId a = g.addNode(down, {x, w}).value()[0];
    ValueId b = conv3x3(g, a, 8, 8, "b", 23);
    ValueId c = conv3x3(g, b, 8, 12, "c", 25);
    g.markOutput(g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2}, {c}).value()[0]);
    auto plan = planGraph(g, {.forceConvChains = true});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->nodes.size(), 2u);
    EXPECT_FALSE(plan->nodes[0].fusion.depthToSpace.has_value()) << plan->nodes[0].label;
    EXPECT_EQ(plan->nodes[1].convChain.size(), 2u);
    EXPECT_TRUE(std::holds_alternative<DepthToSpaceDesc>(plan->nodes[1].node.op));
}

// Epilogue and input fusions (PReLU, residual through a nearest upsampling, max pool in the store,
// concat of an upsampled tensor and a skip in the loads): each fires where the kernel rule allows,
// the fused node's extra inputs sit at their fixed positions, and nothing fuses when the rule says no.
TEST(GraphFusion, ConvolutionEpiloguesAndInputsFold) {
    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 8, 16, 16}));
    ValueId slope = g.addConstant("slope", f32({1, 16, 1, 1}), randomData(16, 7));
    ValueId c1 = conv3x3(g, x, 8, 16, "c1", 1);
    ValueId p1 = g.addNode(ElementWiseDesc{.name = "prelu", .op = ElementWiseOp::PRelu}, {c1, slope}).value()[0];
    ValueId pooled = g.addNode(PoolingDesc{.name = "pool", .type = PoolingType::Max, .window = {2, 2}, .strides = {2, 2}}, {p1}).value()[0];
    ValueId c2 = activation(g, conv3x3(g, pooled, 16, 16, "c2", 3), relu(), "relu");
    ValueId up = g.addNode(ResampleDesc{.name = "up", .mode = ResampleMode::Nearest, .scales = {2.0f, 2.0f}}, {c2}).value()[0];
    ValueId cat = g.addNode(ConcatDesc{.name = "cat", .axis = 1}, {up, x}).value()[0];
    ValueId c3 = conv3x3(g, cat, 24, 8, "c3", 5);
    ValueId base = g.addNode(ResampleDesc{.name = "base", .mode = ResampleMode::Nearest, .scales = {2.0f, 2.0f}}, {pooled}).value()[0];
    ValueId c4 = conv3x3(g, c3, 8, 16, "c4", 9);
    ValueId sum = g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {c4, base}).value()[0];
    g.markOutput(sum);

    std::vector<ConvolutionDesc> asked;
    auto plan = planGraph(g, {.convFusion = [&](const ConvolutionDesc& d, const detail::ConvolutionFusion&) {
                                  asked.push_back(d);
                                  return true;
                              }});
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->nodes.size(), 4u) << "one node per convolution";
    auto count = [&](const std::string& text) {
        return std::count_if(plan->report.fusions.begin(), plan->report.fusions.end(), [&](const std::string& f) { return f.find(text) != std::string::npos; });
    };
    EXPECT_EQ(count("PReLU in the convolution's epilogue"), 1);
    EXPECT_EQ(count("2x2 max pool in the convolution's store"), 1);
    EXPECT_EQ(count("read by the convolution's loads (nearest x2)"), 1);
    EXPECT_EQ(count("residual add in the convolution's epilogue (nearest x2"), 1);
    EXPECT_FALSE(asked.empty());
    for (const auto& pn : plan->nodes) {
        const auto& f = pn.fusion;
        if (f.preluSlope) {
            EXPECT_TRUE(f.pooledOutput.has_value()) << "PReLU then the pool, both in c1";
            EXPECT_EQ(pn.node.inputs.at(3), slope);
        }
        if (f.concat) {
            EXPECT_EQ(f.sourceScale, 2u);
            EXPECT_EQ(pn.node.inputs[0], c2) << "the upsampling's input is read directly";
            EXPECT_EQ(pn.node.inputs.at(5), x);
        }
        if (f.residual) {
            EXPECT_EQ(f.residualScale, 2u);
            EXPECT_EQ(pn.node.inputs.at(4), pooled);
            EXPECT_EQ(pn.node.outputs[0], sum);
        }
    }
    auto refused = planGraph(g, {.convFusion = [](const ConvolutionDesc&, const detail::ConvolutionFusion&) { return false; }});
    ASSERT_TRUE(refused.ok());
    EXPECT_GT(refused->nodes.size(), 8u) << "no kernel takes them: every node stays";
    auto none = planGraph(g, {});
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->nodes.size(), refused->nodes.size()) << "no rule (no tensor cores): no epilogue fusion";
}

// A residual image model's tail: conv -> depth-to-space, + bilinear x2 of the input, clip. The
// resize, add and clip all move into the convolution's store; other resizes (align_corners, a
// non-integer factor) and a clip read elsewhere stay nodes.
TEST(GraphFusion, BilinearResidualAndClipFoldIntoTheStore) {
    auto build = [](CoordinateTransform transform, float scale, bool clipAlsoOutput) {
        GraphDesc g;
        ValueId x = g.addInput("x", f32({1, 3, 10, 14}));
        ValueId c = g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2}, {conv3x3(g, x, 3, 12, "tail", 1)}).value()[0];
        ValueId base = g.addNode(ResampleDesc{.name = "base", .mode = ResampleMode::Linear, .transform = transform, .scales = {scale, scale}}, {x}).value()[0];
        ValueId sum = g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {base, c}).value()[0];
        ValueId y = g.addNode(ElementWiseDesc{.name = "clip", .op = ElementWiseOp::Clip, .clipMin = 0.0f, .clipMax = 1.0f}, {sum}).value()[0];
        g.markOutput(y);
        if (clipAlsoOutput) g.markOutput(sum);
        return std::pair{g, y};
    };
    auto take = [](const ConvolutionDesc&, const detail::ConvolutionFusion&) { return true; };
    for (CoordinateTransform t : {CoordinateTransform::HalfPixel, CoordinateTransform::PytorchHalfPixel}) {
        auto [g, y] = build(t, 2.0f, false);
        auto plan = planGraph(g, {.convFusion = take});
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        ASSERT_EQ(plan->nodes.size(), 1u) << "conv, shuffle, resize, add and clip: one node";
        const detail::ConvolutionFusion& f = plan->nodes[0].fusion;
        ASSERT_TRUE(f.residual.has_value());
        EXPECT_TRUE(f.residualLinear);
        EXPECT_EQ(f.residualScale, 2u);
        ASSERT_TRUE(f.clampAfterResidual.has_value());
        EXPECT_EQ((*f.clampAfterResidual)[0], 0.0f);
        EXPECT_EQ((*f.clampAfterResidual)[1], 1.0f);
        EXPECT_EQ(plan->nodes[0].node.inputs.at(4), g.inputs[0]) << "the resize's input is read directly";
        EXPECT_EQ(plan->nodes[0].node.outputs[0], y);
    }
    {
        auto [g, y] = build(CoordinateTransform::AlignCorners, 2.0f, false);
        auto plan = planGraph(g, {.convFusion = take});
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        EXPECT_GT(plan->nodes.size(), 1u) << "align_corners is another sampling: the resize stays";
    }
    {
        auto [g, y] = build(CoordinateTransform::HalfPixel, 2.0f, true);
        auto plan = planGraph(g, {.convFusion = take});
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        for (const auto& pn : plan->nodes) EXPECT_FALSE(pn.fusion.clampAfterResidual.has_value()) << "the sum is an output too: no clip in the store";
    }
}

// A super-resolution tail whose global skip is a bicubic x2 of the input (PyTorch's
// F.interpolate(mode='bicubic')): the residual read has no cubic sampling, so the resize stays
// its own node, and the add still folds into the convolution's store as a plain residual (its
// output read at the stored size).
TEST(GraphFusion, BicubicResidualStaysItsOwnNode) {
    for (CoordinateTransform t : {CoordinateTransform::HalfPixel, CoordinateTransform::PytorchHalfPixel, CoordinateTransform::AlignCorners}) {
        SCOPED_TRACE(int(t));
        GraphDesc g;
        ValueId x = g.addInput("x", f32({1, 3, 10, 14}));
        ValueId c = g.addNode(DepthToSpaceDesc{.name = "shuffle", .blockSize = 2}, {conv3x3(g, x, 3, 12, "tail", 1)}).value()[0];
        ValueId base = g.addNode(ResampleDesc{.name = "base", .mode = ResampleMode::Cubic, .transform = t, .scales = {2.0f, 2.0f}}, {x}).value()[0];
        ValueId sum = g.addNode(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {base, c}).value()[0];
        g.markOutput(sum);
        auto plan = planGraph(g, {.convFusion = [](const ConvolutionDesc&, const detail::ConvolutionFusion&) { return true; }});
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        int resizes = 0;
        for (const auto& pn : plan->nodes) {
            if (const auto* r = std::get_if<ResampleDesc>(&pn.node.op)) {
                ++resizes;
                EXPECT_EQ(r->mode, ResampleMode::Cubic);
                EXPECT_EQ(pn.node.outputs.at(0), base);
            }
            EXPECT_FALSE(pn.fusion.residualLinear) << pn.label;
            EXPECT_LE(pn.fusion.residualScale, 1u) << pn.label << ": a resize folded into a residual read";
            EXPECT_LE(pn.fusion.sourceScale, 1u) << pn.label;
        }
        EXPECT_EQ(resizes, 1) << "the cubic resize runs as its own dispatch";
    }
}
