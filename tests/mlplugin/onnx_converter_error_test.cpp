// Bad attributes and shapes for the converters of GridSample, LayerNormalization, Tile, MatMul,
// SpaceToDepth / DepthToSpace / Reshape (sizes the block or shape does not divide),
// the opset 18-21 forms (Resize, Pad, Split, Reduce*, Gelu, AveragePool) and the rank limit: each
// fails with InvalidModel (outside the operator's definition) or Unsupported (valid but not
// handled), naming the node and the attribute or input.
#include "mlplugin/onnx.h"

#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using namespace mlplugin;

// One node "n" of `op` producing "y", with float graph inputs and int64 / float initializers
// added in input order.
class NodeModel {
public:
    NodeModel(int64_t opset, const std::string& op) {
        m_.set_ir_version(8);
        auto* o = m_.add_opset_import();
        o->set_domain("");
        o->set_version(opset);
        onnx::NodeProto* n = m_.mutable_graph()->add_node();
        n->set_op_type(op);
        n->set_name("n");
        n->add_output("y");
        m_.mutable_graph()->add_output()->set_name("y");
    }
    NodeModel& input(const std::string& name, std::vector<int64_t> dims) {
        auto* in = m_.mutable_graph()->add_input();
        in->set_name(name);
        auto* tt = in->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(onnx::TensorProto::FLOAT);
        for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
        node()->add_input(name);
        return *this;
    }
    NodeModel& ints(const std::string& name, std::vector<int64_t> values) {
        auto* t = m_.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_dims(int64_t(values.size()));
        for (int64_t v : values) t->add_int64_data(v);
        node()->add_input(name);
        return *this;
    }
    NodeModel& floats(const std::string& name, std::vector<float> values) {
        auto* t = m_.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        t->add_dims(int64_t(values.size()));
        for (float v : values) t->add_float_data(v);
        node()->add_input(name);
        return *this;
    }
    NodeModel& none() {
        node()->add_input("");
        return *this;
    }
    NodeModel& output(const std::string& name) {
        node()->add_output(name);
        return *this;
    }
    NodeModel& attr(const std::string& name, int64_t v) {
        auto* a = add(name, onnx::AttributeProto::INT);
        a->set_i(v);
        return *this;
    }
    NodeModel& attr(const std::string& name, float v) {
        auto* a = add(name, onnx::AttributeProto::FLOAT);
        a->set_f(v);
        return *this;
    }
    NodeModel& attr(const std::string& name, const char* v) {
        auto* a = add(name, onnx::AttributeProto::STRING);
        a->set_s(v);
        return *this;
    }
    NodeModel& attrInts(const std::string& name, std::vector<int64_t> v) {
        auto* a = add(name, onnx::AttributeProto::INTS);
        for (int64_t x : v) a->add_ints(x);
        return *this;
    }
    Result<OnnxModel> load() const {
        std::string s = m_.SerializeAsString();
        return loadOnnx({reinterpret_cast<const uint8_t*>(s.data()), s.size()});
    }

private:
    onnx::AttributeProto* add(const std::string& name, onnx::AttributeProto::AttributeType type) {
        auto* a = node()->add_attribute();
        a->set_name(name);
        a->set_type(type);
        return a;
    }

    // The node lives in m_: no pointer member, so copies stay self-contained.
    onnx::NodeProto* node() { return m_.mutable_graph()->mutable_node(0); }
    onnx::ModelProto m_;
};

void expectError(const NodeModel& model, ErrorCode code, const std::vector<std::string>& mentions) {
    auto r = model.load();
    ASSERT_FALSE(r.ok()) << "loaded; expected an error mentioning " << (mentions.empty() ? "" : mentions[0]);
    EXPECT_EQ(r.error().code, code) << r.error().message;
    EXPECT_NE(r.error().message.find("'n'"), std::string::npos) << r.error().message;  // the node
    for (const auto& m : mentions) EXPECT_NE(r.error().message.find(m), std::string::npos) << "'" << m << "' not in: " << r.error().message;
}

void expectLoads(const NodeModel& model) {
    auto r = model.load();
    EXPECT_TRUE(r.ok()) << r.error().message;
}

