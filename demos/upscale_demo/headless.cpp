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
#include "frame_loop.h"
#include "golden.h"
#include "ml_models.h"
#include "progress.h"
#include "report.h"
#include "soak.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace demo {
namespace {

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

OutputConfig configFromOptions(const Options& o) {
    OutputConfig c;
    c.width = o.width;
    c.height = o.height;
    c.mode = o.mode;
    c.ml = o.ml;
    c.taau = o.taau;
    c.mlTemporal = o.mlTemporal;
    c.denoise = o.denoise;
    c.mlDenoise = o.mlDenoise;
    return c;
}

engine::RendererDesc rendererDesc(const Options& o, const SceneSetup& setup, const OutputConfig& c) {
    engine::RendererDesc d;
    d.scene = setup.scene;
    d.outputWidth = c.width;
    d.outputHeight = c.height;
    d.renderScale = o.renderScale;
    d.upscale = c.replacesFilter() ? engine::UpscaleMode::Bilinear : c.mode;  // a scaled render; the pass replaces the filter
    d.shadows = o.shadows;
    d.shadowSamples = o.shadowSamples;
    d.lighting = o.lighting;
    d.denoise = c.mlDenoise ? engine::DenoiseMode::Off : c.denoise;
    return d;
}

// The frame parameters of frame `i`: the camera on its path, and for the temporal modes this
// frame's jitter (Halton 2,3 with the phase count of the upscale ratio).
engine::FrameParams frameParams(const Options& o, const SceneSetup& setup, const OutputConfig& c, uint32_t i,
                                const engine::Renderer& renderer) {
    engine::FrameParams p = engine::FrameParams::onPath(setup.path, i, o.fps, o.startTime);
    if (c.taau || c.mlTemporal) {
        uint32_t phases = engine::jitterPhaseCount(renderer.renderExtent().width, renderer.outputExtent().width);
        p.jitterPixels = engine::haltonJitter(i, phases);
        p.textureLodBias = engine::textureLodBiasForUpscale(renderer.renderExtent().width, renderer.outputExtent().width);
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

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Everything the headless demo makes on one VkDevice. After a device loss it is destroyed as a
// whole and made again on a new context.
struct HeadlessGpu {
    engine::Context ctx;
    engine::GpuTimer timer;
    // The networks and the temporal upscaler outlive the renderer (its frame graph records their passes).
    std::unique_ptr<mlplugin::Device> mlDevice;
    std::unique_ptr<bridge::MlPass> mlUpscaler, mlDenoiser;
    std::unique_ptr<bridge::EffectUpscaler> temporalUpscaler;
    bool temporalIsMl = false;  // what temporalUpscaler was made for
    engine::Renderer renderer;
    // Last: destroyed first, waiting for submitted frames before the timer's query pools and the
    // renderer's resources go (also when a write throws, or after a loss).
    engine::Frames frames;

    HeadlessGpu(const Options& o, const SceneSetup& setup, const OutputConfig& c)
        : ctx(headlessContextDesc(o)),
          timer(ctx, {.framesInFlight = kFramesInFlight}),
          renderer(ctx, rendererDesc(o, setup, c)),
          // A converged stochastic reference at a large size can take minutes per frame on
          // lavapipe; only a frame that outlasts this is reported as a hang.
          frames(ctx, {.framesInFlight = kFramesInFlight, .fenceTimeoutNs = kFrameTimeoutNs}) {
        apply(o, c);
    }

    // Builds the frame graph for `c` (the GPU must be done with earlier frames: waitIdle first).
    void apply(const Options& o, const OutputConfig& c) {
        frames.waitIdle();
        if (c.reloadModels) {
            // The renderer's current graph keeps the old networks alive until build() replaces it.
            mlUpscaler.reset();
            mlDenoiser.reset();
        }
        if ((c.ml || c.mlDenoise) && !mlDevice) mlDevice = createMlDevice(ctx, o);
        if (c.ml && !mlUpscaler) mlUpscaler = std::make_unique<bridge::MlPass>(ctx, *mlDevice, mlUpscalerDesc(o.model, o.mlPrecision));
        if (c.mlDenoise && !mlDenoiser) mlDenoiser = std::make_unique<bridge::MlPass>(ctx, *mlDevice, mlDenoiserDesc(o.denoiseModel, o.mlPrecision));
        if ((c.taau || c.mlTemporal) && (!temporalUpscaler || temporalIsMl != c.mlTemporal)) {
            Options t = o;
            t.taau = c.taau;
            t.mlTemporal = c.mlTemporal;
            temporalUpscaler = std::make_unique<bridge::EffectUpscaler>(ctx, temporalUpscalerDesc(t, &frames.deletion()));
            temporalIsMl = c.mlTemporal;
        }
        if (renderer.outputExtent().width != c.width || renderer.outputExtent().height != c.height) renderer.resize(c.width, c.height);
        renderer.setUpscaleMode(c.replacesFilter() ? engine::UpscaleMode::Bilinear : c.mode);
        renderer.setUpscaler(c.ml ? mlUpscaler->upscaler() : c.taau || c.mlTemporal ? temporalUpscaler->upscaler() : engine::UpscalerFn{});
        renderer.setDenoiseMode(c.mlDenoise ? engine::DenoiseMode::Off : c.denoise);
        if (c.mlDenoise) {
            if (std::string problem = mlDenoiserExtentProblem(renderer.renderExtent()); !problem.empty()) throw engine::Error(problem);
        }
        renderer.setDenoiser(c.mlDenoise ? mlDenoiser->denoiser() : engine::DenoiserFn{});
        // --supersample reads back the float output it averages.
        const uint32_t channels = o.supersample > 1 ? uint32_t(engine::Channel::Output) : o.channels;
        renderer.build({.headless = true, .format = VK_FORMAT_UNDEFINED, .channels = channels, .framesInFlight = kFramesInFlight});
    }
};

// The frame loop and what survives a device loss: the configuration, the frame counter, the
// losses so far, the soak's samples.
class HeadlessRun {
public:
    // `setup` (the scene's geometry and the camera path) lives on the CPU and outlasts every device.
    HeadlessRun(const Options& o, const SceneSetup& setup) : o_(o), setup_(setup), pending_(kFramesInFlight) {
        if (o.soakStepFrames) {
            cycle_ = soakCycle(o.width, o.height, o.soakDeviceLoss);
            soak_.frames = o.frames;
            soak_.stepFrames = o.soakStepFrames;
            soak_.cycle = cycle_;
            soak_.validation = o.validation;
            if (o.soakMaxRssSlope) soak_.limits.residentSlope = *o.soakMaxRssSlope;
            if (o.soakMaxDeviceSlope) soak_.limits.deviceSlope = *o.soakMaxDeviceSlope;
            config_ = cycle_[0];
        } else {
            config_ = configFromOptions(o);
        }
        gpu_ = std::make_unique<HeadlessGpu>(o, setup_, config_);
    }

    bool run() {
        if (o_.supersample > 1) {
            runSupersampled();
            if (gpu_->mlDevice) savePipelineCache(*gpu_->mlDevice, o_);  // every network compiled by now
            writeRunReport();
            return true;
        }
        // With channels written, frames.json says what an upscaler needs besides the images.
        if (o_.channels && o_.writeImages) {
            frameLog_.emplace(o_.outDir + "/frames.json");
            if (!*frameLog_) throw engine::Error(engine::ErrorCode::IoError, "cannot write '" + o_.outDir + "/frames.json'");
        }
        const auto t0 = std::chrono::steady_clock::now();
        ProgressLine progress("frame", o_.frames, o_.progressSeconds);
        for (uint64_t i = 0; i < o_.frames; ++i) {
            try {
                if (!cycle_.empty()) soakStep(i);
                if (o_.simulateDeviceLoss == i) gpu_->ctx.simulateDeviceLoss();
                renderFrame(i);
            } catch (const engine::Error& e) {
                if (!e.deviceLost()) throw;
                recover(i, e, /*frameLost*/ true);
            }
            progress.update(i + 1);
        }
        try {
            drain();
        } catch (const engine::Error& e) {
            if (!e.deviceLost()) throw;
            recover(o_.frames - 1, e, /*frameLost*/ false);  // the frames in flight are lost, the last one was submitted
        }
        for (uint32_t s = 0; s < kFramesInFlight; ++s) gpu_->timer.collect(s);
        if (gpu_->mlDevice) savePipelineCache(*gpu_->mlDevice, o_);  // every network compiled by now
        writeRunReport();
        return cycle_.empty() || finishSoak(secondsSince(t0));
    }

private:
    void renderFrame(uint64_t i) {
        engine::Frame& f = gpu_->frames.beginFrame();
        if (pending_[f.slot]) writePending(f.slot);
        gpu_->timer.beginFrame(f.cmd, f.slot);
        const engine::FrameParams params = frameParams(o_, setup_, config_, uint32_t(i), gpu_->renderer);
        gpu_->renderer.record(f.cmd, f.slot, params, &gpu_->timer);
        gpu_->frames.endFrame();
        pending_[f.slot] = i;
        pendingParams_[f.slot] = params;
        lossesWithoutProgress_ = 0;
    }

    // --mode native --supersample N: every output frame is the mean of N renders at the output
    // resolution, each jittered by a Halton(2,3) point of the pixel (a box-filtered, anti-aliased
    // frame), accumulated in display-linear values and encoded once. Not recovered from a device
    // loss (the partial sums in flight go with it): a loss here ends the run with exit status 3.
    void runSupersampled() {
        const Options& o = o_;
        engine::Renderer& renderer = gpu_->renderer;
        engine::GpuTimer& timer = gpu_->timer;
        engine::Frames& frames = gpu_->frames;
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
        ProgressLine progress("reference frame", o.frames, o.progressSeconds);
        for (uint32_t i = 0; i < o.frames; ++i) {
            for (uint32_t s = 0; s < o.supersample; ++s) {
                engine::Frame& f = frames.beginFrame();
                collect(f.slot);
                timer.beginFrame(f.cmd, f.slot);
                engine::FrameParams params = engine::FrameParams::onPath(setup_.path, i, o.fps, o.startTime);
                params.jitterPixels = engine::haltonJitter(s, o.supersample);
                params.frameSeed = i * o.supersample + s;
                renderer.record(f.cmd, f.slot, params, &timer);
                frames.endFrame();
                pending[f.slot] = std::pair{i, s};
            }
            progress.update(i + 1);
        }
        frames.waitIdle();
        for (uint32_t s = 0; s < kFramesInFlight; ++s) {
            collect(s);
            timer.collect(s);
        }
    }

    // Writes the frame slot `slot` holds (its images and, with channels, its frames.json line:
    // a frame lost to a device loss has neither).
    void writePending(uint32_t slot) {
        if (o_.writeImages) writeFrame(o_.outDir, *pending_[slot], gpu_->renderer.readback(slot));
        if (frameLog_) writeFrameLog(*frameLog_, uint32_t(*pending_[slot]), pendingParams_[slot], gpu_->renderer);
        pending_[slot].reset();
    }

    // Waits for every frame in flight and writes what they read back (before a rebuild, whose
    // new graph has new read-back buffers, and at the end).
    void drain() {
        gpu_->frames.waitIdle();
        std::vector<uint32_t> slots;  // oldest frame first
        for (uint32_t s = 0; s < kFramesInFlight; ++s)
            if (pending_[s]) slots.push_back(s);
        std::sort(slots.begin(), slots.end(), [&](uint32_t a, uint32_t b) { return *pending_[a] < *pending_[b]; });
        for (uint32_t s : slots) writePending(s);
    }

    // Everything on the lost device goes; the same configuration is made again on a new one.
    // `frameLost`: `frame` itself was not submitted (the loop goes on with the next one).
    void recover(uint64_t frame, const engine::Error& e, bool frameLost) {
        DeviceLoss loss;
        loss.frame = frame;
        loss.simulated = gpu_->ctx.deviceLossSimulated();
        for (std::optional<uint64_t>& p : pending_)
            if (p) loss.lostFrames.push_back(*p), p.reset();
        if (frameLost) loss.lostFrames.push_back(frame);
        std::sort(loss.lostFrames.begin(), loss.lostFrames.end());
        framesLost_ += loss.lostFrames.size();
        std::printf("device lost at frame %llu%s: %s\n", static_cast<unsigned long long>(frame),
                    loss.simulated ? " (simulated)" : "", e.what());
        if (++lossesWithoutProgress_ >= kMaxLossesWithoutProgress) {
            losses_.push_back(loss);
            throw engine::Error(engine::ErrorCode::DeviceLost,
                                "the device was lost " + std::to_string(lossesWithoutProgress_) +
                                    " times without completing a frame in between; giving up (last: " + e.what() + ")",
                                VK_ERROR_DEVICE_LOST);
        }
        const auto t0 = std::chrono::steady_clock::now();
        retire();
        gpu_ = std::make_unique<HeadlessGpu>(o_, setup_, config_);
        loss.seconds = secondsSince(t0);
        loss.recovered = true;
        losses_.push_back(loss);
        std::printf("recovered: recreated the device and every resource in %.2f s%s\n", loss.seconds,
                    frame + 1 < o_.frames ? ("; continuing with frame " + std::to_string(frame + 1)).c_str() : "");
    }

    // Destroys the current device's objects, keeping its totals.
    void retire() {
        validationOfRetired_ += gpu_->ctx.validationMessageCount();
        devicePeak_ = std::max(devicePeak_, gpu_->ctx.memoryStats().peak);
        gpu_.reset();
    }

    // The soak's schedule: a new configuration at each step boundary, a memory sample when
    // leaving step 0, a simulated loss half-way through a step that has one.
    void soakStep(uint64_t i) {
        const uint64_t step = i / o_.soakStepFrames;
        const OutputConfig& c = cycle_[step % cycle_.size()];
        if (i % o_.soakStepFrames == 0 && step > 0) {
            const OutputConfig& previous = cycle_[(step - 1) % cycle_.size()];
            drain();
            if ((step - 1) % cycle_.size() == 0) sampleMemory(i);
            countChange(soak_.events, previous, c);
            config_ = c;  // recovery from a loss during apply() makes this configuration
            gpu_->apply(o_, c);
        }
        if (c.loseDevice && i % o_.soakStepFrames == o_.soakStepFrames / 2) gpu_->ctx.simulateDeviceLoss();
    }

    void sampleMemory(uint64_t frame) {
        const engine::DeviceMemoryStats m = gpu_->ctx.memoryStats();
        soak_.samples.push_back({frame, double(residentBytes()), double(m.inUse), double(m.driverUsage)});
        soak_.driverUsage = gpu_->ctx.features().memoryBudget;
    }

    uint64_t validationMessages() const { return validationOfRetired_ + gpu_->ctx.validationMessageCount(); }

    void writeRunReport() {
        RunInfo info;
        info.deviceName = gpu_->ctx.deviceName();
        info.renderWidth = gpu_->renderer.renderExtent().width;
        info.renderHeight = gpu_->renderer.renderExtent().height;
        info.outputWidth = gpu_->renderer.outputExtent().width;
        info.outputHeight = gpu_->renderer.outputExtent().height;
        info.framesRendered = uint32_t(o_.frames - framesLost_);
        info.timestamps = gpu_->timer.enabled();
        info.scene = setup_.scene->name;
        info.cameraPath = setup_.path.name();
        info.deviceLosses = losses_;
        info.deviceMemoryPeak = std::max(devicePeak_, gpu_->ctx.memoryStats().peak);
        info.deviceMemoryBudget = gpu_->ctx.memoryStats().budget;
        writeReport(o_.outDir + "/report.json", o_, info, gpu_->timer.timings());
        std::printf("rendered %u frame(s) %ux%u -> %ux%u (%s), denoise %s, on %s into %s\n", info.framesRendered, info.renderWidth,
                    info.renderHeight, info.outputWidth, info.outputHeight, modeName(o_), denoiseName(o_), info.deviceName.c_str(),
                    o_.outDir.c_str());
        if (!losses_.empty())
            std::printf("device losses: %zu, all recovered; frames lost: %llu\n", losses_.size(), static_cast<unsigned long long>(framesLost_));
    }

    bool finishSoak(double seconds) {
        soak_.seconds = seconds;
        soak_.validationMessages = validationMessages();
        const SoakVerdict verdict = judgeSoak(soak_.samples, soak_.validationMessages, soak_.limits);
        writeTextFile(o_.outDir + "/soak.json", soakJson(soak_, verdict));
        const SoakEvents& e = soak_.events;
        std::printf("soak: %llu frames in %.1f s: %llu resizes, %llu mode switches, %llu denoiser switches, %llu model reloads, "
                    "%llu device losses; %zu memory samples\n",
                    static_cast<unsigned long long>(soak_.frames), seconds, static_cast<unsigned long long>(e.resizes),
                    static_cast<unsigned long long>(e.modeSwitches), static_cast<unsigned long long>(e.denoiseSwitches),
                    static_cast<unsigned long long>(e.modelReloads), static_cast<unsigned long long>(e.deviceLosses), soak_.samples.size());
        std::printf("soak: slopes per 1000 frames: resident %.0f bytes, device %.0f bytes%s; %llu validation message(s)\n",
                    verdict.residentSlope, verdict.deviceSlope,
                    soak_.driverUsage ? (" (driver: " + std::to_string(int64_t(verdict.driverSlope)) + " bytes)").c_str() : "",
                    static_cast<unsigned long long>(soak_.validationMessages));
        for (const std::string& f : verdict.failures) std::printf("soak: FAIL: %s\n", f.c_str());
        std::printf("soak: %s (%s/soak.json)\n", verdict.pass ? "PASS" : "FAIL", o_.outDir.c_str());
        return verdict.pass;
    }

    const Options& o_;
    const SceneSetup& setup_;
    OutputConfig config_;  // what the current (or next, after a loss) device builds
    std::vector<OutputConfig> cycle_;  // the soak cycle; empty without --soak
    std::unique_ptr<HeadlessGpu> gpu_;
    std::vector<std::optional<uint64_t>> pending_;  // frame each slot holds, written when the slot comes round
    std::vector<engine::FrameParams> pendingParams_ = std::vector<engine::FrameParams>(kFramesInFlight);
    std::optional<std::ofstream> frameLog_;  // frames.json
    std::vector<DeviceLoss> losses_;
    uint64_t framesLost_ = 0;
    uint32_t lossesWithoutProgress_ = 0;
    uint64_t validationOfRetired_ = 0;  // validation messages of contexts destroyed after a loss
    VkDeviceSize devicePeak_ = 0;
    SoakRun soak_;
};

}  // namespace

engine::ContextDesc headlessContextDesc(const Options& o) {
    engine::ContextDesc d;
    d.applicationName = "upscale_demo";
    d.validation = o.validation;
    d.deviceIndex = o.device;
    d.deviceMemoryBudgetBytes = VkDeviceSize(o.deviceMemoryBudgetMiB) << 20;
    return d;
}

bool runHeadless(const Options& o, const SceneSetup& setup) {
    HeadlessRun run(o, setup);
    return run.run();
}

void writeGolden(engine::Context& ctx, const std::string& path) {
    engine::Renderer renderer(ctx, golden::rendererDesc());
    engine::FrameReadback rb = engine::renderSingleFrame(ctx, renderer, golden::frameParams());
    engine::writePng(path, rb.frame);
    std::printf("wrote golden frame %ux%u to %s\n", rb.frame.width, rb.frame.height, path.c_str());
}

}  // namespace demo
