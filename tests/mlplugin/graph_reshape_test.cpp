// reshapeGraph on the GPU, through bridge::GraphSession (the way an application runs a graph):
// after a reshape to other, odd extents the results match the CPU reference, in fp32 and fp16,
// with the weights initialized once; constants that change with the extents are initialized
// again; a reshape that is not the same network at other free extents fails naming the problem.
#include "bridge/graph_session.h"
#include "mlplugin/graph_builder.h"
#include "op_test.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

using namespace mlplugin;
using ::testing::HasSubstr;

namespace {

// The tensor's values (its packed elements; fp16 tensors' data may hold one element of padding).
std::vector<float> floats(const HostTensor& t) { return {t.data.begin(), t.data.begin() + t.desc.elementCount()}; }

Expr constant(GraphBuilder& g, const std::string& name, std::initializer_list<uint32_t> sizes, uint32_t seed, double range = 0.4) {
    TensorDesc d = TensorDesc::make(DataType::Float32, sizes);
    return g.constant(name, d, floats(optest::randomTensor(d, seed, -range, range)));
}

// Convolutions with owned weights (re-laid out at initialization), a folded batch norm, a pooled
// branch, a depth-to-space folded into the second convolution's store and a broadcast constant
// add (copied into the persistent resource): every kind of persistent content a graph has.
// `seed` picks the weights; `mask`: also multiply by a [1,1,2H,2W] constant (extent-dependent).
GraphDesc network(DataType type, uint32_t w, uint32_t h, uint32_t seed = 1, bool mask = false, uint32_t freeDims = kFreeHeightWidth) {
    GraphBuilder g;
    Expr x = g.input("image", TensorDesc::make(type, {1, 3, h, w}), freeDims);
    Expr a = relu(conv2d(x, constant(g, "w1", {8, 3, 3, 3}, seed), constant(g, "b1", {8}, seed + 1), {.pad = 1}));
    a = batchNorm(a, constant(g, "mean", {8}, seed + 2), g.constant("var", TensorDesc::make(DataType::Float32, {8}), std::vector<float>(8, 1.5f)),
                  constant(g, "scale", {8}, seed + 3), constant(g, "shift", {8}, seed + 4));
    Expr s = a + avgPool2d(a, {.window = 3, .stride = 1, .pad = 1});
    Expr y = depthToSpace(conv2d(s, constant(g, "w2", {12, 8, 3, 3}, seed + 5), constant(g, "b2", {12}, seed + 6), {.pad = 1}), 2);
    y = y + constant(g, "offset", {1, 3, 1, 1}, seed + 7);
    if (mask) y = y * constant(g, "mask", {1, 1, 2 * h, 2 * w}, seed + 8, 1.0);
    g.output(sigmoid(y));
    return g.finish().value();
}

class GraphReshapeTest : public testsupport::VulkanTest, public ::testing::WithParamInterface<DataType> {
protected:
    void SetUp() override {
        VulkanTest::SetUp();
        if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    }
    // Runs `session` (whose graph is `graph`) on random inputs; relative L2 against the reference.
    double runAndCompare(bridge::GraphSession& session, const GraphDesc& graph, uint32_t seed) {
        HostTensor host = optest::randomTensor(graph.values[graph.inputs[0]].desc, seed);  // fp16: values rounded to half
        session.setInputs({floats(host)});
        session.run();
        std::vector<float> got = session.readOutputs()[0];
        auto want = referenceEvaluateGraph(graph, {host});
        EXPECT_TRUE(want.ok()) << want.error().message;
        if (!want.ok() || want->at(0).data.size() != got.size()) return INFINITY;
        double num = 0, den = 0;
        for (size_t i = 0; i < got.size(); ++i) {
            const double r = want->at(0).data[i];
            num += (got[i] - r) * (got[i] - r);
            den += r * r;
        }
        return std::sqrt(num / den);
    }
    double tolerance() const { return GetParam() == DataType::Float16 ? 1e-2 : 1e-4; }
};

TEST_P(GraphReshapeTest, MatchesTheReferenceAtEveryExtentWithWeightsInitializedOnce) {
    const DataType type = GetParam();
    std::vector<GraphDesc> graphs;  // the session keeps a pointer to the current one
    graphs.reserve(5);
    graphs.push_back(network(type, 23, 15));
    bridge::GraphSession session(ctx(), optest::device(), graphs.back());
    EXPECT_LT(runAndCompare(session, graphs.back(), 1), tolerance());
    const uint64_t persistentBytes = session.compiled().op->bindingProperties().persistentBytes;
    ASSERT_GT(persistentBytes, 0u);
    const std::pair<uint32_t, uint32_t> extents[] = {{37, 19}, {9, 31}, {1, 1}, {23, 15}};
    for (auto [w, h] : extents) {
        graphs.push_back(network(type, w, h));
        session.reshape(graphs.back());
        const GraphCompileReport& report = session.compiled().report;
        EXPECT_TRUE(report.persistentReused) << w << "x" << h << ": " << report.persistentChange;
        EXPECT_EQ(session.compiled().op->bindingProperties().persistentBytes, persistentBytes);
        EXPECT_LT(runAndCompare(session, graphs.back(), w * 100 + h), tolerance()) << w << "x" << h;
    }
    EXPECT_EQ(session.reshapes(), 4u);
    EXPECT_EQ(session.weightInitializations(), 1u);
}

// Other weights make another persistent resource: reshapeGraph must notice (by content, not by
// shape) and the session initialize again; reusing the old weights would fail the comparison.
TEST_P(GraphReshapeTest, OtherConstantsAreInitializedAgain) {
    const DataType type = GetParam();
    std::vector<GraphDesc> graphs;
    graphs.reserve(3);
    graphs.push_back(network(type, 11, 7, 1));
    bridge::GraphSession session(ctx(), optest::device(), graphs.back());
    graphs.push_back(network(type, 13, 9, 40));
    session.reshape(graphs.back());
    EXPECT_FALSE(session.compiled().report.persistentReused);
    EXPECT_THAT(session.compiled().report.persistentChange, HasSubstr("constants differ"));
    EXPECT_EQ(session.weightInitializations(), 2u);
    EXPECT_LT(runAndCompare(session, graphs.back(), 3), tolerance());
    // A constant whose shape follows the extents: same network, but a persistent resource of
    // another size.
    graphs.push_back(network(type, 13, 9, 40, /*mask*/ true));
    bridge::GraphSession masked(ctx(), optest::device(), graphs.back());
    GraphDesc larger = network(type, 17, 9, 40, true);
    masked.reshape(larger);
    EXPECT_FALSE(masked.compiled().report.persistentReused);
    EXPECT_THAT(masked.compiled().report.persistentChange, HasSubstr("bytes at these extents"));
    EXPECT_EQ(masked.weightInitializations(), 2u);
    EXPECT_LT(runAndCompare(masked, larger, 4), tolerance());
}

INSTANTIATE_TEST_SUITE_P(Precision, GraphReshapeTest, ::testing::Values(DataType::Float32, DataType::Float16),
                         [](const ::testing::TestParamInfo<DataType>& p) { return std::string(toString(p.param)); });

class GraphReshapeErrorTest : public testsupport::VulkanTest {
protected:
    std::string reshapeError(const GraphDesc& from, const GraphDesc& to) {
        auto compiled = compileGraph(optest::device(), from);
        EXPECT_TRUE(compiled.ok()) << compiled.error().message;
        if (!compiled.ok()) return "(compile failed)";
        auto r = reshapeGraph(optest::device(), *compiled, to);
        if (r.ok()) return "(no error)";
        EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
        return r.error().message;
    }
};

TEST_F(GraphReshapeErrorTest, NonFreeDimChanged) {
    GraphBuilder g;
    Expr x = g.input("image", TensorDesc::make(DataType::Float32, {1, 4, 9, 7}), kFreeHeightWidth);
    g.output(relu(x));
    GraphBuilder g2;
    Expr y = g2.input("image", TensorDesc::make(DataType::Float32, {1, 5, 9, 7}), kFreeHeightWidth);
    g2.output(relu(y));
    EXPECT_EQ(reshapeError(g.finish().value(), g2.finish().value()),
              "reshapeGraph: input 0 'image' dim 1 changed from 4 to 5, but it is not a free dim (free: {2, 3}, GraphValue::freeDimMask)");
}

TEST_F(GraphReshapeErrorTest, NoDimIsFreeByDefault) {
    EXPECT_THAT(reshapeError(network(DataType::Float32, 8, 6, 1, false, 0), network(DataType::Float32, 10, 6, 1, false, 0)),
                HasSubstr("dim 3 changed from 8 to 10, but it is not a free dim (free: none"));
}

TEST_F(GraphReshapeErrorTest, ZeroAndHugeExtents) {
    GraphDesc zero = network(DataType::Float32, 8, 6);
    zero.values[zero.inputs[0]].desc.sizes[2] = 0;
    EXPECT_THAT(reshapeError(network(DataType::Float32, 8, 6), zero), HasSubstr("input 0 'image' dim 2 is 0"));
    GraphDesc huge = network(DataType::Float32, 8, 6);
    huge.values[huge.inputs[0]].desc.sizes[2] = 1u << 30;
    huge.values[huge.inputs[0]].desc.sizes[3] = 1u << 30;
    EXPECT_THAT(reshapeError(network(DataType::Float32, 8, 6), huge), HasSubstr("more than the device's maxStorageBufferRange"));
}

TEST_F(GraphReshapeErrorTest, AnotherNetwork) {
    GraphDesc more = network(DataType::Float32, 8, 6, 1, /*mask*/ true);
    EXPECT_THAT(reshapeError(network(DataType::Float32, 8, 6), more), HasSubstr("the graph has"));
    EXPECT_THAT(reshapeError(network(DataType::Float32, 8, 6), more), HasSubstr("(not the same network)"));
    GraphDesc other = network(DataType::Float32, 8, 6);
    other.nodes.front().op = PoolingDesc{.name = "pool"};
    EXPECT_THAT(reshapeError(network(DataType::Float32, 8, 6), other), HasSubstr("reshapeGraph: node 0 is pooling 'pool' where the compiled graph has convolution"));
    EXPECT_THAT(reshapeError(network(DataType::Float32, 8, 6), network(DataType::Float16, 8, 6)), HasSubstr("is fp16, the compiled graph's is fp32"));
}

TEST_F(GraphReshapeErrorTest, OnlyCompiledGraphsReshape) {
    ElementWiseDesc add{.name = "add", .op = ElementWiseOp::Add};
    add.a = add.output = TensorDesc::make(DataType::Float32, {16});
    add.b = add.a;
    CompiledGraph notAGraph;
    notAGraph.op = optest::device().compileOperator(add).value();
    auto r = reshapeGraph(optest::device(), notAGraph, network(DataType::Float32, 8, 6));
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("was not made by compileGraph"));
}

TEST_F(GraphReshapeErrorTest, GraphSessionReportsTheReshapeError) {
    GraphDesc first = network(DataType::Float32, 8, 6), wrong = network(DataType::Float32, 8, 6, 1, false, 0);
    wrong.values[wrong.inputs[0]].desc.sizes[1] = 4;
    bridge::GraphSession session(ctx(), optest::device(), first);
    try {
        session.reshape(wrong);
        FAIL() << "no error";
    } catch (const std::exception& e) {
        EXPECT_THAT(e.what(), HasSubstr("GraphSession::reshape: reshapeGraph: input 0 'image' dim 1 changed from 3 to 4"));
    }
}

}  // namespace