// A Concat whose inputs disagree outside the axis (a U-Net at a size its levels do not divide)
// names both shapes, not just the dim.
TEST(OnnxConverterErrors, ConcatMismatchNamesTheShapes) {
    auto concat = [](std::vector<int64_t> second) { return NodeModel(13, "Concat").input("up", {1, 8, 14, 18}).input("skip", second).attr("axis", int64_t(1)); };
    expectLoads(concat({1, 5, 14, 18}));
    expectError(concat({1, 5, 15, 19}), ErrorCode::InvalidModel, {"input 1 [1,5,15,19] and input 0 [1,8,14,18] differ in dim 2", "only dim 1"});
    expectError(concat({1, 5, 14}), ErrorCode::InvalidModel, {"input 1 [1,5,14] and input 0 [1,8,14,18] differ in rank"});
}

// A pixel (un)shuffle at a size its block does not divide names the block and the dim; a
// Reshape whose -1 cannot be inferred names the target shape and the input's.
TEST(OnnxConverterErrors, DepthSpaceBlockMustDivide) {
    expectLoads(NodeModel(13, "SpaceToDepth").input("x", {1, 3, 20, 58}).attr("blocksize", int64_t(2)));
    expectError(NodeModel(13, "SpaceToDepth").input("x", {1, 3, 20, 57}).attr("blocksize", int64_t(2)), ErrorCode::InvalidModel,
                {"blocksize 2 does not divide the input width 57 (input [1,3,20,57])"});
    expectError(NodeModel(13, "SpaceToDepth").input("x", {1, 3, 22, 57}).attr("blocksize", int64_t(3)), ErrorCode::InvalidModel,
                {"blocksize 3 does not divide the input height 22"});
    expectError(NodeModel(13, "DepthToSpace").input("x", {1, 12, 5, 7}).attr("blocksize", int64_t(3)), ErrorCode::InvalidModel,
                {"blocksize^2 = 9 does not divide the input channels 12 (input [1,12,5,7])"});
    expectError(NodeModel(13, "Reshape").input("x", {1, 3, 20, 57}).ints("shape", {1, 3, 10, 2, -1, 2}), ErrorCode::InvalidModel,
                {"cannot infer the -1 dim of shape [1,3,10,2,-1,2] for input [1,3,20,57]: 3420 elements are not divisible by 120"});
}

TEST(OnnxConverterErrors, GridSample) {
    auto gs = [](int64_t opset) { return NodeModel(opset, "GridSample").input("x", {1, 2, 5, 6}).input("grid", {1, 3, 4, 2}); };
    expectLoads(gs(16));
    expectLoads(gs(20).attr("mode", "nearest").attr("padding_mode", "reflection").attr("align_corners", int64_t(1)));
    expectError(gs(20).attr("mode", "bilinear"), ErrorCode::InvalidModel, {"attribute 'mode' = 'bilinear'", "linear, nearest, cubic"});
    expectError(gs(16).attr("mode", "linear"), ErrorCode::InvalidModel, {"attribute 'mode' = 'linear'", "bilinear, nearest, bicubic"});
    expectError(gs(16).attr("mode", "bicubic"), ErrorCode::Unsupported, {"'bicubic' is not supported"});
    expectError(gs(20).attr("mode", "cubic"), ErrorCode::Unsupported, {"'cubic' is not supported"});
    expectError(gs(16).attr("padding_mode", "mirror"), ErrorCode::InvalidModel, {"attribute 'padding_mode' = 'mirror'"});
    expectError(gs(16).attr("align_corners", int64_t(2)), ErrorCode::InvalidModel, {"attribute 'align_corners' is 2"});
    expectError(gs(16).attr("align_corners", 1.0f), ErrorCode::InvalidModel, {"attribute 'align_corners' must be an int"});
    expectError(gs(16).attr("extrapolation", int64_t(1)), ErrorCode::Unsupported, {"attribute 'extrapolation'"});
    expectError(NodeModel(16, "GridSample").input("x", {1, 2, 5, 6}).input("grid", {1, 3, 4, 3}), ErrorCode::InvalidModel,
                {"input 1 (grid) is fp32[1,3,4,3]", "[1, outH, outW, 2]"});
    expectError(NodeModel(16, "GridSample").input("x", {1, 2, 5, 6}).input("grid", {2, 3, 4, 2}), ErrorCode::InvalidModel,
                {"input 1 (grid) is fp32[2,3,4,2]"});
    expectError(NodeModel(16, "GridSample").input("x", {2, 5, 6}).input("grid", {2, 3, 2}), ErrorCode::InvalidModel,
                {"input 0 (X) is fp32[2,5,6]"});
    expectError(NodeModel(20, "GridSample").input("x", {1, 2, 3, 5, 6}).input("grid", {1, 2, 3, 4, 3}), ErrorCode::Unsupported,
                {"only 2-D sampling"});
}

