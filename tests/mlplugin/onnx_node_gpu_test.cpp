// ONNX's backend node tests (tests/data/onnx_node) compiled and run on the GPU (lavapipe,
// validation on) in fp32, against ONNX's expected outputs. Cases the loader refuses are checked
// by the CPU suite (onnx_node_test.cpp) and skipped here.
#include "bridge/graph_session.h"
#include "mlplugin/onnx.h"
#include "onnx_node_cases.h"
#include "op_test.h"

#include <gtest/gtest.h>

namespace {

using namespace mlplugin;
using onnxtest::NodeCase;

class OnnxNodeGpuTest : public testsupport::VulkanTest, public ::testing::WithParamInterface<NodeCase> {};

TEST_P(OnnxNodeGpuTest, MatchesOnnx) {
    const NodeCase& c = GetParam();
    auto model = loadOnnxFile(c.dir + "/model.onnx");
    ASSERT_TRUE(model.ok()) << model.error().message;
    auto inputs = onnxtest::readNodeTensors(c, "input");
    auto outputs = onnxtest::readNodeTensors(c, "output");
    std::vector<std::vector<float>> values;
    for (const auto& t : inputs) values.emplace_back(t.values.begin(), t.values.end());
    try {
        bridge::GraphSession session(ctx(), optest::device(), model->graph);
        session.setInputs(values);
        session.run();
        auto got = session.readOutputs();
        ASSERT_EQ(got.size(), outputs.size());
        for (size_t o = 0; o < got.size(); ++o) {
            // GPU fp32 (exp, log, tanh and divisions are not correctly rounded).
            std::string mismatch = onnxtest::compareNodeOutput(std::vector<double>(got[o].begin(), got[o].end()), outputs[o], 1e-3, 1e-5);
            EXPECT_EQ(mismatch, "") << "output " << o;
        }
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

std::vector<NodeCase> passingCases() {
    std::vector<NodeCase> cases;
    for (auto& c : onnxtest::nodeCases())
        if (c.expectPass) cases.push_back(c);
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Node, OnnxNodeGpuTest, ::testing::ValuesIn(passingCases()), [](const auto& p) { return p.param.name; });

}  // namespace
