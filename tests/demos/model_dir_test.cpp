// The demos' run-time model lookup (demos/common/model_dir.h): VKML_MODEL_DIR, else
// ../share/vkml/models from the executable; every failure names what was expected and where.
#include "model_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using demo::ModelSearch;

// A scratch prefix: <root>/bin/tool and, when asked, <root>/share/vkml/models/<models>.
class ModelDirTest : public ::testing::Test {
protected:
    void SetUp() override {
        root = fs::temp_directory_path() / ("vkml_model_dir_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root);
        fs::create_directories(root / "bin");
    }
    void TearDown() override { fs::remove_all(root); }

    fs::path installModels(std::initializer_list<const char*> names) {
        fs::path dir = root / "share/vkml/models";
        fs::create_directories(dir);
        for (const char* n : names) std::ofstream(dir / n) << "model";
        return dir;
    }
    ModelSearch fromExecutable() const { return {std::nullopt, root / "bin/tool", {}}; }

    fs::path root;
};

TEST_F(ModelDirTest, FindsTheModelsNextToTheExecutable) {
    fs::path dir = installModels({"upscaler_x2.onnx", "denoiser.onnx"});
    demo::ModelLocation found = demo::findModel("upscaler_x2.onnx", fromExecutable());
    ASSERT_TRUE(found) << found.problem;
    EXPECT_EQ(found.path, dir / "upscaler_x2.onnx");
    EXPECT_EQ(demo::listModels(dir), (std::vector<std::string>{"denoiser.onnx", "upscaler_x2.onnx"}));
}

TEST_F(ModelDirTest, TheOverrideWinsOverTheExecutableLocation) {
    installModels({"upscaler_x2.onnx"});
    fs::path other = root / "elsewhere";
    fs::create_directories(other);
    std::ofstream(other / "upscaler_x2.onnx") << "model";
    demo::ModelLocation found = demo::findModel("upscaler_x2.onnx", {other.string(), root / "bin/tool", {}});
    ASSERT_TRUE(found) << found.problem;
    EXPECT_EQ(found.path, other / "upscaler_x2.onnx");
}

TEST_F(ModelDirTest, AMissingDirectoryNamesTheExpectedPlaceAndTheVariable) {
    demo::ModelLocation found = demo::findModel("upscaler_x2.onnx", fromExecutable());
    ASSERT_FALSE(found);
    std::string expected = (root / "share/vkml/models").string();
    EXPECT_NE(found.problem.find("upscaler_x2.onnx"), std::string::npos) << found.problem;
    EXPECT_NE(found.problem.find(expected), std::string::npos) << found.problem;
    EXPECT_NE(found.problem.find((root / "bin/tool").string()), std::string::npos) << found.problem;
    EXPECT_NE(found.problem.find("VKML_MODEL_DIR"), std::string::npos) << found.problem;
}

TEST_F(ModelDirTest, AWrongOverrideIsAnErrorNotAFallback) {
    installModels({"upscaler_x2.onnx"});  // would be found without the override
    demo::ModelLocation found = demo::findModel("upscaler_x2.onnx", {(root / "nope").string(), root / "bin/tool", {}});
    ASSERT_FALSE(found);
    EXPECT_NE(found.problem.find("VKML_MODEL_DIR=" + (root / "nope").string() + " is not a directory (it does not exist)"),
              std::string::npos) << found.problem;
    EXPECT_FALSE(demo::findModelDir({std::string(), root / "bin/tool", {}})) << "an empty override is an error";
}

TEST_F(ModelDirTest, AMissingFileListsWhatTheDirectoryHas) {
    fs::path dir = installModels({"denoiser.onnx"});
    demo::ModelLocation found = demo::findModel("upscaler_x2.onnx", fromExecutable());
    ASSERT_FALSE(found);
    EXPECT_NE(found.problem.find(dir.string()), std::string::npos) << found.problem;
    EXPECT_NE(found.problem.find("it has: denoiser.onnx"), std::string::npos) << found.problem;
}

TEST_F(ModelDirTest, NoExecutablePathSaysWhy) {
    demo::ModelLocation found = demo::findModelDir({std::nullopt, {}, "cannot read /proc/self/exe: denied"});
    ASSERT_FALSE(found);
    EXPECT_NE(found.problem.find("cannot read /proc/self/exe: denied"), std::string::npos) << found.problem;
}

TEST(ModelSearch, TheProcessKnowsItsExecutable) {
    ModelSearch s = ModelSearch::fromProcess();
    EXPECT_TRUE(s.executable.is_absolute()) << s.executableProblem;
    EXPECT_EQ(s.executable.filename(), "demo_model_dir_tests");
}

}  // namespace