TEST(OnnxConverterErrors, LayerNormalization) {
    auto ln = [] { return NodeModel(17, "LayerNormalization").input("x", {2, 3, 4}); };
    expectLoads(ln().input("scale", {4}));
    expectLoads(ln().input("scale", {3, 1}).input("b", {4}).attr("axis", int64_t(-2)).output("mean").output("inv_std"));
    expectError(ln().input("scale", {5}), ErrorCode::InvalidModel, {"input 1 (Scale) fp32[5]", "normalized dims"});
    expectError(ln().input("scale", {2, 3, 4}).attr("axis", int64_t(1)), ErrorCode::InvalidModel, {"input 1 (Scale) fp32[2,3,4]"});
    expectError(ln().input("scale", {4}).input("b", {3}), ErrorCode::InvalidModel, {"input 2 (B) fp32[3]"});
    expectError(ln(), ErrorCode::InvalidModel, {"input 1 (Scale) is missing"});
    expectError(ln().input("scale", {4}).attr("axis", int64_t(3)), ErrorCode::InvalidModel, {"attribute 'axis' 3 is out of range for rank 3"});
    expectError(ln().input("scale", {4}).attr("epsilon", -1.0f), ErrorCode::InvalidModel, {"attribute 'epsilon'"});
    expectError(ln().input("scale", {4}).attr("stash_type", int64_t(7)), ErrorCode::InvalidModel, {"attribute 'stash_type' is 7"});
    expectError(ln().input("scale", {4}).output("a").output("b").output("c"), ErrorCode::InvalidModel, {"has 4 outputs"});
}

TEST(OnnxConverterErrors, Tile) {
    auto tile = [] { return NodeModel(13, "Tile").input("x", {2, 3}); };
    expectLoads(tile().ints("r", {3, 4}));
    expectError(tile().ints("r", {2}), ErrorCode::InvalidModel, {"repeats [2] must be 1-D with one entry per input dim"});
    expectError(tile().ints("r", {2, -1}), ErrorCode::InvalidModel, {"repeats entry 1 is -1"});
    expectError(tile().ints("r", {0, 2}), ErrorCode::Unsupported, {"empty output"});
    expectError(tile().ints("r", {int64_t(1) << 40, 1}), ErrorCode::InvalidModel, {"elements"});
    expectError(NodeModel(13, "Tile").input("x", {2, 3}).input("r", {2}), ErrorCode::Unsupported, {"repeats", "known at load time"});
}

TEST(OnnxConverterErrors, MatMul) {
    expectLoads(NodeModel(13, "MatMul").input("a", {3, 1, 2, 4, 5}).input("b", {2, 5, 6}));
    expectError(NodeModel(13, "MatMul").input("a", {2, 4, 5}).input("b", {2, 4, 6}), ErrorCode::InvalidModel, {"inner dims differ"});
    expectError(NodeModel(13, "MatMul").input("a", {2, 4, 5}).input("b", {3, 5, 6}), ErrorCode::InvalidModel, {"do not broadcast (batch dim 0"});
    expectError(NodeModel(13, "MatMul").input("a", {2, 1, 3, 2, 4, 5}).input("b", {2, 2, 3, 1, 5, 3}), ErrorCode::Unsupported,
                {"needs 4 batch dims"});
}

