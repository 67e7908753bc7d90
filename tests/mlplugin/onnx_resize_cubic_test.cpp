// ONNX Resize with mode "cubic" end to end: a one-node model built in the test (protobuf
// classes), loaded, evaluated by the CPU reference and run on the GPU (fp32, fp16), against
// values PyTorch computed; and the loader's errors for bad cubic attributes.
#include "bridge/graph_session.h"
#include "mlplugin/onnx.h"
#include "onnx_models.h"
#include "op_test.h"

#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace mlplugin;

// Resize (opset `opset`) of a [1, 1, h, w] input "x" to `sizes` (or by `scales`), mode cubic
// plus `attrs`.
struct ResizeModel {
    onnx::ModelProto m;
    onnx::NodeProto* node;

    ResizeModel(int64_t opset, int64_t h, int64_t w, const std::string& op = "Resize") {
        m.set_ir_version(8);
        auto* o = m.add_opset_import();
        o->set_domain("");
        o->set_version(opset);
        auto* g = m.mutable_graph();
        auto* in = g->add_input();
        in->set_name("x");
        auto* tt = in->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(onnx::TensorProto::FLOAT);
        for (int64_t d : {int64_t(1), int64_t(1), h, w}) tt->mutable_shape()->add_dim()->set_dim_value(d);
        g->add_output()->set_name("y");
        node = g->add_node();
        node->set_op_type(op);
        node->set_name("up");
        node->add_input("x");
        node->add_output("y");
        attr("mode", "cubic");
    }
    ResizeModel& floats(const std::string& name, std::vector<float> v) {
        auto* t = m.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::FLOAT);
        t->add_dims(int64_t(v.size()));
        for (float f : v) t->add_float_data(f);
        node->add_input(name);
        return *this;
    }
    ResizeModel& ints(const std::string& name, std::vector<int64_t> v) {
        auto* t = m.mutable_graph()->add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_dims(int64_t(v.size()));
        for (int64_t i : v) t->add_int64_data(i);
        node->add_input(name);
        return *this;
    }
    ResizeModel& attr(const std::string& name, const char* s) {
        for (auto& a : *node->mutable_attribute())
            if (a.name() == name) return a.set_s(s), *this;
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::STRING);
        a->set_s(s);
        return *this;
    }
    ResizeModel& attr(const std::string& name, int64_t i) {
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(i);
        return *this;
    }
    ResizeModel& attr(const std::string& name, float f) {
        auto* a = node->add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(f);
        return *this;
    }
    Result<OnnxModel> load(DataType compute = DataType::Float32) const {
        std::string s = m.SerializeAsString();
        OnnxLoadOptions options;
        options.computeType = compute;
        return loadOnnx({reinterpret_cast<const uint8_t*>(s.data()), s.size()}, options);
    }
};

// The test input: x[y][x] = ((5y + 3x) mod 7) / 7 - 0.5 + 0.1y (the same formula as the script
// below).
std::vector<float> testInput(int h, int w) {
    std::vector<float> v;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) v.push_back(float(((y * 5 + x * 3) % 7) / 7.0 - 0.5 + 0.1 * y));
    return v;
}

// From PyTorch 1.13 (CPU, float64), once:
//   x = <testInput(h, w) as a [1, 1, h, w] float64 tensor>
//   torch.nn.functional.interpolate(x, size=(outH, outW), mode='bicubic', align_corners=AC)
// PyTorch's bicubic is Keys' kernel with a = -0.75 and border-clamped taps: ONNX cubic with
// cubic_coeff_a = -0.75, exclude_outside = 0, half_pixel (AC False) or align_corners (AC True).
struct TorchCase {
    const char* name;
    int h, w, outH, outW;
    const char* transform;
    std::vector<double> want;
};

