#pragma once
// Where the demos find the models shipped with vkml (upscaler_x2.onnx, denoiser.onnx) at run time,
// without a path compiled in: $VKML_MODEL_DIR when set, else
// <directory of the executable>/../share/vkml/models, the installed layout (bin/ next to
// share/vkml/models/, wherever the prefix was moved). The build tree mirrors it:
// build/demos/share/vkml/models/ links to the source tree's assets/ (demos/CMakeLists.txt).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace demo {

inline constexpr const char* kModelDirVariable = "VKML_MODEL_DIR";
inline constexpr const char* kModelDirBelowPrefix = "share/vkml/models";

struct ModelSearch {
    std::optional<std::string> overrideDir;  // $VKML_MODEL_DIR; when set, the only place looked
    std::filesystem::path executable;        // empty when /proc/self/exe could not be read
    std::string executableProblem;           // why it could not be read

    // The running process: getenv(VKML_MODEL_DIR) and /proc/self/exe.
    static ModelSearch fromProcess();
};

// A file or directory, or a sentence naming what was expected and every place looked.
struct ModelLocation {
    std::filesystem::path path;
    std::string problem;
    explicit operator bool() const { return problem.empty(); }
};

// The model directory (an existing directory).
ModelLocation findModelDir(const ModelSearch& search);
// `fileName` (e.g. "upscaler_x2.onnx") inside the model directory.
ModelLocation findModel(const std::string& fileName, const ModelSearch& search);
// The .onnx files of a model directory, sorted.
std::vector<std::string> listModels(const std::filesystem::path& dir);

}  // namespace demo
