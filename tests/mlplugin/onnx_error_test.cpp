// Hostile and unsupported models: truncated and bit-flipped files, size
// mismatches, huge dims, cycles, unknown operators and attributes. Every one must fail with a
// clear error (or load), never crash or allocate without bound. Also hand-built variants of
// the 6-D pixel-shuffle chain (exact matches load as one DepthToSpace, near misses as written).
#include "onnx_models.h"

#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>

namespace {

using namespace mlplugin;

std::vector<uint8_t> fileBytes(const std::string& name) {
    std::ifstream f(onnxtest::dataPath(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

onnx::ModelProto parseModel(const std::string& name) {
    onnx::ModelProto m;
    auto bytes = fileBytes(name);
    EXPECT_TRUE(m.ParseFromArray(bytes.data(), int(bytes.size())));
    return m;
}

Result<OnnxModel> loadProto(const onnx::ModelProto& m, const OnnxLoadOptions& options = {}) {
    std::string s = m.SerializeAsString();
    return loadOnnx({reinterpret_cast<const uint8_t*>(s.data()), s.size()}, options);
}

// Fuzz depth: MLP_ONNX_FUZZ_SCALE=N runs N times the trials (with other seeds) for deeper local
// runs, e.g. under ASan; CI keeps the default.
int fuzzScale() {
    const char* v = std::getenv("MLP_ONNX_FUZZ_SCALE");
    int n = v ? std::atoi(v) : 1;
    return n > 0 ? n : 1;
}

template <typename T>
void expectError(const Result<T>& r, ErrorCode code, const std::vector<std::string>& mentions) {
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, code) << r.error().message;
    for (const auto& m : mentions) EXPECT_NE(r.error().message.find(m), std::string::npos) << "'" << m << "' not in: " << r.error().message;
}

TEST(OnnxErrors, TruncatedFilesAreRejected) {
    for (const char* name : {"unet_op13.onnx", "normsoftmax_op17.onnx", "poolhead_op11.onnx"}) {
        auto bytes = fileBytes(name);
        ASSERT_GT(bytes.size(), 100u);
        for (size_t len : {size_t(0), size_t(1), size_t(7), bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
            auto r = loadOnnx({bytes.data(), len});
            ASSERT_FALSE(r.ok()) << name << " truncated to " << len << " bytes loaded";
            EXPECT_EQ(r.error().code, ErrorCode::InvalidModel) << r.error().message;
        }
    }
}

// Random bit flips: the loader either loads (a flip in a weight value) or reports an error;
// every graph it returns is well-formed enough to plan.
TEST(OnnxErrors, BitFlippedFilesFailCleanly) {
    std::mt19937 rng(1234u * uint32_t(fuzzScale()));
    int rejected = 0, loaded = 0;
    for (const char* name : {"unet_op9.onnx", "normsoftmax_op13.onnx", "elementwise_op11.onnx", "poolhead_op17.onnx"}) {
        auto original = fileBytes(name);
        for (int trial = 0; trial < 150 * fuzzScale(); ++trial) {
            auto bytes = original;
            int flips = 1 + int(rng() % 4);
            for (int f = 0; f < flips; ++f) bytes[rng() % bytes.size()] ^= uint8_t(1u << (rng() % 8));
            auto r = loadOnnx(bytes);
            if (!r.ok()) {
                ++rejected;
                EXPECT_FALSE(r.error().message.empty());
                EXPECT_TRUE(r.error().code == ErrorCode::InvalidModel || r.error().code == ErrorCode::Unsupported ||
                            r.error().code == ErrorCode::InvalidArgument)
                    << r.error().message;
            } else {
                ++loaded;
                for (const auto& v : r->graph.values) EXPECT_LE(v.desc.elementCount(), kMaxOnnxTensorElements);
            }
        }
    }
    EXPECT_GT(rejected, 0);
    EXPECT_GT(loaded, 0);  // flips in weight bytes load: the test exercises both paths
}

TEST(OnnxErrors, UnsupportedOperatorIsNamed) {
    auto r = loadOnnxFile(onnxtest::dataPath("unsupported_op.onnx"));
    expectError(r, ErrorCode::Unsupported, {"'mystery'", "Hardmax", "Supported operators: ", "Conv", "Resize"});
}

TEST(OnnxErrors, UnsupportedAttributeIsNamed) {
    auto m = parseModel("unet_op13.onnx");
    for (auto& n : *m.mutable_graph()->mutable_node()) {
        if (n.op_type() != "Conv") continue;
        auto* a = n.add_attribute();
        a->set_name("fancy_mode");
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(1);
        break;
    }
    expectError(loadProto(m), ErrorCode::Unsupported, {"(Conv)", "attribute 'fancy_mode'", "supported: "});
}

TEST(OnnxErrors, InitializerSizeMismatchIsRejected) {
    auto m = parseModel("espcn_op13.onnx");
    auto* t = m.mutable_graph()->mutable_initializer(0);
    std::string name = t->name();
    t->mutable_raw_data()->resize(t->raw_data().size() - 4);
    expectError(loadProto(m), ErrorCode::InvalidModel, {"'" + name + "'", "raw data holds"});

    auto huge = parseModel("espcn_op13.onnx");
    huge.mutable_graph()->mutable_initializer(0)->set_dims(0, int64_t(1) << 40);
    expectError(loadProto(huge), ErrorCode::InvalidModel, {"elements"});
}

TEST(OnnxErrors, HugeInputDimIsRejected) {
    auto m = parseModel("espcn_op13.onnx");
    auto* dim = m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(2);
    dim->set_dim_value(int64_t(1) << 30);
    expectError(loadProto(m), ErrorCode::InvalidModel, {"graph input 'input'", "elements"});
}

TEST(OnnxErrors, CycleIsRejected) {
    auto m = parseModel("unet_op13.onnx");
    auto* g = m.mutable_graph();
    // The first node reads the output of the last: a cycle (and not topologically sorted).
    std::string last = g->node(g->node_size() - 1).output(0);
    *g->mutable_node(0)->mutable_input(0) = last;
    expectError(loadProto(m), ErrorCode::InvalidModel, {"node 0", "not defined before this node"});
}

TEST(OnnxErrors, FreeDimensionsMustBeFixed) {
    auto r = loadOnnxFile(onnxtest::dataPath("espcn_dynamic_op13.onnx"));
    expectError(r, ErrorCode::InvalidArgument, {"graph input 'input'", "'height'"});
    OnnxLoadOptions byShape;
    byShape.inputShapes["input"] = {1, 1, 9, 4};
    auto fixed = loadOnnxFile(onnxtest::dataPath("espcn_dynamic_op13.onnx"), byShape);
    ASSERT_TRUE(fixed.ok()) << fixed.error().message;
    const TensorDesc& out = fixed->graph.values[fixed->graph.outputs[0]].desc;
    EXPECT_EQ(out.toString(), "fp32[1,1,18,8]");
    OnnxLoadOptions conflicting = byShape;
    conflicting.freeDimensions["height"] = 10;
    expectError(loadOnnxFile(onnxtest::dataPath("espcn_dynamic_op13.onnx"), conflicting), ErrorCode::InvalidArgument, {"'height'", "fixed to 10"});
    OnnxLoadOptions wrong;
    wrong.inputShapes["input"] = {1, 2, 9, 4};
    expectError(loadOnnxFile(onnxtest::dataPath("espcn_dynamic_op13.onnx"), wrong), ErrorCode::InvalidArgument, {"dim 1"});
}

// A model built here: input 'x' [1, 4] -> nodes -> output 'y'.
onnx::ModelProto tinyModel(int64_t opset) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    auto* op = m.add_opset_import();
    op->set_domain("");
    op->set_version(opset);
    auto* g = m.mutable_graph();
    auto* in = g->add_input();
    in->set_name("x");
    auto* tt = in->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    tt->mutable_shape()->add_dim()->set_dim_value(1);
    tt->mutable_shape()->add_dim()->set_dim_value(4);
    g->add_output()->set_name("y");
    return m;
}

onnx::TensorProto int64Tensor(const std::string& name, std::vector<int64_t> values) {
    onnx::TensorProto t;
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::INT64);
    t.add_dims(int64_t(values.size()));
    for (int64_t v : values) t.add_int64_data(v);
    return t;
}

onnx::NodeProto* addNode(onnx::ModelProto& m, const std::string& type, std::vector<std::string> in, std::vector<std::string> out) {
    auto* n = m.mutable_graph()->add_node();
    n->set_op_type(type);
    for (auto& s : in) n->add_input(s);
    for (auto& s : out) n->add_output(s);
    return n;
}

TEST(OnnxErrors, HugeLoadTimeTensorsAreRejected) {
    auto m = tinyModel(13);
    *m.mutable_graph()->add_initializer() = int64Tensor("shape", {int64_t(1) << 26, 4});
    addNode(m, "ConstantOfShape", {"shape"}, {"big"});
    addNode(m, "Add", {"x", "big"}, {"y"});
    expectError(loadProto(m), ErrorCode::InvalidModel, {"(ConstantOfShape)", "too large"});

    auto r = tinyModel(13);
    for (const char* n : {"start", "limit", "delta"}) {
        onnx::TensorProto t = int64Tensor(n, {std::string(n) == "limit" ? (int64_t(1) << 40) : 1});
        t.clear_dims();  // scalar
        *r.mutable_graph()->add_initializer() = t;
    }
    addNode(r, "Range", {"start", "limit", "delta"}, {"big"});
    addNode(r, "Add", {"x", "big"}, {"y"});
    expectError(loadProto(r), ErrorCode::InvalidModel, {"(Range)", "too long"});

    // Each fold under its own cap, a chain of them over the total (the ONNX fuzzer's find: a Pad
    // whose pads came through ConstantOfShape -> Concat -> Reshape -> ... of 16.7M elements).
    auto chain = tinyModel(13);
    *chain.mutable_graph()->add_initializer() = int64Tensor("shape", {int64_t(1) << 22});
    *chain.mutable_graph()->add_initializer() = int64Tensor("flat", {-1});
    addNode(chain, "ConstantOfShape", {"shape"}, {"c0"});
    for (int i = 0; i < 4; ++i) addNode(chain, "Reshape", {"c" + std::to_string(i), "flat"}, {"c" + std::to_string(i + 1)});
    addNode(chain, "Add", {"x", "c4"}, {"y"});
    expectError(loadProto(chain), ErrorCode::InvalidModel, {"(Reshape)", "in total", "'c4'"});
    // One fold shorter it reaches the total exactly, stays within it, and fails later (the Add's shapes).
    auto shorter = tinyModel(13);
    *shorter.mutable_graph()->add_initializer() = int64Tensor("shape", {int64_t(1) << 22});
    *shorter.mutable_graph()->add_initializer() = int64Tensor("flat", {-1});
    addNode(shorter, "ConstantOfShape", {"shape"}, {"c0"});
    for (int i = 0; i < 3; ++i) addNode(shorter, "Reshape", {"c" + std::to_string(i), "flat"}, {"c" + std::to_string(i + 1)});
    addNode(shorter, "Add", {"x", "c3"}, {"y"});
    auto loaded = loadProto(shorter);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message.find("in total"), std::string::npos) << loaded.error().message;
}

TEST(OnnxErrors, RuntimeInputToLoadTimeOperatorIsNamed) {
    auto m = tinyModel(13);
    *m.mutable_graph()->add_initializer() = int64Tensor("shape", {4, 1});
    addNode(m, "Reshape", {"x", "x"}, {"y"})->set_name("reshape_by_data");
    expectError(loadProto(m), ErrorCode::Unsupported, {"'reshape_by_data'", "shape (input 'x') must be known at load time"});
}

TEST(OnnxErrors, DuplicateProducerIsRejected) {
    auto m = tinyModel(13);
    addNode(m, "Relu", {"x"}, {"y"});
    addNode(m, "Sigmoid", {"x"}, {"y"});
    expectError(loadProto(m), ErrorCode::InvalidModel, {"node 1", "'y' is already defined"});
}

// metadata_props reach OnnxModel::metadata as written; a key given twice is refused by name
// (a consumer reading one of the two values would depend on the order).
TEST(OnnxErrors, MetadataIsReadAndDuplicateKeysAreRejected) {
    auto m = tinyModel(13);
    addNode(m, "Relu", {"x"}, {"y"});
    auto add = [&](const std::string& key, const std::string& value) {
        auto* e = m.add_metadata_props();
        e->set_key(key);
        e->set_value(value);
    };
    add("vkml.ratio_feature_max", "0.6666667");
    add("author", "");
    auto loaded = loadProto(m);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    EXPECT_EQ(loaded->metadata, (std::map<std::string, std::string>{{"author", ""}, {"vkml.ratio_feature_max", "0.6666667"}}));
    add("author", "someone else");
    expectError(loadProto(m), ErrorCode::InvalidModel, {"metadata key 'author' is given twice"});
}

// PyTorch's opset-9 pixel_shuffle (espcn_op9: Reshape to 6-D -> Transpose -> Reshape) with one
// detail changed is not a depth-to-space: it must load as written (a 6-D transpose), not as one.
onnx::NodeProto& nodeOfType(onnx::ModelProto& m, const std::string& type, int nth = 0) {
    for (auto& n : *m.mutable_graph()->mutable_node())
        if (n.op_type() == type && nth-- == 0) return n;
    ADD_FAILURE() << "no " << type << " node";
    return *m.mutable_graph()->mutable_node(0);
}

void setConstant(onnx::NodeProto& constant, std::vector<int64_t> values) {
    for (auto& a : *constant.mutable_attribute())
        if (a.name() == "value") *a.mutable_t() = int64Tensor("", std::move(values));
}

void expectAsWritten(const onnx::ModelProto& m) {
    auto loaded = loadProto(m);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    size_t transposes = 0, depthToSpace = 0;
    for (const auto& n : loaded->graph.nodes) {
        if (const auto* t = std::get_if<TransposeDesc>(&n.op)) transposes += t->input.rank == 6 ? 1 : 0;
        depthToSpace += std::holds_alternative<DepthToSpaceDesc>(n.op) ? 1 : 0;
    }
    EXPECT_EQ(transposes, 1u);
    EXPECT_EQ(depthToSpace, 0u);
}

TEST(OnnxErrors, NearMissPixelShuffleLoadsAsWritten) {
    const onnx::ModelProto original = parseModel("espcn_op9.onnx");
    ASSERT_TRUE(loadProto(original).ok());

    auto wrongPerm = original;
    auto* perm = nodeOfType(wrongPerm, "Transpose").mutable_attribute(0)->mutable_ints();
    ASSERT_EQ(perm->size(), 6);
    std::swap(perm->at(2), perm->at(3));  // [0,1,2,4,5,3]
    expectAsWritten(wrongPerm);

    // The DCR permutation on a CRD-shaped split ([N, C, r, r, H, W] with C != r).
    auto dcrPermOnCrd = original;
    nodeOfType(dcrPermOnCrd, "Transpose").mutable_attribute(0)->clear_ints();
    for (int64_t p : {0, 3, 4, 1, 5, 2}) nodeOfType(dcrPermOnCrd, "Transpose").mutable_attribute(0)->add_ints(p);
    setConstant(nodeOfType(dcrPermOnCrd, "Constant", 0), {-1, 1, 2, 2, 6, 6});  // C=1, r=2: a C/r mix-up
    setConstant(nodeOfType(dcrPermOnCrd, "Constant", 1), {-1, 2, 6, 6});      // same element count
    expectAsWritten(dcrPermOnCrd);

    // Right permutation, but the final shape is not [N, C, H*r, W*r] (same element count).
    auto wrongFinal = original;
    setConstant(nodeOfType(wrongFinal, "Constant", 1), {-1, 1, 6, 24});
    expectAsWritten(wrongFinal);

    // A non-square block split: [N, C, 4, 1, H, W].
    auto nonSquare = original;
    setConstant(nodeOfType(nonSquare, "Constant", 0), {-1, 1, 4, 1, 6, 6});
    setConstant(nodeOfType(nonSquare, "Constant", 1), {-1, 1, 24, 6});
    expectAsWritten(nonSquare);

    // The 6-D transposed intermediate is also a graph output: it must exist, so no match.
    auto exposed = original;
    exposed.mutable_graph()->add_output()->set_name(nodeOfType(exposed, "Transpose").output(0));
    expectAsWritten(exposed);
}

// Hand-built chains on x [1, C*r*r, H, W] with C=2, r=2 (C != r, so a CRD/DCR mix-up shows):
// each loads as one DepthToSpace of its order, and the loaded graph computes the reshape /
// transpose / reshape the file describes (evaluated here by index arithmetic).
TEST(OnnxPatterns, SixDimChainsMatchTheirDefinition) {
    constexpr int64_t C = 2, r = 2, H = 2, W = 3;
    struct Variant {
        DepthSpaceOrder order;
        std::vector<int64_t> split, perm;
        // Input channel feeding output channel c at block offset (i, j).
        int64_t (*channel)(int64_t c, int64_t i, int64_t j);
    };
    const Variant variants[] = {
        {DepthSpaceOrder::CRD, {1, C, r, r, H, W}, {0, 1, 4, 2, 5, 3}, [](int64_t c, int64_t i, int64_t j) { return (c * r + i) * r + j; }},
        {DepthSpaceOrder::DCR, {1, r, r, C, H, W}, {0, 3, 4, 1, 5, 2}, [](int64_t c, int64_t i, int64_t j) { return (i * r + j) * C + c; }},
    };
    for (const Variant& v : variants) {
        onnx::ModelProto m;
        m.set_ir_version(8);
        m.add_opset_import()->set_version(9);
        auto* g = m.mutable_graph();
        auto* in = g->add_input();
        in->set_name("x");
        auto* tt = in->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(onnx::TensorProto::FLOAT);
        for (int64_t d : {int64_t(1), C * r * r, H, W}) tt->mutable_shape()->add_dim()->set_dim_value(d);
        g->add_output()->set_name("y");
        *g->add_initializer() = int64Tensor("split", v.split);
        *g->add_initializer() = int64Tensor("merged", {1, C, H * r, W * r});
        addNode(m, "Reshape", {"x", "split"}, {"x6"});
        auto* perm = addNode(m, "Transpose", {"x6"}, {"t6"})->add_attribute();
        perm->set_name("perm");
        perm->set_type(onnx::AttributeProto::INTS);
        for (int64_t p : v.perm) perm->add_ints(p);
        addNode(m, "Reshape", {"t6", "merged"}, {"y"});

        auto model = loadProto(m);
        ASSERT_TRUE(model.ok()) << model.error().message;
        ASSERT_EQ(model->graph.nodes.size(), 1u);
        const auto* d = std::get_if<DepthToSpaceDesc>(&model->graph.nodes[0].op);
        ASSERT_NE(d, nullptr);
        EXPECT_EQ(d->order, v.order);
        EXPECT_EQ(d->blockSize, uint32_t(r));

        HostTensor x{model->graph.values[model->graph.inputs[0]].desc, {}};
        for (int64_t k = 0; k < C * r * r * H * W; ++k) x.data.push_back(double(k));
        auto got = referenceEvaluateGraph(model->graph, {x});
        ASSERT_TRUE(got.ok()) << got.error().message;
        ASSERT_EQ(got->at(0).data.size(), size_t(C * H * r * W * r));
        for (int64_t c = 0; c < C; ++c)
            for (int64_t y = 0; y < H * r; ++y)
                for (int64_t xx = 0; xx < W * r; ++xx) {
                    double want = double((v.channel(c, y % r, xx % r) * H + y / r) * W + xx / r);
                    ASSERT_EQ(got->at(0).data[size_t((c * H * r + y) * W * r + xx)], want) << "c " << c << " y " << y << " x " << xx;
                }
    }
}

// OIDN-style dynamic models pad H and W up to a multiple (`(m - h % m) % m`): PyTorch exports the
// `%` on shape values as Mod (fmod = 0). The chain folds at load time and the Pad gets the
// computed amounts: x [1, 1, 5, 7] padded (edge) to a multiple of 4 is [1, 1, 8, 8].
TEST(OnnxPatterns, PadToMultipleWithModFolds) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(13);
    auto* g = m.mutable_graph();
    auto* in = g->add_input();
    in->set_name("x");
    auto* tt = in->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : {1, 1, 5, 7}) tt->mutable_shape()->add_dim()->set_dim_value(d);
    g->add_output()->set_name("y");
    *g->add_initializer() = int64Tensor("two", {2});
    *g->add_initializer() = int64Tensor("four", {4});
    *g->add_initializer() = int64Tensor("m", {4});
    *g->add_initializer() = int64Tensor("zeros", {0, 0, 0, 0, 0, 0});
    addNode(m, "Shape", {"x"}, {"shape"});
    addNode(m, "Slice", {"shape", "two", "four"}, {"hw"});
    addNode(m, "Mod", {"hw", "m"}, {"rem"});
    addNode(m, "Sub", {"m", "rem"}, {"short"});
    addNode(m, "Mod", {"short", "m"}, {"extra"});  // [3, 1]
    addNode(m, "Concat", {"zeros", "extra"}, {"pads"})->add_attribute()->set_name("axis");
    g->mutable_node(5)->mutable_attribute(0)->set_type(onnx::AttributeProto::INT);
    g->mutable_node(5)->mutable_attribute(0)->set_i(0);
    auto* mode = addNode(m, "Pad", {"x", "pads"}, {"y"})->add_attribute();
    mode->set_name("mode");
    mode->set_type(onnx::AttributeProto::STRING);
    mode->set_s("edge");

    auto model = loadProto(m);
    ASSERT_TRUE(model.ok()) << model.error().message;
    ASSERT_EQ(model->graph.nodes.size(), 1u);  // the Pad; all shape arithmetic folded
    EXPECT_EQ(model->graph.values[model->graph.outputs[0]].desc.toString(), "fp32[1,1,8,8]");
    HostTensor x{model->graph.values[model->graph.inputs[0]].desc, {}};
    for (int k = 0; k < 35; ++k) x.data.push_back(double(k));
    auto got = referenceEvaluateGraph(model->graph, {x});
    ASSERT_TRUE(got.ok()) << got.error().message;
    ASSERT_EQ(got->at(0).data.size(), 64u);
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 8; ++c) EXPECT_EQ(got->at(0).data[size_t(r * 8 + c)], double(std::min(r, 4) * 7 + std::min(c, 6))) << r << "," << c;
}