TEST(OnnxConverterErrors, ResizeOpset18And19) {
    auto rs = [](int64_t opset) { return NodeModel(opset, "Resize").input("x", {1, 2, 4, 6}).floats("roi", {}); };
    expectLoads(rs(18).floats("scales", {2, 3}).attrInts("axes", {2, 3}));
    expectError(rs(18).floats("scales", {2, 3}).attrInts("axes", {3, -1}), ErrorCode::InvalidModel, {"'axes' lists axis -1 twice"});
    expectError(rs(18).floats("scales", {2, 3}).attrInts("axes", {2}), ErrorCode::InvalidModel, {"scales has 2 values for 1 axes"});
    expectError(rs(18).floats("scales", {2, 3}).attrInts("axes", {2, 4}), ErrorCode::InvalidModel, {"'axes' entry 4 is out of range"});
    expectError(rs(18).floats("scales", {}).ints("sizes", {8, 8}).attrInts("axes", {2, 3}).attr("keep_aspect_ratio_policy", "fit"),
                ErrorCode::InvalidModel, {"'keep_aspect_ratio_policy' = 'fit'"});
    expectError(rs(18).floats("scales", {1, 1, 2, 2}).attr("antialias", int64_t(2)), ErrorCode::InvalidModel, {"'antialias' is 2"});
    expectError(rs(18).floats("scales", {1, 1, 2, 2}).attr("coordinate_transformation_mode", "half_pixel_symmetric"), ErrorCode::InvalidModel,
                {"'half_pixel_symmetric' is not valid at opset 18"});
    expectLoads(rs(19).floats("scales", {1, 1, 2, 2}).attr("coordinate_transformation_mode", "half_pixel_symmetric"));
    expectError(rs(13).floats("scales", {1, 1, 2, 2}).attr("antialias", int64_t(0)), ErrorCode::Unsupported, {"attribute 'antialias'"});
    expectError(rs(18).floats("scales", {1, 2, 2, 2}), ErrorCode::Unsupported, {"scale the batch or channel dim"});
    expectError(rs(18).floats("scales", {1, 1, -2, 2}), ErrorCode::InvalidModel, {"entry 2 is not a positive finite scale"});
    expectError(rs(18).floats("scales", {1, 1, 2, 2}).attr("mode", "bilinear_fast"), ErrorCode::InvalidModel, {"'mode' = 'bilinear_fast'"});
}

TEST(OnnxConverterErrors, PadOpset18To21) {
    auto pad = [](int64_t opset) { return NodeModel(opset, "Pad").input("x", {2, 3, 4}); };
    expectLoads(pad(18).ints("pads", {1, 2}).none().ints("axes", {0}));
    expectError(pad(18).ints("pads", {1, 2, 0, 0}).none().ints("axes", {1, -2}), ErrorCode::InvalidModel, {"axes lists axis -2 twice"});
    expectError(pad(18).ints("pads", {1, 2, 3}).none().ints("axes", {1}), ErrorCode::InvalidModel, {"pads [1,2,3] has 3 values for 1 axes"});
    expectError(pad(18).ints("pads", {1, 2}).none().ints("axes", {3}), ErrorCode::InvalidModel, {"axes entry 3 is out of range"});
    expectError(pad(18).ints("pads", {0, 0, 1, 0, 0, 1}).attr("mode", "wrap"), ErrorCode::InvalidModel, {"'mode' = 'wrap' is not valid at opset 18"});
    expectLoads(pad(19).ints("pads", {0, 0, 9, 0, 0, 9}).attr("mode", "wrap"));
    expectError(pad(19).ints("pads", {0, -1, 0, 0, 1, 0}).attr("mode", "reflect"), ErrorCode::Unsupported, {"negative pads", "'reflect'"});
    expectError(pad(21).ints("pads", {0, -2, 0, 0, -1, 0}), ErrorCode::InvalidModel, {"crop all of dim 1"});
    expectLoads(pad(21).ints("pads", {0, -1, 0, 0, -1, 2}));
    expectError(pad(21).ints("pads", {0, 0, 70000, 0, 0, 0}), ErrorCode::InvalidModel, {"above 65535"});
    // Pads near the int64 limits: rejected by size before begin + end is formed (fuzz_onnx found
    // the signed overflow of 2^62 + 2^62).
    expectError(pad(21).ints("pads", {0, 0, int64_t(1) << 62, 0, 0, int64_t(1) << 62}), ErrorCode::InvalidModel, {"above 65535"});
    expectError(pad(21).ints("pads", {0, 0, INT64_MIN, 0, 0, INT64_MIN}), ErrorCode::InvalidModel, {"crop all of dim 2"});
    expectError(pad(13).ints("pads", {0, 0, 1, 0, 0, 1}).floats("value", {1, 2}), ErrorCode::InvalidModel, {"constant_value) must be a scalar"});
}

