// upscale_demo: the renderer's demo and data generator. See docs/RENDERER.md and --help.
#include "engine/camera.h"
#include "engine/context.h"
#include "engine/error.h"
#include "headless.h"
#include "options.h"
#include "scene_setup.h"
#include "windowed.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace {

// Fails early, before any GPU work, with the directory named.
void prepareOutputDirectory(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw engine::Error("cannot create output directory '" + dir + "': " + ec.message());
    if (!std::filesystem::is_directory(dir)) throw engine::Error("output path '" + dir + "' exists and is not a directory");
    std::string probe = dir + "/.upscale_demo_write_test";
    {
        std::ofstream f(probe);
        if (!f || !(f << "x") || (f.close(), !f)) throw engine::Error("output directory '" + dir + "' is not writable");
    }
    std::filesystem::remove(probe, ec);
}

engine::ContextDesc headlessContext(const demo::Options& o) {
    engine::ContextDesc d;
    d.applicationName = "upscale_demo";
    d.validation = o.validation;
    d.deviceIndex = o.device;
    return d;
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
    try {
        if (!options.writeGolden.empty()) {
            std::filesystem::path parent = std::filesystem::path(options.writeGolden).parent_path();
            if (!parent.empty()) prepareOutputDirectory(parent.string());
            engine::Context ctx(headlessContext(options));
            demo::writeGolden(ctx, options.writeGolden);
        } else if (options.headless) {
            prepareOutputDirectory(options.outDir);
            demo::SceneSetup setup = demo::loadSceneSetup(options);  // file errors before any GPU work
            engine::Context ctx(headlessContext(options));
            demo::runHeadless(ctx, options, setup);
        } else {
            demo::runWindowed(options, demo::loadSceneSetup(options));
        }
    } catch (const engine::Error& e) {
        if (!e.deviceLost()) {
            std::fprintf(stderr, "upscale_demo: error: %s\n", e.what());
            return 1;
        }
        // Nothing to recover on this device: say so plainly and exit with a distinct status.
        std::fprintf(stderr, "upscale_demo: error: the GPU device was lost (VK_ERROR_DEVICE_LOST: driver reset, GPU fault or "
                             "timeout); exiting.\n  detail: %s\n", e.what());
        return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "upscale_demo: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
