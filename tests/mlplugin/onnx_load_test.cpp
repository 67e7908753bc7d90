// CPU-only ONNX loader tests: every committed model loads and its graph, evaluated by the CPU
// reference, matches PyTorch; malformed files and unsupported operators fail cleanly.
#include "onnx_models.h"

#include <gtest/gtest.h>

#include <algorithm>

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

namespace {

using namespace mlplugin;

Result<OnnxModel> load(const std::string& name) { return loadOnnxFile(onnxtest::dataPath(name + ".onnx")); }

template <class Pred>
size_t countNodes(const GraphDesc& g, Pred pred) {
    size_t n = 0;
    for (const auto& node : g.nodes) n += pred(node.op) ? 1 : 0;
    return n;
}

bool isActivation(const OperatorDesc& op, ActivationType type) {
    auto* e = std::get_if<ElementWiseDesc>(&op);
    return e && e->op == ElementWiseOp::Activation && e->activation.type == type;
}

// PyTorch writes Gelu as Div -> Erf -> Add -> Mul -> Mul before opset 20; the loader turns the
// chain into one Gelu activation (the plugin has no Erf).
TEST(OnnxStructure, ErfChainBecomesGelu) {
    for (const char* name : {"elementwise_op9", "elementwise_op17"}) {
        auto m = load(name);
        ASSERT_TRUE(m.ok()) << m.error().message;
        EXPECT_EQ(countNodes(m->graph, [](const OperatorDesc& op) { return isActivation(op, ActivationType::Gelu); }), 1u) << name;
    }
}

// PyTorch exports pixel_shuffle at opset 9 as Reshape(6-D) -> Transpose -> Reshape; the loader
// turns the chain into one CRD DepthToSpace (opset 11+ files carry the DepthToSpace itself).
TEST(OnnxStructure, SixDimPixelShuffleChainBecomesDepthToSpace) {
    for (const char* name : {"espcn_op9", "espcn_op11"}) {
        auto m = load(name);
        ASSERT_TRUE(m.ok()) << m.error().message;
        // conv, tanh, conv, tanh, conv, depth-to-space: no transpose, no copies.
        EXPECT_EQ(m->graph.nodes.size(), 6u) << name;
        ASSERT_EQ(countNodes(m->graph, [](const OperatorDesc& op) { return std::holds_alternative<DepthToSpaceDesc>(op); }), 1u) << name;
        const auto& d = std::get<DepthToSpaceDesc>(m->graph.nodes.back().op);
        EXPECT_EQ(d.blockSize, 2u) << name;
        EXPECT_EQ(d.order, DepthSpaceOrder::CRD) << name;
        EXPECT_EQ(d.input.toString(), "fp32[1,4,6,6]") << name;
        EXPECT_EQ(m->graph.values[m->graph.outputs[0]].desc.toString(), "fp32[1,1,12,12]") << name;
    }
}

// Reshape/Flatten/Squeeze/Unsqueeze of runtime tensors are views: no copy nodes.
TEST(OnnxStructure, ReshapesAreViews) {
    for (const char* name : {"poolhead_op11", "poolhead_op13", "normsoftmax_op9", "normsoftmax_op13"}) {
        auto m = load(name);
        ASSERT_TRUE(m.ok()) << m.error().message;
        size_t copies = countNodes(m->graph, [](const OperatorDesc& op) {
            auto* e = std::get_if<ElementWiseDesc>(&op);
            return e && e->op == ElementWiseOp::Identity && e->output.elementCount() == e->a.elementCount();
        });
        EXPECT_EQ(copies, 0u) << name;
    }
}

// Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains fold at load: no shape arithmetic
// reaches the graph, whose nodes are all operators the plugin runs.
TEST(OnnxStructure, ShapeChainsFold) {
    OnnxLoadOptions o;
    o.freeDimensions["batch"] = 3;
    auto m = loadOnnxFile(onnxtest::dataPath("poolhead_dynamic_op13.onnx"), o);
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ(m->graph.inputs.size(), 1u);
    // conv, relu, max pool, average pool, 2 resizes, 2 global pools, concat, gemm, sigmoid
    EXPECT_EQ(m->graph.nodes.size(), 11u);
    const TensorDesc& out = m->graph.values[m->graph.outputs[0]].desc;
    EXPECT_EQ(out.toString(), "fp32[3,5]");
}

TEST(OnnxStructure, SupportedOperatorList) {
    const auto& ops = supportedOnnxOperators();
    EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end()));
    for (const char* op : {"Conv", "ConvTranspose", "Gemm", "MatMul", "Resize", "Upsample", "DepthToSpace", "SpaceToDepth", "Slice", "Pad",
                           "Split", "Reshape", "BatchNormalization", "InstanceNormalization", "ReduceMean", "Softmax", "LogSoftmax",
                           "ConstantOfShape", "Shape", "Gather", "Expand", "Tile", "HardSwish", "Softplus", "Cast"})
        EXPECT_TRUE(std::binary_search(ops.begin(), ops.end(), op)) << op;
}

