// mlrun: runs an ONNX model through the plugin on a Vulkan device.
//
//   mlrun MODEL.onnx --input NAME=FILE.npy [--input ...] --output-dir DIR
//         [--precision fp32|fp16] [--device INDEX] [--iterations N] [--free-dim NAME=VALUE]
//         [--pipeline-cache FILE] [--tuning FILE] [--validation]
//   mlrun --list-devices | --list-models | --help
//
// MODEL is an .onnx file, or the name of a model shipped with vkml ("upscaler_x2"), looked up in
// $VKML_MODEL_DIR or ../share/vkml/models next to the executable (demos/common/model_dir.h).
//
// Writes every graph output as DIR/<output name>.npy (float32, C order). Exit codes: 0 success,
// 1 the model or the run failed, 2 bad command line or input files.
#include "bridge/graph_session.h"
#include "bridge/graph_tuning.h"
#include "bridge/pipeline_cache_file.h"
#include "engine/error.h"
#include "mlplugin/onnx.h"
#include "model_dir.h"
#include "npy.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace {

constexpr const char* kUsage =
    "usage: mlrun MODEL.onnx --input NAME=FILE.npy [--input ...] --output-dir DIR\n"
    "             [--precision fp32|fp16] [--device INDEX] [--iterations N]\n"
    "             [--free-dim NAME=VALUE] [--pipeline-cache FILE] [--tuning FILE] [--validation]\n"
    "       mlrun --list-devices\n"
    "       mlrun --list-models\n"
    "       mlrun --help\n"
    "\n"
    "Runs MODEL.onnx through the mlplugin on a Vulkan device and writes every graph output as\n"
    "DIR/<output name>.npy (float32, C order). Inputs are .npy files (float32 '<f4' or float16\n"
    "'<f2', C order); their shapes fix the model's free dimensions, as do --free-dim overrides.\n"
    "MODEL may also name a shipped model (upscaler_x2, denoiser): it is looked up in\n"
    "$VKML_MODEL_DIR when set, else in ../share/vkml/models next to this executable.\n"
    "  --precision fp16   compute in fp16 (inputs and outputs are converted)\n"
    "  --device INDEX     Vulkan device index (see --list-devices)\n"
    "  --iterations N     also time N executions: median GPU time (timestamps) and CPU record time\n"
    "  --pipeline-cache FILE  seed the plugin's pipeline cache from FILE (when it exists and fits this\n"
    "                     device and driver) and write the cache back to it after compiling\n"
    "  --tuning FILE      per-shape kernel selection by measurement: time the candidate kernels of every\n"
    "                     convolution FILE has no entry for (tensor-core devices; a minute or more),\n"
    "                     add the fastest to FILE, and run with FILE's choices (an application hands the\n"
    "                     same file to mlplugin::Device::setTuningTable)\n"
    "  --validation       enable the Khronos validation layer\n"
    "  --list-models      print the model directory and the models in it\n";

struct UsageError {
    std::string message;
};

struct Options {
    std::string model;
    std::vector<std::pair<std::string, std::string>> inputs;  // name, file
    std::string outputDir;
    mlplugin::DataType precision = mlplugin::DataType::Float32;
    std::optional<uint32_t> device;
    uint32_t iterations = 0;
    std::map<std::string, uint32_t> freeDims;
    std::string pipelineCache;
    std::string tuning;
    bool validation = false;
    bool listDevices = false;
    bool listModels = false;
    bool help = false;
};

std::pair<std::string, std::string> splitAssignment(const std::string& flag, const std::string& arg) {
    size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size()) throw UsageError{flag + " expects NAME=VALUE, got '" + arg + "'"};
    return {arg.substr(0, eq), arg.substr(eq + 1)};
}