TEST(OnnxConverterErrors, SplitOpset18) {
    auto split = [] { return NodeModel(18, "Split").input("x", {2, 7}).attr("axis", int64_t(1)).output("z"); };
    expectLoads(split().attr("num_outputs", int64_t(2)));
    expectError(split().attr("num_outputs", int64_t(3)), ErrorCode::InvalidModel, {"'num_outputs' is 3 but the node has 2 outputs"});
    expectError(split().ints("split", {3, 4}).attr("num_outputs", int64_t(2)), ErrorCode::InvalidModel, {"both given"});
    expectError(split().ints("split", {3, 3}), ErrorCode::InvalidModel, {"split sizes [3,3] add up to 6, the dim is 7"});
    expectError(NodeModel(18, "Split").input("x", {2, 2}).attr("axis", int64_t(1)).output("z").output("w").attr("num_outputs", int64_t(3)),
                ErrorCode::Unsupported, {"leaves empty outputs"});
    expectError(NodeModel(13, "Split").input("x", {2, 2}).attr("num_outputs", int64_t(2)).output("z"), ErrorCode::Unsupported,
                {"attribute 'num_outputs'"});
}

TEST(OnnxConverterErrors, ReduceOpset18) {
    auto reduce = [](int64_t opset, const char* op) { return NodeModel(opset, op).input("x", {2, 3, 4}); };
    expectLoads(reduce(18, "ReduceLogSumExp").ints("axes", {0, -1}).attr("keepdims", int64_t(0)));
    expectError(reduce(18, "ReduceMean").ints("axes", {1, -2}), ErrorCode::InvalidModel, {"axis -2 is listed twice"});
    expectError(reduce(18, "ReduceL1").ints("axes", {3}), ErrorCode::InvalidModel, {"axis 3 is out of range"});
    expectError(reduce(18, "ReduceProd").attr("keepdims", int64_t(2)), ErrorCode::InvalidModel, {"'keepdims' is 2"});
    expectError(reduce(18, "ReduceMax").attr("noop_with_empty_axes", int64_t(5)), ErrorCode::InvalidModel, {"'noop_with_empty_axes' is 5"});
    expectError(reduce(18, "ReduceMin").attrInts("axes", {1}), ErrorCode::Unsupported, {"attribute 'axes' is not supported"});
    expectError(reduce(13, "ReduceMean").ints("axes", {1}), ErrorCode::InvalidModel, {"axes is an attribute before opset 18"});
    expectError(reduce(18, "ReduceSum").input("axes", {1}), ErrorCode::Unsupported, {"axes", "known at load time"});
}

TEST(OnnxConverterErrors, GeluAveragePoolAndOpsetForms) {
    expectLoads(NodeModel(20, "Gelu").input("x", {2, 3}).attr("approximate", "tanh"));
    expectError(NodeModel(20, "Gelu").input("x", {2, 3}).attr("approximate", "fast"), ErrorCode::InvalidModel, {"'approximate' = 'fast'"});
    auto pool = [](int64_t opset) {
        return NodeModel(opset, "AveragePool").input("x", {1, 1, 6, 6}).attrInts("kernel_shape", {2, 2}).attrInts("dilations", {2, 2});
    };
    expectLoads(pool(19));
    expectError(pool(18), ErrorCode::Unsupported, {"attribute 'dilations' is not supported"});
    expectError(NodeModel(18, "LpPool").input("x", {1, 1, 6, 6}).attrInts("kernel_shape", {2, 2}).attr("p", int64_t(0)), ErrorCode::InvalidModel,
                {"attribute 'p' is 0"});
}

// DirectML's rank limit: 8 dims at runtime; a 9-D input or reshape is refused naming it.
TEST(OnnxConverterErrors, RankAboveEight) {
    expectLoads(NodeModel(13, "Relu").input("x", {1, 2, 1, 2, 1, 2, 1, 2}));
    auto r = NodeModel(13, "Relu").input("x", {1, 2, 1, 2, 1, 2, 1, 2, 1}).load();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::Unsupported);
    EXPECT_NE(r.error().message.find("graph input 'x' has rank 9; at most 8"), std::string::npos) << r.error().message;
    expectError(NodeModel(13, "Reshape").input("x", {2, 2, 2, 2, 2, 2, 2, 2}).ints("shape", {2, 2, 2, 2, 2, 2, 2, 1, 2}), ErrorCode::Unsupported,
                {"rank 9; at most 8"});
}

}  // namespace