TEST(OnnxStructure, Fp16ComputeTypeAppliesToInputsAndOutputs) {
    OnnxLoadOptions o;
    o.computeType = DataType::Float16;
    auto m = loadOnnxFile(onnxtest::dataPath("unet_op11.onnx"), o);
    ASSERT_TRUE(m.ok()) << m.error().message;
    EXPECT_EQ(m->graph.values[m->graph.inputs[0]].desc.dataType, DataType::Float16);
    EXPECT_EQ(m->graph.values[m->graph.outputs[0]].desc.dataType, DataType::Float16);
}

}  // namespace

namespace {

using namespace mlplugin;

// Parsed once, converted at several extents: each conversion equals loading the file at that
// extent, and the graph input's symbolic dims (and only those) are marked free for reshapeGraph.
TEST(OnnxParsedModel, ConvertsAtAnyExtentAndMarksTheSymbolicDims) {
    auto parsed = parseOnnxFile(onnxtest::dataPath("espcn_dynamic_op13.onnx"));
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    for (auto [h, w] : {std::pair{5u, 7u}, std::pair{12u, 3u}}) {
        OnnxLoadOptions options;
        options.freeDimensions = {{"height", h}, {"width", w}};
        auto converted = loadOnnx(**parsed, options);
        auto loaded = loadOnnxFile(onnxtest::dataPath("espcn_dynamic_op13.onnx"), options);
        ASSERT_TRUE(converted.ok()) << converted.error().message;
        ASSERT_TRUE(loaded.ok());
        const GraphValue& in = converted->graph.values[converted->graph.inputs[0]];
        EXPECT_EQ(in.desc, loaded->graph.values[loaded->graph.inputs[0]].desc);
        EXPECT_EQ(in.desc.sizes[2], h);
        EXPECT_EQ(in.desc.sizes[3], w);
        EXPECT_EQ(in.freeDimMask, kFreeHeightWidth) << "dims 2 and 3 are 'height' and 'width'; 0 and 1 are fixed";
        EXPECT_EQ(converted->graph.nodes.size(), loaded->graph.nodes.size());
    }
    auto fixed = load("espcn_op13");  // every input dim is a number
    ASSERT_TRUE(fixed.ok());
    EXPECT_EQ(fixed->graph.values[fixed->graph.inputs[0]].freeDimMask, 0u);
}

TEST(OnnxParsedModel, ParseErrorsNameTheFile) {
    const uint8_t junk[] = {0xde, 0xad, 0xbe, 0xef};
    auto bad = parseOnnx(junk);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::InvalidModel);
    EXPECT_NE(bad.error().message.find("not a valid ONNX protobuf"), std::string::npos);
    auto missing = parseOnnxFile("/nonexistent/model.onnx");
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::IoError);
    EXPECT_NE(missing.error().message.find("/nonexistent/model.onnx"), std::string::npos);
}

}  // namespace
