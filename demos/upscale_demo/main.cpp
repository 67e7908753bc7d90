// upscale_demo: the renderer's demo and data generator. See docs/RENDERER.md and --help.
#include "engine/camera.h"
#include "engine/context.h"
#include "engine/error.h"
#include "headless.h"
#include "ml_models.h"
#include "options.h"
#include "scene_setup.h"
#include "windowed.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace {

// Fails early, before any GPU work, with the directory named.
void prepareOutputDirectory(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw engine::Error(engine::ErrorCode::IoError, "cannot create output directory '" + dir + "': " + ec.message());
    if (!std::filesystem::is_directory(dir)) throw engine::Error(engine::ErrorCode::IoError, "output path '" + dir + "' exists and is not a directory");
    std::string probe = dir + "/.upscale_demo_write_test";
    {
        std::ofstream f(probe);
        if (!f || !(f << "x") || (f.close(), !f)) throw engine::Error(engine::ErrorCode::IoError, "output directory '" + dir + "' is not writable");
    }
    std::filesystem::remove(probe, ec);
}

// Exit statuses: 0 done, 1 any other error, 2 usage, 3 device lost and not recovered,
// 4 out of memory, 5 soak limits exceeded (docs/RELIABILITY.md).
constexpr int kDeviceLost = 3, kOutOfMemory = 4, kSoakFailed = 5;

int reportError(const engine::Error& e, const demo::Options& o) {
    switch (e.code()) {
    case engine::ErrorCode::DeviceLost:
    case engine::ErrorCode::Timeout:
        std::fprintf(stderr, "upscale_demo: error: the GPU device was lost or hung and could not be recovered (%s: driver reset, "
                             "GPU fault or hang); exiting.\n  detail: %s\n", engine::toString(e.result()), e.what());
        return kDeviceLost;
    case engine::ErrorCode::OutOfMemory:
        // Messages from Context::allocateMemory name the size and the budget; a plugin's own
        // allocation (through Context::libraryProcAddr) only says it failed.
        std::fprintf(stderr, "upscale_demo: error: %s%s\n", e.what(),
                     o.deviceMemoryBudgetMiB && !std::strstr(e.what(), "budget")
                         ? (" (device memory budget " + std::to_string(o.deviceMemoryBudgetMiB) + " MiB)").c_str()
                         : "");
        return kOutOfMemory;
    default:
        std::fprintf(stderr, "upscale_demo: error: %s\n", e.what());
        return 1;
    }
}

// --mode ml / ml-temporal / --denoise ml without a file: the shipped model from the model directory, found
// before any GPU work; false (with a message naming every place looked) when it is not there.
bool shippedModelFound(bool wanted, std::string& model, const char* shipped, const char* flag) {
    if (!wanted || !model.empty()) return true;
    demo::ModelLocation found = demo::resolveModel({}, shipped);
    if (!found) {
        std::fprintf(stderr, "upscale_demo: error: %s (or pass %s FILE)\n", found.problem.c_str(), flag);
        return false;
    }
    model = found.path.string();
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    demo::Options options;
    try {
        options = demo::parseOptions(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const demo::UsageError& e) {
        std::fprintf(stderr, "upscale_demo: error: %s\n", e.what());
        return 2;
    }
    if (options.help) {
        std::fputs(demo::usage().c_str(), stdout);
        return 0;
    }
    if (options.listPaths) {
        for (uint32_t i = 0; i < engine::cameraPathCount(); ++i) std::printf("%u %s\n", i, engine::cameraPathName(i));
        return 0;
    }
    // The soak's cycle runs both networks.
    const bool soak = options.soakStepFrames > 0;
    if (!shippedModelFound(options.ml || soak, options.model, demo::kUpscalerModel, "--model") ||
        !shippedModelFound(options.mlDenoise || soak, options.denoiseModel, demo::kDenoiserModel, "--denoise-model") ||
        !shippedModelFound(options.mlTemporal, options.temporalModel, demo::kTemporalModel, "--temporal-model"))
        return 1;
    try {
        if (!options.writeGolden.empty()) {
            std::filesystem::path parent = std::filesystem::path(options.writeGolden).parent_path();
            if (!parent.empty()) prepareOutputDirectory(parent.string());
            engine::Context ctx(demo::headlessContextDesc(options));
            demo::writeGolden(ctx, options.writeGolden);
        } else if (options.headless) {
            prepareOutputDirectory(options.outDir);
            demo::SceneSetup setup = demo::loadSceneSetup(options);  // file errors before any GPU work
            if (!demo::runHeadless(options, setup)) return kSoakFailed;
        } else {
            demo::runWindowed(options, demo::loadSceneSetup(options));
        }
    } catch (const engine::Error& e) {
        return reportError(e, options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "upscale_demo: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
