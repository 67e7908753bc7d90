// Tensors stored as external data: read from files inside the model's folder (subfolders and
// links that stay inside are fine), with offsets and lengths; absolute locations, "..", links
// out of the folder, lying offsets / lengths, missing or odd files, unknown keys, and models
// loaded from bytes are refused with a message naming the tensor. Every case is built in a
// fresh temporary folder from a committed model whose initializers are moved out of it.
#include "onnx_models.h"

#include <onnx/onnx_pb.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace {

using namespace mlplugin;
namespace fs = std::filesystem;

class OnnxExternalData : public ::testing::Test {
protected:
    void SetUp() override {
        static int counter = 0;
        root_ = fs::temp_directory_path() / ("mlp_external_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
        fs::create_directories(root_ / "model");
        fs::create_directories(root_ / "elsewhere");
        std::ifstream f(onnxtest::dataPath("espcn_op13.onnx"), std::ios::binary);
        std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
        ASSERT_TRUE(original_.ParseFromString(bytes));
        ASSERT_GE(original_.graph().initializer_size(), 2);
    }
    void TearDown() override { fs::remove_all(root_); }

    fs::path folder() const { return root_ / "model"; }

    // Moves every initializer's bytes into `file` (relative to the model folder), back to back,
    // with offset and length entries; returns the model.
    onnx::ModelProto externalized(const std::string& location, const fs::path& file) {
        onnx::ModelProto m = original_;
        std::ofstream out(file, std::ios::binary);
        uint64_t offset = 0;
        for (auto& t : *m.mutable_graph()->mutable_initializer()) {
            const std::string raw = t.raw_data();
            EXPECT_FALSE(raw.empty()) << t.name();
            out.write(raw.data(), std::streamsize(raw.size()));
            t.clear_raw_data();
            t.set_data_location(onnx::TensorProto::EXTERNAL);
            setEntry(t, "location", location);
            setEntry(t, "offset", std::to_string(offset));
            setEntry(t, "length", std::to_string(raw.size()));
            offset += raw.size();
        }
        return m;
    }

    static void setEntry(onnx::TensorProto& t, const std::string& key, const std::string& value) {
        for (auto& e : *t.mutable_external_data())
            if (e.key() == key) {
                e.set_value(value);
                return;
            }
        auto* e = t.add_external_data();
        e->set_key(key);
        e->set_value(value);
    }

    static void removeEntry(onnx::TensorProto& t, const std::string& key) {
        auto* entries = t.mutable_external_data();
        for (int i = 0; i < entries->size(); ++i)
            if (entries->Get(i).key() == key) {
                entries->DeleteSubrange(i, 1);
                return;
            }
    }

    Result<OnnxModel> load(const onnx::ModelProto& m, const std::string& name = "model.onnx") {
        std::ofstream out(folder() / name, std::ios::binary);
        out << m.SerializeAsString();
        out.close();
        return loadOnnxFile((folder() / name).string());
    }

    // The model's output for the committed input, compared with PyTorch's: the weights arrived.
    void expectMatchesPyTorch(const Result<OnnxModel>& model) {
        ASSERT_TRUE(model.ok()) << model.error().message;
        auto in = onnxtest::readArrays("espcn", {"input"});
        auto want = onnxtest::readArrays("espcn", {"output"});
        auto got = referenceEvaluateGraph(model->graph, {onnxtest::toHost(in[0], model->graph.values[model->graph.inputs[0]].desc)});
        ASSERT_TRUE(got.ok()) << got.error().message;
        EXPECT_LT(onnxtest::relativeL2((*got)[0].data, want[0].values), 1e-5);
    }

    static void expectError(const Result<OnnxModel>& r, ErrorCode code, const std::vector<std::string>& mentions) {
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, code) << r.error().message;
        for (const auto& m : mentions) EXPECT_NE(r.error().message.find(m), std::string::npos) << "'" << m << "' not in: " << r.error().message;
    }

    std::string firstName() const { return original_.graph().initializer(0).name(); }

    fs::path root_;
    onnx::ModelProto original_;
};

