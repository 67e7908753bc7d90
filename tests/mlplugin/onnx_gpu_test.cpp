// Every committed ONNX model compiled and run on the GPU (lavapipe, validation on) through the
// public API, fp32 and fp16, compared with PyTorch's output.
#include "bridge/graph_session.h"
#include "onnx_models.h"
#include "op_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>

namespace {

using namespace mlplugin;
using onnxtest::ModelCase;

struct GpuCase {
    ModelCase model;
    DataType precision;
    uint32_t compileFlags = 0;  // node by node (no fusion, no aliasing) as well as optimized

    std::string label() const {
        return model.name + (precision == DataType::Float16 ? "_fp16" : "_fp32") + (compileFlags ? "_unfused" : "");
    }
};

void PrintTo(const GpuCase& c, std::ostream* os) { *os << c.label(); }

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
        bridge::GraphSession session(ctx(), optest::device(), model->graph, c.compileFlags);
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
        cases.push_back({m, DataType::Float32, GraphCompileFlagDisableFusion | GraphCompileFlagDisableAliasing});
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Models, OnnxGpuTest, ::testing::ValuesIn(gpuCases()), [](const auto& p) { return p.param.label(); });

}  // namespace

namespace {

// Bit-flipped models that still load (flips in weights, names, some attributes) must compile or
// fail compileGraph with a message: the loader never hands the compiler an inconsistent graph.
class OnnxFuzzCompileTest : public testsupport::VulkanTest {};

TEST_F(OnnxFuzzCompileTest, LoadableBitFlippedModelsCompileOrFailCleanly) {
    std::ifstream f(onnxtest::dataPath("unet_op11.onnx"), std::ios::binary);
    std::vector<uint8_t> original{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    ASSERT_GT(original.size(), 1000u);
    std::mt19937 rng(99);
    int compiled = 0, attempts = 0;
    for (int trial = 0; trial < 60; ++trial) {
        auto bytes = original;
        for (int k = 0; k < 2; ++k) bytes[rng() % bytes.size()] ^= uint8_t(1u << (rng() % 8));
        auto model = mlplugin::loadOnnx(bytes);
        if (!model.ok()) continue;
        ++attempts;
        auto c = mlplugin::compileGraph(optest::device(), model->graph);
        if (c.ok()) ++compiled;
        else EXPECT_FALSE(c.error().message.empty());
    }
    EXPECT_GT(attempts, 0);
    EXPECT_GT(compiled, 0);
}

}  // namespace

namespace {

using namespace mlplugin;

// PyTorch's ESPCN export (conv 5x5 + tanh, conv 3x3 + tanh, conv 3x3, CRD depth-to-space) runs as
// one fused convolution-chain dispatch when chains are enabled (opt-in) and still matches PyTorch.
class OnnxConvChainTest : public testsupport::VulkanTest, public ::testing::WithParamInterface<DataType> {};

TEST_P(OnnxConvChainTest, EspcnRunsAsOneConvChainAndMatchesPyTorch) {
    if (GetParam() == DataType::Float16 && !optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    OnnxLoadOptions options;
    options.computeType = GetParam();
    auto model = loadOnnxFile(onnxtest::dataPath("espcn_op13.onnx"), options);
    ASSERT_TRUE(model.ok()) << model.error().message;
    auto inputs = onnxtest::readArrays("espcn", {"input"});
    auto want = onnxtest::readArrays("espcn", {"output"});
    try {
        bridge::GraphSession session(ctx(), optest::device(), model->graph, GraphCompileFlagForceConvChains);
        const auto& report = session.compiled().report;
        EXPECT_EQ(report.dispatchablesOut, 1u);
        bool chain = std::any_of(report.fusions.begin(), report.fusions.end(), [](const std::string& f) {
            return f.find("convolution-chain dispatch (3 layers, depth-to-space in the store)") != std::string::npos;
        });
        EXPECT_TRUE(chain);
        session.setInputs({inputs[0].values});
        session.run();
        auto got = session.readOutputs();
        std::vector<double> g(got[0].begin(), got[0].end());
        EXPECT_LT(onnxtest::relativeL2(g, want[0].values), GetParam() == DataType::Float16 ? 1e-2 : 1e-4);
    } catch (const std::exception& e) {
        FAIL() << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(Precision, OnnxConvChainTest, ::testing::Values(DataType::Float32, DataType::Float16),
                         [](const auto& p) { return std::string(toString(p.param)); });

}  // namespace