const TorchCase kTorchCases[] = {
    {"half_pixel_3x4_to_7x9", 3, 4, 7, 9, "half_pixel",
     {-0.647477855, -0.519267146, -0.299888389, -0.011071374, 0.267160818,  0.381047908,  0.209451355,  -0.104530616, -0.256077500,
      -0.431040425, -0.364449757, -0.263317270, -0.072971305, 0.198671127,  0.340090040,  0.165614216,  -0.155876843, -0.310960063,
      0.019799792,  -0.054163678, -0.226368303, -0.249276622, 0.041482716,  0.270045746,  0.072894185,  -0.301160493, -0.480998058,
      0.376381540,  0.224834656,  -0.089147315, -0.258318636, -0.042857143, 0.172604350,  0.003433030,  -0.310548942, -0.462095826,
      0.349662349,  0.284809666,  0.160656007,  0.056402982,  0.059756352,  0.078658798,  0.017966583,  -0.055724563, -0.094108722,
      0.129725922,  0.211804929,  0.394624059,  0.446684022,  0.229736308,  0.014732229,  0.072237293,  0.261364237,  0.346751809,
      0.049814940,  0.197284841,  0.518238002,  0.635101344,  0.305789254,  -0.023522835, 0.093340507,  0.414293668,  0.561763569}},
    {"align_corners_3x4_to_7x9", 3, 4, 7, 9, "align_corners",
     {-0.500000000, -0.373814174, -0.213727679, 0.009974888,  0.236607143,  0.357770647, 0.272879464, 0.019880022,  -0.214285714,
      -0.233333333, -0.244273158, -0.239378720, -0.113938234, 0.131167328,  0.304007265, 0.218003886, -0.060142041, -0.317989418,
      0.078571429,  -0.089513579, -0.262760417, -0.252156446, 0.010201720,  0.239356760, 0.152810847, -0.150481564, -0.432010582,
      0.314285714,  0.080119978,  -0.172879464, -0.247516741, -0.042857143, 0.161802455, 0.087165179, -0.165834263, -0.400000000,
      0.346296296,  0.206287461,  0.049886326,  -0.033304915, 0.025033069,  0.095089802, 0.046186756, -0.064315941, -0.164285714,
      0.232275132,  0.270163432,  0.304354745,  0.266673125,  0.156960979,  0.053108207, 0.032570685, 0.089711217,  0.147619048,
      0.128571429,  0.320675223,  0.520312500,  0.523800223,  0.271428571,  0.019056920, 0.022544643, 0.222181920,  0.414285714}},
    {"half_pixel_6x7_to_4x3", 6, 7, 4, 3, "half_pixel",
     {-0.246184689, -0.284988839, -0.140850281, 0.371505043, 0.242857143, 0.200797784, 0.291017692, 0.138281250, 0.095498512, 0.174983466,
      0.666127232, 0.437146577}},
};

double maxAbsDiff(const std::vector<double>& got, const std::vector<double>& want) {
    double worst = 0;
    for (size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::fabs(got[i] - want[i]));
    return worst;
}

class OnnxResizeCubic : public testsupport::VulkanTest {};

TEST_F(OnnxResizeCubic, MatchesPyTorchBicubic) {
    for (const TorchCase& c : kTorchCases) {
        SCOPED_TRACE(c.name);
        ResizeModel rm(13, c.h, c.w);
        rm.floats("roi", {}).floats("scales", {}).ints("sizes", {1, 1, c.outH, c.outW});
        rm.attr("coordinate_transformation_mode", c.transform).attr("cubic_coeff_a", -0.75f);
        std::vector<float> x = testInput(c.h, c.w);

        auto model = rm.load();
        ASSERT_TRUE(model.ok()) << model.error().message;
        ASSERT_EQ(model->graph.nodes.size(), 1u);
        const auto* r = std::get_if<ResampleDesc>(&model->graph.nodes[0].op);
        ASSERT_NE(r, nullptr);
        EXPECT_EQ(r->mode, ResampleMode::Cubic);
        EXPECT_EQ(r->cubicCoeffA, -0.75f);
        EXPECT_FALSE(r->excludeOutside);

        HostTensor in{model->graph.values[model->graph.inputs[0]].desc, std::vector<double>(x.begin(), x.end())};
        auto ref = referenceEvaluateGraph(model->graph, {in});
        ASSERT_TRUE(ref.ok()) << ref.error().message;
        ASSERT_EQ((*ref)[0].data.size(), c.want.size());
        // fp32 coordinates (ONNX Runtime's choice, and ours) against PyTorch's float64 ones.
        EXPECT_LT(maxAbsDiff((*ref)[0].data, c.want), 1e-6) << "CPU reference";

        for (DataType precision : {DataType::Float32, DataType::Float16}) {
            if (precision == DataType::Float16 && !optest::fp16Supported()) continue;
            SCOPED_TRACE(precision == DataType::Float16 ? "fp16" : "fp32");
            auto gpuModel = rm.load(precision);
            ASSERT_TRUE(gpuModel.ok()) << gpuModel.error().message;
            try {
                bridge::GraphSession session(ctx(), optest::device(), gpuModel->graph);
                session.setInputs({x});
                session.run();
                auto got = session.readOutputs();
                ASSERT_EQ(got.size(), 1u);
                ASSERT_EQ(got[0].size(), c.want.size());
                // fp16 keeps ~3 decimal digits of values below 1.
                EXPECT_LT(maxAbsDiff(std::vector<double>(got[0].begin(), got[0].end()), c.want),
                          precision == DataType::Float16 ? 2e-3 : 1e-5);
            } catch (const std::exception& e) {
                FAIL() << e.what();
            }
        }
    }
}