uint32_t parseCount(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    unsigned long v = std::strtoul(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || text[0] == '-' || v > 1000000) throw UsageError{flag + " expects a non-negative integer, got '" + text + "'"};
    return uint32_t(v);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError{a + " needs a value"};
            return argv[++i];
        };
        if (a == "--help" || a == "-h") o.help = true;
        else if (a == "--list-devices") o.listDevices = true;
        else if (a == "--list-models") o.listModels = true;
        else if (a == "--validation") o.validation = true;
        else if (a == "--input") o.inputs.push_back(splitAssignment(a, value()));
        else if (a == "--output-dir") o.outputDir = value();
        else if (a == "--pipeline-cache") o.pipelineCache = value();
        else if (a == "--tuning") o.tuning = value();
        else if (a == "--device") o.device = parseCount(a, value());
        else if (a == "--iterations") o.iterations = parseCount(a, value());
        else if (a == "--free-dim") {
            auto [name, v] = splitAssignment(a, value());
            o.freeDims[name] = parseCount(a, v);
            if (o.freeDims[name] == 0) throw UsageError{"--free-dim " + name + " must be positive"};
        } else if (a == "--precision") {
            std::string p = value();
            if (p == "fp32") o.precision = mlplugin::DataType::Float32;
            else if (p == "fp16") o.precision = mlplugin::DataType::Float16;
            else throw UsageError{"--precision expects fp32 or fp16, got '" + p + "'"};
        } else if (a.size() > 1 && a[0] == '-') {
            throw UsageError{"unknown option '" + a + "'"};
        } else if (o.model.empty()) {
            o.model = a;
        } else {
            throw UsageError{"unexpected argument '" + a + "' (the model is '" + o.model + "')"};
        }
    }
    if (o.help || o.listDevices || o.listModels) return o;
    if (o.model.empty()) throw UsageError{"no model given"};
    if (o.outputDir.empty()) throw UsageError{"--output-dir is required"};
    return o;
}

int listDevices() {
    for (const auto& d : engine::Context::listDevices())
        std::printf("%u: %s%s%s\n", d.index, d.name.c_str(), d.suitable ? "" : "  (not usable: ", d.suitable ? "" : (d.whyNotSuitable + ")").c_str());
    return 0;
}

int listModels() {
    demo::ModelLocation dir = demo::findModelDir(demo::ModelSearch::fromProcess());
    if (!dir) {
        std::fprintf(stderr, "mlrun: %s\n", dir.problem.c_str());
        return 1;
    }
    std::printf("model directory: %s\n", dir.path.c_str());
    for (const std::string& name : demo::listModels(dir.path)) std::printf("  %s\n", name.c_str());
    return 0;
}

// MODEL as given when it is a file (or a path: the loader names a missing one), else the shipped
// model of that name from the model directory.
std::string resolveModel(const std::string& model) {
    std::error_code ec;
    if (std::filesystem::exists(model, ec) || model.find('/') != std::string::npos) return model;
    std::string file = std::filesystem::path(model).extension() == ".onnx" ? model : model + ".onnx";
    demo::ModelLocation found = demo::findModel(file, demo::ModelSearch::fromProcess());
    if (!found) throw UsageError{"'" + model + "' is not a file here, and " + found.problem};
    return found.path.string();
}