// Mod's two definitions on load-time tensors (fmod = 0: the divisor's sign, integers only;
// fmod = 1: the dividend's sign), added to x [1, 4] to observe them; and its errors.
TEST(OnnxPatterns, ModFoldsWithBothSignConventions) {
    auto build = [](int64_t fmod, bool floats) {
        auto m = tinyModel(13);
        if (floats) {
            for (auto [name, values] : {std::pair<const char*, std::vector<float>>{"a", {-7.5f, 7.5f, -7.5f, 7.5f}}, {"b", {2, 2, -2, -2}}}) {
                auto* t = m.mutable_graph()->add_initializer();
                t->set_name(name);
                t->set_data_type(onnx::TensorProto::FLOAT);
                t->add_dims(4);
                for (float v : values) t->add_float_data(v);
            }
        } else {
            *m.mutable_graph()->add_initializer() = int64Tensor("a", {-7, 7, -7, 7});
            *m.mutable_graph()->add_initializer() = int64Tensor("b", {3, 3, -3, -3});
        }
        auto* a = addNode(m, "Mod", {"a", "b"}, {"r"})->add_attribute();
        a->set_name("fmod");
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(fmod);
        auto* to = addNode(m, "Cast", {"r"}, {"rf"})->add_attribute();
        to->set_name("to");
        to->set_type(onnx::AttributeProto::INT);
        to->set_i(onnx::TensorProto::FLOAT);
        addNode(m, "Add", {"x", "rf"}, {"y"});
        return m;
    };
    auto expectAdds = [](const onnx::ModelProto& m, std::vector<double> want) {
        auto model = loadProto(m);
        ASSERT_TRUE(model.ok()) << model.error().message;
        HostTensor x{model->graph.values[model->graph.inputs[0]].desc, {10, 20, 30, 40}};
        auto got = referenceEvaluateGraph(model->graph, {x});
        ASSERT_TRUE(got.ok()) << got.error().message;
        for (size_t i = 0; i < 4; ++i) EXPECT_EQ(got->at(0).data[i], x.data[i] + want[i]) << i;
    };
    expectAdds(build(0, false), {2, 1, -1, -2});  // Python: -7 % 3 = 2, 7 % -3 = -2
    expectAdds(build(1, false), {-1, 1, -1, 1});  // C: fmod(-7, 3) = -1
    expectAdds(build(1, true), {-1.5, 1.5, -1.5, 1.5});
    expectError(loadProto(build(0, true)), ErrorCode::InvalidModel, {"(Mod)", "fmod = 0 on floating-point"});
    expectError(loadProto(build(2, false)), ErrorCode::InvalidModel, {"(Mod)", "'fmod' = 2"});
    auto byZero = build(0, false);
    *byZero.mutable_graph()->mutable_initializer(1) = int64Tensor("b", {3, 0, 3, 3});
    expectError(loadProto(byZero), ErrorCode::InvalidModel, {"(Mod)", "by zero"});
    auto runtime = tinyModel(13);
    *runtime.mutable_graph()->add_initializer() = int64Tensor("b", {3});
    addNode(runtime, "Mod", {"x", "b"}, {"y"});
    expectError(loadProto(runtime), ErrorCode::Unsupported, {"(Mod)", "must be known at load time"});
}