// The attributes reach the desc: exclude_outside, another coefficient, asymmetric, scales.
TEST_F(OnnxResizeCubic, AttributesReachTheDesc) {
    ResizeModel rm(11, 4, 6);
    rm.floats("roi", {}).floats("scales", {1, 1, 1.5f, 0.5f});
    rm.attr("coordinate_transformation_mode", "asymmetric").attr("cubic_coeff_a", -0.5f).attr("exclude_outside", int64_t(1));
    auto model = rm.load();
    ASSERT_TRUE(model.ok()) << model.error().message;
    const auto& r = std::get<ResampleDesc>(model->graph.nodes[0].op);
    EXPECT_EQ(r.mode, ResampleMode::Cubic);
    EXPECT_EQ(r.transform, CoordinateTransform::Asymmetric);
    EXPECT_EQ(r.cubicCoeffA, -0.5f);
    EXPECT_TRUE(r.excludeOutside);
    EXPECT_EQ(r.scales[0], 1.5f);
    EXPECT_EQ(r.scales[1], 0.5f);
    EXPECT_EQ(model->graph.values[model->graph.outputs[0]].desc.sizes[2], 6u);
    EXPECT_EQ(model->graph.values[model->graph.outputs[0]].desc.sizes[3], 3u);
}

void expectError(const ResizeModel& rm, ErrorCode code, const std::vector<std::string>& mentions) {
    auto r = rm.load();
    ASSERT_FALSE(r.ok()) << "loaded; expected an error";
    EXPECT_EQ(r.error().code, code) << r.error().message;
    EXPECT_NE(r.error().message.find("'up'"), std::string::npos) << r.error().message;  // the node
    for (const auto& m : mentions) EXPECT_NE(r.error().message.find(m), std::string::npos) << "'" << m << "' not in: " << r.error().message;
}

TEST(OnnxResizeCubicErrors, BadAttributesAreNamed) {
    auto rs = [](int64_t opset) {
        ResizeModel rm(opset, 4, 6);
        rm.floats("roi", {}).floats("scales", {1, 1, 2, 2});
        return rm;
    };
    expectError(rs(13).attr("exclude_outside", int64_t(2)), ErrorCode::InvalidModel, {"attribute 'exclude_outside' is 2 (0 or 1)"});
    expectError(rs(13).attr("cubic_coeff_a", INFINITY), ErrorCode::InvalidModel, {"attribute 'cubic_coeff_a' is inf", "finite"});
    expectError(rs(13).attr("cubic_coeff_a", int64_t(1)), ErrorCode::InvalidModel, {"'cubic_coeff_a'"});
    // Antialiased cubic widens the kernel when downsampling: not supported (upsampling is plain cubic).
    ResizeModel down(18, 4, 6);
    down.floats("roi", {}).floats("scales", {1, 1, 0.5f, 0.5f}).attr("antialias", int64_t(1));
    expectError(down, ErrorCode::Unsupported, {"'antialias' = 1 when downsampling"});
    EXPECT_TRUE(rs(18).attr("antialias", int64_t(1)).load().ok());
    // Cubic came with Resize-11: Resize-10 and Upsample know nearest and linear only.
    ResizeModel resize10(10, 4, 6);
    resize10.floats("scales", {1, 1, 2, 2});
    expectError(resize10, ErrorCode::InvalidModel, {"'mode' = 'cubic' is not valid for Resize at opset 10"});
    ResizeModel upsample9(9, 4, 6, "Upsample");
    upsample9.floats("scales", {1, 1, 2, 2});
    expectError(upsample9, ErrorCode::InvalidModel, {"'mode' = 'cubic' is not valid for Upsample at opset 9"});
    // Only H and W of NCHW are resized, as for the other modes.
    ResizeModel channels(13, 4, 6);
    channels.floats("roi", {}).floats("scales", {1, 2, 2, 2});
    expectError(channels, ErrorCode::Unsupported, {"scale the batch or channel dim"});
}

}  // namespace
