// Every committed ONNX model compiled and run on the GPU (lavapipe, validation on) through the
// public API, fp32 and fp16, compared with PyTorch's output.
#include "graph_session.h"
#include "onnx_models.h"
#include "op_test.h"

#include <gtest/gtest.h>

namespace {

using namespace mlplugin;
using onnxtest::ModelCase;

struct GpuCase {
    ModelCase model;
    DataType precision;
};

void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.model.name << (c.precision == DataType::Float16 ? " fp16" : " fp32"); }

class OnnxGpuTest : public testsupport::VulkanTest, public ::testing::WithParamInterface<GpuCase> {};

TEST_P(OnnxGpuTest, MatchesPyTorch) {
    const GpuCase& c = GetParam();
    if (c.precision == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    OnnxLoadOptions options = c.model.options;
    options.computeType = c.precision;
    auto model = loadOnnxFile(onnxtest::dataPath(c.model.name + ".onnx"), options);
    ASSERT_TRUE(model.ok()) << model.error().message;
    auto inputs = onnxtest::readArrays(c.model.data, c.model.inputs);
    auto want = onnxtest::readArrays(c.model.data, c.model.outputs);
    std::vector<std::vector<float>> values;
    for (auto& a : inputs) values.push_back(a.values);
    try {
        mlrun::GraphSession session(ctx(), optest::device(), model->graph);
        session.setInputs(values);
        session.run();
        auto got = session.readOutputs();
        ASSERT_EQ(got.size(), want.size());
        // PyTorch's fp32 differs from ours in rounding only; fp16 keeps ~3 decimal digits.
        double tolerance = c.precision == DataType::Float16 ? 1e-2 : 1e-4;
        for (size_t o = 0; o < got.size(); ++o) {
            std::vector<double> g(got[o].begin(), got[o].end());
            EXPECT_LT(onnxtest::relativeL2(g, want[o].values), tolerance) << c.model.outputs[o];
        }
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

std::vector<GpuCase> gpuCases() {
    std::vector<GpuCase> cases;
    for (const auto& m : onnxtest::allModels()) {
        cases.push_back({m, DataType::Float32});
        cases.push_back({m, DataType::Float16});
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Models, OnnxGpuTest, ::testing::ValuesIn(gpuCases()), [](const auto& p) {
    return p.param.model.name + (p.param.precision == DataType::Float16 ? "_fp16" : "_fp32");
});

}  // namespace