// Structure-aware fuzzing: attribute values, int64 constants and node inputs replaced by
// hostile values (negative, zero, huge, wrong lengths, other tensors). Every variant loads or
// fails with a message; none crashes.
TEST(OnnxErrors, MutatedAttributesAndConstantsFailCleanly) {
    const int64_t ints[] = {-3, -2, -1, 0, 1, 2, 3, 7, int64_t(1) << 40, INT64_MIN, INT64_MAX};
    const float floats[] = {-1.0f, 0.0f, 0.5f, 1e30f, NAN};
    std::mt19937 rng(4321u * uint32_t(fuzzScale()));
    int rejected = 0;
    for (const char* name : {"normsoftmax_op9.onnx", "normsoftmax_op13.onnx", "poolhead_dynamic_op13.onnx", "ops_op13.onnx",
                             "ops_op10.onnx", "unet_op11.onnx", "legacy_op6.onnx", "legacy_op8.onnx", "espcn_op17.onnx"}) {
        const onnx::ModelProto original = parseModel(name);
        std::vector<std::string> tensors;
        for (const auto& n : original.graph().node())
            for (const auto& o : n.output()) tensors.push_back(o);
        for (int trial = 0; trial < 200 * fuzzScale(); ++trial) {
            onnx::ModelProto m = original;
            auto* g = m.mutable_graph();
            auto* node = g->mutable_node(int(rng() % uint32_t(g->node_size())));
            uint32_t what = rng() % 4;
            if (what == 0 && node->attribute_size() > 0) {
                auto* a = node->mutable_attribute(int(rng() % uint32_t(node->attribute_size())));
                if (a->type() == onnx::AttributeProto::INT) a->set_i(ints[rng() % std::size(ints)]);
                else if (a->type() == onnx::AttributeProto::FLOAT) a->set_f(floats[rng() % std::size(floats)]);
                else if (a->type() == onnx::AttributeProto::INTS) {
                    int len = int(rng() % 7);
                    a->clear_ints();
                    for (int i = 0; i < len; ++i) a->add_ints(ints[rng() % std::size(ints)]);
                } else if (a->type() == onnx::AttributeProto::TENSOR && a->t().data_type() == onnx::TensorProto::INT64) {
                    auto* t = a->mutable_t();
                    t->clear_raw_data();
                    t->clear_int64_data();
                    t->clear_dims();
                    int len = int(rng() % 6);
                    t->add_dims(len);
                    for (int i = 0; i < len; ++i) t->add_int64_data(ints[rng() % std::size(ints)]);
                } else if (a->type() == onnx::AttributeProto::STRING) {
                    a->set_s(rng() % 2 ? "bogus" : "");
                }
            } else if (what == 1 && node->input_size() > 0 && !tensors.empty()) {
                *node->mutable_input(int(rng() % uint32_t(node->input_size()))) = tensors[rng() % tensors.size()];
            } else if (what == 2 && g->initializer_size() > 0) {
                auto* t = g->mutable_initializer(int(rng() % uint32_t(g->initializer_size())));
                if (t->data_type() == onnx::TensorProto::INT64) {
                    int64_t count = 1;
                    for (int64_t d : t->dims()) count *= d;
                    t->clear_raw_data();
                    t->clear_int64_data();
                    for (int64_t i = 0; i < count; ++i) t->add_int64_data(ints[rng() % std::size(ints)]);
                }
            } else if (node->input_size() > 0) {
                node->mutable_input()->RemoveLast();
            }
            auto r = loadProto(m);
            if (r.ok()) {
                for (const auto& v : r->graph.values) EXPECT_LE(v.desc.elementCount(), kMaxOnnxTensorElements);
            } else {
                ++rejected;
                EXPECT_FALSE(r.error().message.empty());
            }
        }
    }
    EXPECT_GT(rejected, 100);
}

