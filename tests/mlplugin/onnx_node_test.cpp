// ONNX's backend node tests (tests/data/onnx_node, from tools/make_node_tests.py) through the
// loader and the graph's CPU reference: each case loads and matches ONNX's expected outputs, or
// fails with the Unsupported error it documents.
#include "mlplugin/graph.h"
#include "mlplugin/onnx.h"
#include "onnx_node_cases.h"

#include <gtest/gtest.h>

namespace {

using namespace mlplugin;
using onnxtest::NodeCase;

class OnnxNodeTest : public ::testing::TestWithParam<NodeCase> {};

TEST_P(OnnxNodeTest, ReferenceMatchesOnnx) {
    const NodeCase& c = GetParam();
    auto model = loadOnnxFile(c.dir + "/model.onnx");
    if (!c.expectPass) {
        ASSERT_FALSE(model.ok()) << "expected Unsupported (" << c.unsupportedText << ")";
        EXPECT_EQ(model.error().code, ErrorCode::Unsupported) << model.error().message;
        EXPECT_NE(model.error().message.find(c.unsupportedText), std::string::npos) << model.error().message;
        return;
    }
    ASSERT_TRUE(model.ok()) << model.error().message;
    auto inputs = onnxtest::readNodeTensors(c, "input");
    auto outputs = onnxtest::readNodeTensors(c, "output");
    ASSERT_EQ(inputs.size(), model->graph.inputs.size());
    ASSERT_EQ(outputs.size(), model->graph.outputs.size());
    std::vector<HostTensor> host;
    for (size_t i = 0; i < inputs.size(); ++i) host.push_back({model->graph.values[model->graph.inputs[i]].desc, inputs[i].values});
    auto got = referenceEvaluateGraph(model->graph, host);
    ASSERT_TRUE(got.ok()) << got.error().message;
    for (size_t o = 0; o < outputs.size(); ++o) {
        const TensorDesc& d = model->graph.values[model->graph.outputs[o]].desc;
        // Scalars are [1] on the GPU; otherwise the shapes must agree.
        if (!outputs[o].dims.empty()) {
            ASSERT_EQ(d.rank, outputs[o].dims.size()) << "output " << o << " " << d.toString();
            for (uint32_t k = 0; k < d.rank; ++k) EXPECT_EQ(int64_t(d.sizes[k]), outputs[o].dims[k]) << "output " << o << " dim " << k;
        }
        // The expected values are ONNX's numpy results, mostly in fp32: the reference computes
        // in double.
        std::string mismatch = onnxtest::compareNodeOutput((*got)[o].data, outputs[o], 1e-4, 1e-6);
        EXPECT_EQ(mismatch, "") << "output " << o;
    }
}

INSTANTIATE_TEST_SUITE_P(Node, OnnxNodeTest, ::testing::ValuesIn(onnxtest::nodeCases()), [](const auto& p) { return p.param.name; });

}  // namespace
