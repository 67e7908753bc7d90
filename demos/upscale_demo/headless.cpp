#include "headless.h"

#include "bridge/graph_session.h"
#include "bridge/ml_pass.h"
#include "engine/camera.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/image_io.h"
#include "engine/jitter.h"
#include "engine/renderer.h"
#include "golden.h"
#include "ml_models.h"
#include "report.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
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

engine::RendererDesc rendererDesc(const Options& o, const SceneSetup& setup) {
    engine::RendererDesc d;
    d.scene = setup.scene;
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

// The frame parameters of frame `i`: the camera on its path, and for the temporal modes this
// frame's jitter (Halton 2,3 with the phase count of the upscale ratio).
engine::FrameParams frameParams(const Options& o, const SceneSetup& setup, uint32_t i, const engine::Renderer& renderer) {
    engine::FrameParams p = engine::FrameParams::onPath(setup.path, i, o.fps, o.startTime);
    if (temporal(o)) {
        uint32_t phases = engine::jitterPhaseCount(renderer.renderExtent().width, renderer.outputExtent().width);
        p.jitterPixels = engine::haltonJitter(i, phases);
    }
    return p;
}

// One line of frames.json (JSON lines): frame, jitter (render pixels), camera, cut, sizes. The
// effect sample (demos/effect_sample) upscales a written sequence with it.
void writeFrameLog(std::ofstream& log, uint32_t frame, const engine::FrameParams& p, const engine::Renderer& r) {
    char line[384];
    std::snprintf(line, sizeof line,
                  "{\"frame\": %u, \"jitter\": [%.9g, %.9g], \"fov_y_deg\": %.9g, \"near\": %.9g, \"far\": %.9g, \"cut\": %s, "
                  "\"frame_time_ms\": %.9g, \"render\": [%u, %u], \"display\": [%u, %u]}\n",
                  frame, p.jitterPixels.x, p.jitterPixels.y, p.camera.fovYDegrees, p.camera.zNear, p.camera.zFar,
                  p.cameraCut ? "true" : "false", p.frameTimeSeconds * 1000.0f, r.renderExtent().width, r.renderExtent().height,
                  r.outputExtent().width, r.outputExtent().height);
    log << line;
}

// sRGB-encodes display-linear values the way encode.comp does (exact curve, round to nearest).
uint8_t encodeSrgb(float v) {
    v = std::fmin(std::fmax(v, 0.0f), 1.0f);
    float e = v <= 0.0031308f ? v * 12.92f : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
    return uint8_t(std::lround(e * 255.0f));
}

engine::Image8 encodeFrame(const std::vector<double>& sum, uint32_t samples, uint32_t width, uint32_t height) {
    engine::Image8 image{width, height, 4, std::vector<uint8_t>(size_t(width) * height * 4, 255)};
    for (size_t p = 0; p < size_t(width) * height; ++p)
        for (uint32_t c = 0; c < 3; ++c) image.pixels[p * 4 + c] = encodeSrgb(float(sum[p * 3 + c] / samples));
    return image;
}

// --mode native --supersample N: every output frame is the mean of N renders at the output
// resolution, each jittered by a Halton(2,3) point of the pixel (a box-filtered, anti-aliased
// frame), accumulated in display-linear values and encoded once.
void runSupersampled(engine::Context& ctx, const Options& o, const SceneSetup& setup, engine::Renderer& renderer, engine::GpuTimer& timer) {
    engine::Frames frames(ctx, {.framesInFlight = kFramesInFlight, .fenceTimeoutNs = kFrameTimeoutNs});
    renderer.build({.headless = true, .format = VK_FORMAT_UNDEFINED, .channels = uint32_t(engine::Channel::Output),
                    .framesInFlight = kFramesInFlight});
    const uint32_t w = renderer.outputExtent().width, h = renderer.outputExtent().height;
    std::map<uint32_t, std::vector<double>> sums;  // per output frame being accumulated
    std::map<uint32_t, uint32_t> counts;
    std::vector<std::optional<std::pair<uint32_t, uint32_t>>> pending(kFramesInFlight);  // (frame, sample) per slot
    auto collect = [&](uint32_t slot) {
        if (!pending[slot]) return;
        uint32_t frame = pending[slot]->first;
        engine::FrameReadback rb = renderer.readback(slot);
        std::vector<double>& sum = sums[frame];
        sum.resize(size_t(w) * h * 3, 0.0);
        const std::vector<float>& data = rb.channels.at(0).data;
        for (size_t k = 0; k < sum.size(); ++k) sum[k] += data[k];
        if (++counts[frame] == o.supersample) {
            if (o.writeImages) engine::writePng(numbered(o.outDir, "frame", frame, "png"), encodeFrame(sum, o.supersample, w, h));
            if (o.channels & uint32_t(engine::Channel::Output)) {  // the mean itself, display-linear, for training
                std::vector<float> mean(sum.size());
                for (size_t k = 0; k < sum.size(); ++k) mean[k] = float(sum[k] / o.supersample);
                const uint32_t shape[] = {h, w, 3};
                engine::writeNpy(numbered(o.outDir, "output", frame, "npy"), mean, shape);
            }
            sums.erase(frame);
            counts.erase(frame);
        }
        pending[slot].reset();
    };
    for (uint32_t i = 0; i < o.frames; ++i) {
        for (uint32_t s = 0; s < o.supersample; ++s) {
            engine::Frame& f = frames.beginFrame();
            collect(f.slot);
            timer.beginFrame(f.cmd, f.slot);
            engine::FrameParams params = engine::FrameParams::onPath(setup.path, i, o.fps, o.startTime);
            params.jitterPixels = engine::haltonJitter(s, o.supersample);
            params.frameSeed = i * o.supersample + s;
            renderer.record(f.cmd, f.slot, params, &timer);
            frames.endFrame();
            pending[f.slot] = std::pair{i, s};
        }
        if (o.frames > 1 && (i + 1) % 10 == 0) std::printf("  reference frame %u/%u\n", i + 1, o.frames);
    }
    frames.waitIdle();
    for (uint32_t s = 0; s < kFramesInFlight; ++s) {
        collect(s);
        timer.collect(s);
    }
}

void renderFrames(engine::Context& ctx, const Options& o, const SceneSetup& setup, engine::Renderer& renderer, engine::GpuTimer& timer) {
    // A converged stochastic reference at a large size can take minutes per frame on lavapipe;
    // only a frame that outlasts this is reported as a hang.
    engine::Frames frames(ctx, {.framesInFlight = kFramesInFlight, .fenceTimeoutNs = kFrameTimeoutNs});
    renderer.build({.headless = true, .format = VK_FORMAT_UNDEFINED, .channels = o.channels, .framesInFlight = kFramesInFlight});

    // Which frame each slot holds, so its read-back is written when the slot comes round again.
    std::vector<std::optional<uint64_t>> pending(kFramesInFlight);
    // With channels written, frames.json says what an upscaler needs besides the images.
    std::optional<std::ofstream> frameLog;
    if (o.channels && o.writeImages) {
        frameLog.emplace(o.outDir + "/frames.json");
        if (!*frameLog) throw engine::Error("cannot write '" + o.outDir + "/frames.json'");
    }
    for (uint32_t i = 0; i < o.frames; ++i) {
        if (o.simulateDeviceLoss == i) throw engine::Error("simulated (--simulate-device-loss)", VK_ERROR_DEVICE_LOST);
        engine::Frame& f = frames.beginFrame();
        if (pending[f.slot] && o.writeImages) writeFrame(o.outDir, *pending[f.slot], renderer.readback(f.slot));
        timer.beginFrame(f.cmd, f.slot);
        engine::FrameParams params = frameParams(o, setup, i, renderer);
        if (frameLog) writeFrameLog(*frameLog, i, params, renderer);
        renderer.record(f.cmd, f.slot, params, &timer);
        frames.endFrame();
        pending[f.slot] = i;
    }
    frames.waitIdle();
    for (uint32_t s = 0; s < kFramesInFlight; ++s) {
        if (pending[s] && o.writeImages) writeFrame(o.outDir, *pending[s], renderer.readback(s));
        timer.collect(s);
    }
}

void writeRunReport(const Options& o, const SceneSetup& setup, engine::Context& ctx, const engine::Renderer& renderer,
                    const engine::GpuTimer& timer) {
    RunInfo info;
    info.deviceName = ctx.deviceName();
    info.renderWidth = renderer.renderExtent().width;
    info.renderHeight = renderer.renderExtent().height;
    info.outputWidth = renderer.outputExtent().width;
    info.outputHeight = renderer.outputExtent().height;
    info.framesRendered = o.frames;
    info.timestamps = timer.enabled();
    info.scene = setup.scene->name;
    info.cameraPath = setup.path.name();
    writeReport(o.outDir + "/report.json", o, info, timer.timings());
    std::printf("rendered %u frame(s) %ux%u -> %ux%u (%s), denoise %s, on %s into %s\n", o.frames, info.renderWidth,
                info.renderHeight, info.outputWidth, info.outputHeight, modeName(o), denoiseName(o), info.deviceName.c_str(),
                o.outDir.c_str());
}

}  // namespace