TEST(OnnxErrors, MissingFileIsAnIoError) {
    expectError(loadOnnxFile("/nonexistent/model.onnx"), ErrorCode::IoError, {"/nonexistent/model.onnx"});
}

// A device or a directory named as the model is refused before it is read: /dev/zero would
// never end, and reports no size.
TEST(OnnxErrors, DevicesAndDirectoriesAreNotRead) {
    expectError(readOnnxFile("/dev/zero"), ErrorCode::IoError, {"the model file '/dev/zero' is not a regular file"});
    expectError(loadOnnxFile("/dev/zero"), ErrorCode::IoError, {"'/dev/zero' is not a regular file"});
    const std::string dir = std::filesystem::temp_directory_path().string();
    expectError(parseOnnxFile(dir), ErrorCode::IoError, {"'" + dir + "' is not a regular file"});
    const std::filesystem::path empty = std::filesystem::temp_directory_path() / "mlplugin_empty_model.onnx";
    std::ofstream(empty).close();
    expectError(readOnnxFile(empty.string()), ErrorCode::InvalidModel, {"is empty"});
    std::filesystem::remove(empty);
}

TEST(OnnxErrors, UnsupportedOpsetIsNamed) {
    auto m = parseModel("espcn_op13.onnx");
    m.mutable_opset_import(0)->set_version(22);
    expectError(loadProto(m), ErrorCode::Unsupported, {"opset 22", "opsets 6 through 21"});
    m.mutable_opset_import(0)->set_version(5);
    expectError(loadProto(m), ErrorCode::Unsupported, {"opset 5"});
    m.mutable_opset_import(0)->set_version(21);
    EXPECT_TRUE(loadProto(m).ok());
}

}  // namespace
