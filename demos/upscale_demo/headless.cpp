#include "headless.h"

#include "bridge/graph_session.h"
#include "bridge/ml_pass.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/image_io.h"
#include "engine/renderer.h"
#include "golden.h"
#include "ml_models.h"
#include "report.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

namespace demo {
namespace {

constexpr uint32_t kFramesInFlight = 2;
constexpr uint64_t kFrameTimeoutNs = 30ull * 60 * 1000 * 1000 * 1000;  // 30 minutes

std::string numbered(const std::string& dir, const std::string& stem, uint64_t frame, const char* ext) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%05llu.%s", stem.c_str(), static_cast<unsigned long long>(frame), ext);
    return dir + "/" + name;
}

void writeFrame(const std::string& dir, uint64_t frame, const engine::FrameReadback& rb) {
    engine::writePng(numbered(dir, "frame", frame, "png"), rb.frame);
    for (const auto& c : rb.channels) {
        const uint32_t shape[] = {c.height, c.width, c.components};
        engine::writeNpy(numbered(dir, engine::toString(c.channel), frame, "npy"), c.data, shape);
    }
}

engine::RendererDesc rendererDesc(const Options& o) {
    engine::RendererDesc d;
    d.outputWidth = o.width;
    d.outputHeight = o.height;
    d.renderScale = o.renderScale;
    d.upscale = o.mode;
    d.shadows = o.shadows;
    d.shadowSamples = o.shadowSamples;
    d.lighting = o.lighting;
    d.denoise = o.denoise;
    return d;
}

}  // namespace

void runHeadless(engine::Context& ctx, const Options& o) {
    // Declared so that `frames` is destroyed first: it waits for submitted frames before the
    // timer's query pools and the renderer's resources go (also when a write below throws).
    engine::GpuTimer timer(ctx, {.framesInFlight = kFramesInFlight});
    // The ML upscaler outlives the renderer (its frame graph records the pass's objects).
    std::unique_ptr<mlplugin::Device> mlDevice;
    std::unique_ptr<bridge::MlPass> mlUpscaler;
    if (o.ml) {
        mlDevice = createMlDevice(ctx, o);
        mlUpscaler = std::make_unique<bridge::MlPass>(ctx, *mlDevice, mlUpscalerDesc(o.model));
    }
    std::unique_ptr<bridge::MlPass> mlDenoiser;
    if (o.mlDenoise) {
        if (!mlDevice) mlDevice = createMlDevice(ctx, o);
        mlDenoiser = std::make_unique<bridge::MlPass>(ctx, *mlDevice, mlDenoiserDesc(o.denoiseModel));
    }
    engine::Renderer renderer(ctx, rendererDesc(o));
    if (mlUpscaler) renderer.setUpscaler(mlUpscaler->upscaler());
    if (mlDenoiser) {
        if (std::string problem = mlDenoiserExtentProblem(renderer.renderExtent()); !problem.empty()) throw engine::Error(problem);
        renderer.setDenoiser(mlDenoiser->denoiser());
    }
    // A converged stochastic reference at a large size can take minutes per frame on lavapipe;
    // only a frame that outlasts this is reported as a hang.
    engine::Frames frames(ctx, {.framesInFlight = kFramesInFlight, .fenceTimeoutNs = kFrameTimeoutNs});
    renderer.build({.headless = true, .format = VK_FORMAT_UNDEFINED, .channels = o.channels, .framesInFlight = kFramesInFlight});
    if (mlDevice) savePipelineCache(*mlDevice, o);  // the networks are compiled now

    // Which frame each slot holds, so its read-back is written when the slot comes round again.
    std::vector<std::optional<uint64_t>> pending(kFramesInFlight);
    for (uint32_t i = 0; i < o.frames; ++i) {
        if (o.simulateDeviceLoss == i) throw engine::Error("simulated (--simulate-device-loss)", VK_ERROR_DEVICE_LOST);
        engine::Frame& f = frames.beginFrame();
        if (pending[f.slot] && o.writeImages) writeFrame(o.outDir, *pending[f.slot], renderer.readback(f.slot));
        timer.beginFrame(f.cmd, f.slot);
        renderer.record(f.cmd, f.slot, engine::FrameParams::onPath(o.path, i, o.fps, o.startTime), &timer);
        frames.endFrame();
        pending[f.slot] = i;
    }
    frames.waitIdle();
    for (uint32_t s = 0; s < kFramesInFlight; ++s) {
        if (pending[s] && o.writeImages) writeFrame(o.outDir, *pending[s], renderer.readback(s));
        timer.collect(s);
    }

    RunInfo info;
    info.deviceName = ctx.deviceName();
    info.renderWidth = renderer.renderExtent().width;
    info.renderHeight = renderer.renderExtent().height;
    info.outputWidth = renderer.outputExtent().width;
    info.outputHeight = renderer.outputExtent().height;
    info.framesRendered = o.frames;
    info.timestamps = timer.enabled();
    writeReport(o.outDir + "/report.json", o, info, timer.timings());
    std::printf("rendered %u frame(s) %ux%u -> %ux%u (%s), denoise %s, on %s into %s\n", o.frames, info.renderWidth,
                info.renderHeight, info.outputWidth, info.outputHeight, modeName(o), denoiseName(o), info.deviceName.c_str(),
                o.outDir.c_str());
}

void writeGolden(engine::Context& ctx, const std::string& path) {
    engine::Renderer renderer(ctx, golden::rendererDesc());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx, renderer, golden::frameParams());
    engine::writePng(path, rb.frame);
    std::printf("wrote golden frame %ux%u to %s\n", rb.frame.width, rb.frame.height, path.c_str());
}

}  // namespace demo
