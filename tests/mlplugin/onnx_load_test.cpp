// CPU-only ONNX loader tests: every committed model loads and its graph, evaluated by the CPU
// reference, matches PyTorch; malformed files and unsupported operators fail cleanly.
#include "onnx_models.h"

#include <gtest/gtest.h>

namespace {

using namespace mlplugin;
using onnxtest::ModelCase;

class OnnxModelTest : public ::testing::TestWithParam<ModelCase> {};

TEST_P(OnnxModelTest, ReferenceMatchesPyTorch) {
    const ModelCase& c = GetParam();
    auto model = loadOnnxFile(onnxtest::dataPath(c.name + ".onnx"), c.options);
    ASSERT_TRUE(model.ok()) << model.error().message;
    ASSERT_EQ(model->inputNames, c.inputs);
    ASSERT_EQ(model->outputNames, c.outputs);
    auto inputs = onnxtest::readArrays(c.data, c.inputs);
    auto outputs = onnxtest::readArrays(c.data, c.outputs);
    std::vector<HostTensor> host;
    for (size_t i = 0; i < inputs.size(); ++i) host.push_back(onnxtest::toHost(inputs[i], model->graph.values[model->graph.inputs[i]].desc));
    auto got = referenceEvaluateGraph(model->graph, host);
    ASSERT_TRUE(got.ok()) << got.error().message;
    ASSERT_EQ(got->size(), outputs.size());
    for (size_t o = 0; o < outputs.size(); ++o) {
        const TensorDesc& d = model->graph.values[model->graph.outputs[o]].desc;
        ASSERT_EQ(d.elementCount(), outputs[o].values.size()) << c.outputs[o] << " " << d.toString();
        for (uint32_t k = 0; k < d.rank; ++k) EXPECT_EQ(d.sizes[k], outputs[o].shape.at(k)) << c.outputs[o];
        EXPECT_LT(onnxtest::relativeL2((*got)[o].data, outputs[o].values), 1e-5) << c.outputs[o];
    }
}

INSTANTIATE_TEST_SUITE_P(Models, OnnxModelTest, ::testing::ValuesIn(onnxtest::allModels()),
                         [](const auto& p) { return p.param.name; });

}  // namespace
