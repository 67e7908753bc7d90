#include "model_dir.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace demo {
namespace fs = std::filesystem;

ModelSearch ModelSearch::fromProcess() {
    ModelSearch s;
    if (const char* v = std::getenv(kModelDirVariable)) s.overrideDir = v;
    std::error_code ec;
    s.executable = fs::read_symlink("/proc/self/exe", ec);
    if (ec) {
        s.executable.clear();
        s.executableProblem = "cannot read /proc/self/exe: " + ec.message();
    }
    return s;
}

ModelLocation findModelDir(const ModelSearch& search) {
    std::error_code ec;
    if (search.overrideDir) {
        const std::string& dir = *search.overrideDir;
        if (dir.empty()) return {{}, std::string(kModelDirVariable) + " is set but empty; set it to the directory holding the models"};
        if (fs::is_directory(dir, ec)) return {fs::path(dir), {}};
        return {{}, std::string(kModelDirVariable) + "=" + dir + " is not a directory (" +
                        (fs::exists(dir, ec) ? "it is a file" : "it does not exist") + "); set it to the directory holding the models"};
    }
    if (search.executable.empty())
        return {{}, "no model directory: " + search.executableProblem + ", so <prefix>/" + kModelDirBelowPrefix +
                        " cannot be found; set " + kModelDirVariable + " to the directory holding the models"};
    fs::path dir = (search.executable.parent_path() / ".." / kModelDirBelowPrefix).lexically_normal();
    if (fs::is_directory(dir, ec)) return {dir, {}};
    return {{}, "no model directory: expected " + dir.string() + " (../" + kModelDirBelowPrefix + " from the executable " +
                    search.executable.string() + ") and " + kModelDirVariable +
                    " is not set; install the models there or set " + kModelDirVariable + " to the directory holding them"};
}

ModelLocation findModel(const std::string& fileName, const ModelSearch& search) {
    ModelLocation dir = findModelDir(search);
    if (!dir) return {{}, "cannot find " + fileName + ": " + dir.problem};
    fs::path file = dir.path / fileName;
    std::error_code ec;
    if (fs::is_regular_file(file, ec)) return {file, {}};
    std::string found;
    for (const std::string& m : listModels(dir.path)) found += (found.empty() ? "" : ", ") + m;
    return {{}, "cannot find " + fileName + ": the model directory " + dir.path.string() +
                    (search.overrideDir ? std::string(" (") + kModelDirVariable + ")" : std::string(" (next to the executable)")) +
                    " has no such file (it has: " + (found.empty() ? "no .onnx files" : found) + ")"};
}

std::vector<std::string> listModels(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".onnx") names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace demo