TEST_F(OnnxExternalData, LoadsFromTheModelsFolderAndSubfolders) {
    expectMatchesPyTorch(load(externalized("weights.bin", folder() / "weights.bin")));
    fs::create_directories(folder() / "data" / "deeper");
    expectMatchesPyTorch(load(externalized("data/deeper/w.bin", folder() / "data" / "deeper" / "w.bin")));
    // "./x" and "data/../x"-free relative paths are fine; a missing length means "to the end".
    onnx::ModelProto m = externalized("./weights.bin", folder() / "weights.bin");
    onnx::TensorProto& last = *m.mutable_graph()->mutable_initializer()->rbegin();
    removeEntry(last, "length");
    expectMatchesPyTorch(load(m));
}

TEST_F(OnnxExternalData, ConstantNodeValuesToo) {
    onnx::ModelProto m = externalized("weights.bin", folder() / "weights.bin");
    // Turn the first initializer into a Constant node carrying the same external tensor.
    onnx::TensorProto t = m.graph().initializer(0);
    m.mutable_graph()->mutable_initializer()->DeleteSubrange(0, 1);
    onnx::NodeProto* n = m.mutable_graph()->add_node();
    n->set_op_type("Constant");
    n->add_output(t.name());
    auto* a = n->add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    *a->mutable_t() = t;
    // Constants must come before their users: move the new node to the front.
    auto* nodes = m.mutable_graph()->mutable_node();
    for (int i = nodes->size() - 1; i > 0; --i) nodes->SwapElements(i, i - 1);
    expectMatchesPyTorch(load(m));
}

TEST_F(OnnxExternalData, LinksInsideTheFolderAreFollowed) {
    onnx::ModelProto m = externalized("link.bin", folder() / "real.bin");
    fs::create_symlink(folder() / "real.bin", folder() / "link.bin");
    expectMatchesPyTorch(load(m));
    // The model file itself through a link from elsewhere: data still comes from its real folder.
    onnx::ModelProto direct = externalized("weights.bin", folder() / "weights.bin");
    {
        std::ofstream out(folder() / "direct.onnx", std::ios::binary);
        out << direct.SerializeAsString();
    }
    fs::create_symlink(folder() / "direct.onnx", root_ / "elsewhere" / "linked.onnx");
    expectMatchesPyTorch(loadOnnxFile((root_ / "elsewhere" / "linked.onnx").string()));
}

TEST_F(OnnxExternalData, PathsOutOfTheFolderAreRefused) {
    const std::string name = firstName();
    onnx::ModelProto m = externalized((root_ / "elsewhere" / "w.bin").string(), root_ / "elsewhere" / "w.bin");
    expectError(load(m), ErrorCode::InvalidModel, {"'" + name + "'", "absolute path"});
    m = externalized("../elsewhere/w.bin", root_ / "elsewhere" / "w.bin");
    expectError(load(m), ErrorCode::InvalidModel, {"'" + name + "'", "'..'"});
    m = externalized("data/../../elsewhere/w.bin", root_ / "elsewhere" / "w.bin");
    expectError(load(m), ErrorCode::InvalidModel, {"'" + name + "'", "'..'"});
    // A link inside the folder that points out of it.
    m = externalized("escape.bin", root_ / "elsewhere" / "w.bin");
    fs::create_symlink(root_ / "elsewhere" / "w.bin", folder() / "escape.bin");
    expectError(load(m), ErrorCode::InvalidModel, {"'" + name + "'", "outside the model's folder"});
    // A linked folder that points out of it.
    fs::create_directory_symlink(root_ / "elsewhere", folder() / "sub");
    m = externalized("sub/w.bin", root_ / "elsewhere" / "w.bin");
    expectError(load(m), ErrorCode::InvalidModel, {"'" + name + "'", "outside the model's folder"});
}