void runHeadless(engine::Context& ctx, const Options& o, const SceneSetup& setup) {
    // Declared so that `frames` is destroyed first: it waits for submitted frames before the
    // timer's query pools and the renderer's resources go (also when a write below throws).
    engine::GpuTimer timer(ctx, {.framesInFlight = kFramesInFlight});
    // The ML upscaler outlives the renderer (its frame graph records the pass's objects).
    std::unique_ptr<mlplugin::Device> mlDevice;
    std::unique_ptr<bridge::MlPass> mlUpscaler;
    if (o.ml) {
        mlDevice = bridge::createDevice(ctx, o.validation);
        mlUpscaler = std::make_unique<bridge::MlPass>(ctx, *mlDevice, mlUpscalerDesc(o.model));
    }
    std::unique_ptr<bridge::EffectUpscaler> temporalUpscaler;
    if (temporal(o)) temporalUpscaler = std::make_unique<bridge::EffectUpscaler>(ctx, temporalUpscalerDesc(o, nullptr));
    std::unique_ptr<bridge::MlPass> mlDenoiser;
    if (o.mlDenoise) {
        if (!mlDevice) mlDevice = bridge::createDevice(ctx, o.validation);
        mlDenoiser = std::make_unique<bridge::MlPass>(ctx, *mlDevice, mlDenoiserDesc(o.denoiseModel));
    }
    engine::Renderer renderer(ctx, rendererDesc(o, setup));
    if (mlUpscaler) renderer.setUpscaler(mlUpscaler->upscaler());
    if (temporalUpscaler) renderer.setUpscaler(temporalUpscaler->upscaler());
    if (mlDenoiser) {
        if (std::string problem = mlDenoiserExtentProblem(renderer.renderExtent()); !problem.empty()) throw engine::Error(problem);
        renderer.setDenoiser(mlDenoiser->denoiser());
    }
    if (o.supersample > 1) {
        runSupersampled(ctx, o, setup, renderer, timer);
    } else {
        renderFrames(ctx, o, setup, renderer, timer);
    }
    writeRunReport(o, setup, ctx, renderer, timer);
}

void writeGolden(engine::Context& ctx, const std::string& path) {
    engine::Renderer renderer(ctx, golden::rendererDesc());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx, renderer, golden::frameParams());
    engine::writePng(path, rb.frame);
    std::printf("wrote golden frame %ux%u to %s\n", rb.frame.width, rb.frame.height, path.c_str());
}

}  // namespace demo