// The output name as a file name: path separators and other odd characters become '_'.
std::string fileNameFor(const std::string& name) {
    std::string s = name;
    for (char& c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.')) c = '_';
    if (s.empty() || s[0] == '.') s = "_" + s;
    return s;
}

int run(const Options& o) {
    // Inputs first: a bad file is a usage problem, reported before any device work.
    std::map<std::string, npy::Array> arrays;
    mlplugin::OnnxLoadOptions load;
    load.freeDimensions = o.freeDims;
    load.computeType = o.precision;
    for (const auto& [name, file] : o.inputs) {
        if (arrays.count(name)) throw UsageError{"input '" + name + "' is given twice"};
        auto a = npy::read(file);
        if (!a) throw UsageError{"input '" + name + "': " + a.error().message};
        std::vector<uint32_t> shape;
        for (uint64_t d : a->shape) {
            if (d == 0 || d > UINT32_MAX) throw UsageError{"input '" + name + "': " + file + " has an empty or huge dim"};
            shape.push_back(uint32_t(d));
        }
        load.inputShapes[name] = shape;
        arrays[name] = std::move(a).value();
    }
    auto model = mlplugin::loadOnnxFile(resolveModel(o.model), load);
    if (!model) {
        std::fprintf(stderr, "mlrun: %s\n", model.error().message.c_str());
        return 1;
    }
    std::vector<std::vector<float>> inputs;
    for (const auto& name : model->inputNames) {
        auto it = arrays.find(name);
        if (it == arrays.end()) throw UsageError{"the model needs input '" + name + "'; pass --input " + name + "=FILE.npy"};
        inputs.push_back(std::move(it->second.values));
    }

    engine::ContextDesc cd;
    cd.applicationName = "mlrun";
    cd.validation = o.validation;
    cd.deviceIndex = o.device;
    engine::Context ctx(cd);
    std::vector<uint8_t> cacheData;
    if (!o.pipelineCache.empty()) cacheData = bridge::readPipelineCacheFile(o.pipelineCache);
    auto device = bridge::createDevice(ctx, o.validation, cacheData);
    if (device->pipelineCacheOrigin() == mlplugin::PipelineCacheOrigin::Restored)
        std::printf("pipeline cache: restored from %s (%zu bytes)\n", o.pipelineCache.c_str(), cacheData.size());
    else if (device->pipelineCacheOrigin() == mlplugin::PipelineCacheOrigin::Rejected)
        std::printf("pipeline cache: %s ignored, %s\n", o.pipelineCache.c_str(), device->pipelineCacheRejection().c_str());
    if (!o.tuning.empty()) {
        mlplugin::TuningTable table;
        if (auto loaded = table.load(o.tuning); !loaded) {
            std::fprintf(stderr, "mlrun: --tuning: %s\n", loaded.error().message.c_str());
            return 2;
        }
        // Written back at once: a path that cannot be written fails before minutes of timing.
        if (auto saved = table.save(o.tuning); !saved) {
            std::fprintf(stderr, "mlrun: --tuning: %s\n", saved.error().message.c_str());
            return 2;
        }
        const size_t known = table.size();
        std::printf("tuning: %s has %zu entries; timing the candidates of the others\n", o.tuning.c_str(), known);
        std::fflush(stdout);
        bridge::TuneOptions options;
        options.progress = [](const bridge::TuneRecord& r) {
            std::printf("  %-7s %-40s %-34s %8.3f ms\n", r.confirmation ? "confirm" : r.sweep ? "again" : "tune", r.node.substr(0, 40).c_str(),
                        r.candidate.c_str(), r.ms);
            std::fflush(stdout);
        };
        if (bridge::tuneGraph(ctx, *device, model->graph, 0, table, options).empty())
            std::printf("tuning: nothing to time (every key known, or no tensor-core candidates on this device)\n");
        if (auto saved = table.save(o.tuning); !saved) {
            std::fprintf(stderr, "mlrun: --tuning: %s\n", saved.error().message.c_str());
            return 1;
        }
        std::printf("tuning: wrote %s (%zu entries, %zu new)\n", o.tuning.c_str(), table.size(), table.size() - known);
        device->setTuningTable(std::make_shared<mlplugin::TuningTable>(std::move(table)));
    }
    bridge::GraphSession session(ctx, *device, model->graph);
    if (!o.pipelineCache.empty()) {
        bridge::writePipelineCacheFile(o.pipelineCache, *device);
        std::printf("pipeline cache: wrote %s\n", o.pipelineCache.c_str());
    }
    const mlplugin::GraphCompileReport& report = session.compiled().report;
    std::printf("%s (opset %lld, %s): %u nodes -> %u dispatches, %llu temporary bytes, %llu persistent bytes\n", o.model.c_str(),
                static_cast<long long>(model->opsetVersion), ctx.deviceName().c_str(), report.nodesIn, report.dispatchablesOut,
                static_cast<unsigned long long>(report.temporaryBytes), static_cast<unsigned long long>(report.persistentBytes));
    session.setInputs(inputs);
    session.run();
    auto outputs = session.readOutputs();

    std::filesystem::create_directories(o.outputDir);
    for (size_t i = 0; i < outputs.size(); ++i) {
        const auto& desc = model->graph.values[model->graph.outputs[i]].desc;
        npy::Array a;
        for (uint32_t k = 0; k < desc.rank; ++k) a.shape.push_back(desc.sizes[k]);
        a.values = std::move(outputs[i]);
        std::string path = (std::filesystem::path(o.outputDir) / (fileNameFor(model->outputNames[i]) + ".npy")).string();
        auto s = npy::write(path, a);
        if (!s) {
            std::fprintf(stderr, "mlrun: %s\n", s.error().message.c_str());
            return 1;
        }
        std::printf("%s: %s -> %s\n", model->outputNames[i].c_str(), desc.toString().c_str(), path.c_str());
    }
    if (o.iterations) {
        bridge::Timing t = session.time(o.iterations);
        std::printf("%u runs: median GPU %.3f ms, median CPU record %.1f us\n", t.runs, t.medianGpuMs, t.medianRecordUs);
    }
    if (o.validation && ctx.validationMessageCount() > 0) {
        std::fprintf(stderr, "mlrun: %llu validation messages\n", static_cast<unsigned long long>(ctx.validationMessageCount()));
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        Options o = parse(argc, argv);
        if (o.help) {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (o.listDevices) return listDevices();
        if (o.listModels) return listModels();
        return run(o);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "mlrun: %s\n(mlrun --help for usage)\n", e.message.c_str());
        return 2;
    } catch (const engine::Error& e) {  // the plugin's codes arrive mapped (bridge/errors.h)
        std::fprintf(stderr, "mlrun: %s: %s\n", engine::toString(e.code()), e.what());
        return e.deviceLost() ? 3 : e.outOfMemory() ? 4 : 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mlrun: %s\n", e.what());
        return 1;
    }
}