TEST_F(OnnxExternalData, LyingOffsetsAndLengthsAreRefused) {
    const std::string name = firstName();
    onnx::ModelProto good = externalized("weights.bin", folder() / "weights.bin");
    const uint64_t fileSize = fs::file_size(folder() / "weights.bin");
    auto with = [&](const std::string& key, const std::string& value) {
        onnx::ModelProto m = good;
        setEntry(*m.mutable_graph()->mutable_initializer(0), key, value);
        return m;
    };
    expectError(load(with("offset", std::to_string(fileSize + 1))), ErrorCode::InvalidModel, {"'" + name + "'", "beyond the end"});
    expectError(load(with("offset", std::to_string(fileSize - 2))), ErrorCode::InvalidModel, {"'" + name + "'", "beyond the end"});
    // A length as large as a file could ever be: refused before any allocation.
    expectError(load(with("length", "4611686018427387904")), ErrorCode::InvalidModel, {"'" + name + "'", "beyond the end"});
    expectError(load(with("length", "18446744073709551615")), ErrorCode::InvalidModel, {"'" + name + "'", "beyond the end"});
    expectError(load(with("length", "4")), ErrorCode::InvalidModel, {"'" + name + "'", "length 4 differs"});
    expectError(load(with("offset", "-4")), ErrorCode::InvalidModel, {"'" + name + "'", "not a non-negative integer"});
    expectError(load(with("offset", "12abc")), ErrorCode::InvalidModel, {"'" + name + "'", "not a non-negative integer"});
    expectError(load(with("length", "99999999999999999999999")), ErrorCode::InvalidModel, {"'" + name + "'", "not a non-negative integer"});
    expectError(load(with("sha1", "x")), ErrorCode::InvalidModel, {"'" + name + "'", "key 'sha1'"});
    expectError(load(with("location", "")), ErrorCode::InvalidModel, {"'" + name + "'", "no location"});
    onnx::ModelProto noLocation = good;
    removeEntry(*noLocation.mutable_graph()->mutable_initializer(0), "location");
    expectError(load(noLocation), ErrorCode::InvalidModel, {"'" + name + "'", "no location"});
    onnx::ModelProto bothRawAndExternal = good;
    bothRawAndExternal.mutable_graph()->mutable_initializer(0)->set_raw_data("abcd");
    expectError(load(bothRawAndExternal), ErrorCode::InvalidModel, {"'" + name + "'", "raw_data"});
    onnx::ModelProto notMarked = good;
    notMarked.mutable_graph()->mutable_initializer(0)->set_data_location(onnx::TensorProto::DEFAULT);
    expectError(load(notMarked), ErrorCode::InvalidModel, {"'" + name + "'", "data_location is not EXTERNAL"});
}

TEST_F(OnnxExternalData, MissingAndOddFilesAreRefused) {
    const std::string name = firstName();
    onnx::ModelProto m = externalized("missing.bin", folder() / "weights.bin");
    expectError(load(m), ErrorCode::IoError, {"'" + name + "'", "'missing.bin'"});
    fs::create_directory(folder() / "adir");
    m = externalized("adir", folder() / "weights.bin");
    expectError(load(m), ErrorCode::InvalidModel, {"'" + name + "'", "not a regular file"});
}

TEST_F(OnnxExternalData, ModelsFromBytesRefuseExternalData) {
    onnx::ModelProto m = externalized("weights.bin", folder() / "weights.bin");
    std::string s = m.SerializeAsString();
    const std::span<const uint8_t> bytes{reinterpret_cast<const uint8_t*>(s.data()), s.size()};
    expectError(loadOnnx(bytes), ErrorCode::InvalidArgument, {"'" + firstName() + "'", "loadOnnxFile"});
    auto parsed = parseOnnx(bytes);  // parsing succeeds; converting has no folder to read from
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    expectError(loadOnnx(**parsed), ErrorCode::InvalidArgument, {"'" + firstName() + "'", "loadOnnxFile"});
}

// parseOnnxFile remembers the model's folder: every conversion of the parsed model (one per
// extent in MlPass) reads the external data from there, also after the .onnx file itself is gone.
TEST_F(OnnxExternalData, ParsedModelsReadFromTheModelsFolder) {
    onnx::ModelProto m = externalized("weights.bin", folder() / "weights.bin");
    {
        std::ofstream out(folder() / "model.onnx", std::ios::binary);
        out << m.SerializeAsString();
    }
    auto parsed = parseOnnxFile((folder() / "model.onnx").string());
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    fs::remove(folder() / "model.onnx");
    expectMatchesPyTorch(loadOnnx(**parsed));
    expectMatchesPyTorch(loadOnnx(**parsed));
}

}  // namespace
