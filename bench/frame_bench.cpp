// frame_bench: what ML upscaling buys in a whole frame. Renders the engine's demo scene headless
// and compares native rendering at the output resolution with rendering at half resolution
// plus an x2 upscale to it: 3840x2160 native vs 1920x1080 + x2, and 1920x1080 native vs
// 960x540 + x2. The x2 step is the ML upscaler (bridge::MlPass: the shipped
// assets/upscaler_x2.onnx when present, else the reference ESPCN x2 of networks.h) and, for
// reference, the renderer's bicubic filter. Everything of a frame is recorded into one command
// buffer on one queue (2 frames in flight); every frame-graph pass is a GpuTimer scope, plus
// one scope around the whole frame. Medians over --frames frames after --warmup frames.
// The temporal upscalers (TAAU and the temporal ML network, effects::Upscaler) run on jittered
// frames (Halton 2,3) at the same resolutions; the temporal ML network twice where the asset
// directory has both shipped models: upscaler_temporal.onnx ("ml-temporal") and the performance
// model upscaler_temporal_fast.onnx ("ml-temporal-fast").
// Also at each native resolution: 1-ray stochastic shadows denoised by the shipped ML denoiser
// (assets/denoiser.onnx, when present) and by the renderer's a-trous filter.
#include "cli.h"
#include "engine/context.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/camera_path.h"
#include "engine/renderer.h"
#include "engine/scene.h"
#include "bridge/effect_upscaler.h"
#include "bridge/graph_session.h"
#include "bridge/graph_tuning.h"
#include "bridge/ml_pass.h"
#include "engine/jitter.h"
#include "mlplugin/mlplugin.h"
#include "networks.h"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

struct Options {
    bench::CommonOptions common{.json = "frame_bench.json"};
    uint32_t frames = 100, warmup = 10;
    bool fp32 = false;
    bool effectSteps = false;  // --effect-steps: a timer scope per step of the temporal effects
    std::string scene;      // glTF file; empty: the procedural scene
    uint32_t sceneSeed = 0;
    std::string tuning;     // --tuning: measured kernel choices for the ML networks
    std::shared_ptr<const mlplugin::TuningTable> tuningTable;  // read from `tuning` before any GPU work
};

// What every configuration draws, loaded once: the scene and the camera path along which the
// frames are timed (built-in path 0 for the procedural scene, an orbit around a glTF scene).
struct Content {
    std::shared_ptr<const engine::SceneGeometry> scene;
    engine::CameraPath path;
};

void usage() {
    std::puts(
        "usage: frame_bench [--smoke] [--frames N] [--warmup N] [--json FILE] [--assets DIR] [--filter TEXT] [--fp32]\n"
        "                   [--device INDEX] [--validation] [--scene FILE | --scene-seed N] [--tuning FILE] [--effect-steps]\n"
        "  Frame times (per pass and total, GPU timestamps) of native rendering vs half resolution + x2 upscale\n"
        "  (ML upscaler and bicubic), at 3840x2160 and 1920x1080 output; native with 1-ray shadows + ML or a-trous denoiser.\n"
        "  --smoke        tiny output size and few frames (CI on lavapipe; times mean nothing)\n"
        "  --frames N     timed frames per configuration (default 100), after --warmup N (default 10)\n"
        "  --json FILE    results as JSON (default frame_bench.json)\n"
        "  --assets DIR   where upscaler_x2.onnx (else the reference ESPCN x2) and denoiser.onnx are looked for (default: assets)\n"
        "  --filter TEXT  only configurations whose name contains TEXT\n"
        "  --fp32         run the ML networks in fp32 (default: fp16 with fp16 arithmetic where the device has it)\n"
        "  --device I     Vulkan device index\n"
        "  --validation   enable the Khronos validation layer\n"
        "  --scene FILE   time a glTF scene (.gltf/.glb) along an automatic orbit instead of the procedural scene\n"
        "  --scene-seed N the procedural scene's seed (default 0: the classic scene)\n"
        "  --tuning FILE  measured kernel choices for every ML network (mlrun MODEL.onnx --tuning FILE on this GPU);\n"
        "                 default: the plugin's fixed heuristics\n"
        "  --effect-steps also time each step of the TAAU and temporal ML effects (rows \"<pass>/<step>\", not in the pass sum)");
}

// --scene FILE (not empty) and --scene-seed N (0..2^32-1).
bool sceneOption(bench::ArgParser& args, Options& o) {
    const char* v = args.value();
    if (!v) return false;
    if (args.is("--scene")) {
        if (!*v) std::fprintf(stderr, "frame_bench: --scene needs a file name\n");
        o.scene = v;
        return *v != 0;
    }
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (!*v || *end || v[0] == '-' || n > UINT32_MAX) {
        std::fprintf(stderr, "frame_bench: --scene-seed expects an integer 0..4294967295\n");
        return false;
    }
    o.sceneSeed = uint32_t(n);
    return true;
}

bool parse(int argc, char** argv, Options& o) {
    bench::ArgParser args("frame_bench", argc, argv);
    while (args.next()) {
        const char* v = nullptr;
        const bool ok = args.is("--fp32")                                ? (o.fp32 = true)
                        : args.is("--effect-steps")                      ? (o.effectSteps = true)
                        : args.is("--frames")                            ? args.count(o.frames)
                        : args.is("--warmup")                            ? args.count(o.warmup)
                        : args.is("--scene") || args.is("--scene-seed") ? sceneOption(args, o)
                        : args.is("--tuning")                            ? (v = args.value()) && !(o.tuning = v).empty()
                                                                         : args.common(o.common, usage);
        if (!ok) return false;
    }
    if (!o.scene.empty() && o.sceneSeed != 0) { std::fprintf(stderr, "frame_bench: --scene-seed does not apply to --scene\n"); return false; }
    return true;
}

// Ml: the single-frame x2 network (bridge::MlPass); Taau and MlTemporal: the temporal upscaler
// effect (bridge::EffectUpscaler, jittered frames).
enum class Upscale { Native, Bicubic, Ml, Taau, MlTemporal };
enum class Denoise { Off, Atrous, Ml };

struct Config {
    std::string name;  // "native 3840x2160", "1920x1080 + ml x2 -> 3840x2160"
    std::string pair;  // the output resolution both sides of a comparison share
    Upscale upscale;
    uint32_t outW, outH;
    Denoise denoise = Denoise::Off;  // on: 1-ray stochastic shadows instead of analytic ones
    std::string model = "upscaler_temporal.onnx";  // MlTemporal: the network, a file of the asset directory
};

struct PassTime {
    std::string name;
    double medianMs;
};

struct Result {
    Config config;
    uint32_t renderW = 0, renderH = 0;
    std::string upscaler;  // what ran the x2 step
    std::string denoiser = "none";
    std::vector<PassTime> passes;
    double frameMs = 0;    // the scope around the whole frame
    double passSumMs = 0;  // sum of the per-pass medians
};

std::string res(uint32_t w, uint32_t h) { return std::to_string(w) + "x" + std::to_string(h); }

constexpr uint32_t kFramesInFlight = 2;
// How long a frame may take before it is reported as a hang. Generous for the same reason as the
// headless demo's: on a software device (lavapipe) sharing two loaded CPU cores with other tests,
// a configuration's first frame once took over the engine's default 10 s (CI, frame_bench_smoke).
constexpr uint64_t kFrameTimeoutNs = 10ull * 60 * 1000 * 1000 * 1000;  // 10 minutes
constexpr const char* kFrameScope = "frame";

// The ML x2 upscaler: the shipped network when its file exists, else the reference ESPCN x2.
std::unique_ptr<bridge::MlPass> makeUpscaler(engine::Context& ctx, mlplugin::Device& device, const Options& o, std::string& what) {
    const mlplugin::Capabilities& caps = device.capabilities();
    bool fp16 = !o.fp32 && caps.fp16Storage;
    bridge::MlPassDesc d;
    d.name = "ml_upscale";
    d.dataType = fp16 ? mlplugin::DataType::Float16 : mlplugin::DataType::Float32;
    d.compileFlags = fp16 && caps.fp16Arithmetic ? uint32_t(mlplugin::ExecutionFlagAllowHalfPrecisionComputation) : 0u;
    std::string shipped = o.common.assets + "/upscaler_x2.onnx";
    if (std::filesystem::exists(shipped)) {
        d.onnxPath = shipped;
        d.inputs = {{.name = "color", .channels = {{.image = bridge::FrameImage::Color, .components = "rgb", .encoding = bridge::Encoding::Srgb}}}};
        d.output = {.encoding = bridge::Encoding::Srgb};
        what = "upscaler_x2.onnx";
    } else {
        mlplugin::DataType type = *d.dataType;
        d.buildGraph = [type](uint32_t w, uint32_t h) { return bench::espcn(type, w, h).graph; };
        d.inputs = {{.name = "lowres", .channels = {{.image = bridge::FrameImage::Color, .components = "rgb"}}}};
        what = "reference espcn_x2 (" + shipped + " not found)";
    }
    what += fp16 ? (d.compileFlags ? " fp16-arith" : " fp16") : " fp32";
    return std::make_unique<bridge::MlPass>(ctx, device, std::move(d));
}

// The shipped denoiser (the upscale demo's bindings): sRGB colour, albedo, normal, depth.
std::unique_ptr<bridge::MlPass> makeDenoiser(engine::Context& ctx, mlplugin::Device& device, const Options& o, std::string& what) {
    using bridge::FrameImage;
    const mlplugin::Capabilities& caps = device.capabilities();
    bool fp16 = !o.fp32 && caps.fp16Storage;
    bridge::MlPassDesc d;
    d.name = "ml_denoise";
    d.onnxPath = o.common.assets + "/denoiser.onnx";
    d.dataType = fp16 ? mlplugin::DataType::Float16 : mlplugin::DataType::Float32;
    d.compileFlags = fp16 && caps.fp16Arithmetic ? uint32_t(mlplugin::ExecutionFlagAllowHalfPrecisionComputation) : 0u;
    d.inputs = {{.name = "color", .channels = {{.image = FrameImage::Color, .components = "rgb", .encoding = bridge::Encoding::Srgb}}},
                {.name = "albedo", .channels = {{.image = FrameImage::Albedo, .components = "rgb"}}},
                {.name = "normal", .channels = {{.image = FrameImage::Normal, .components = "xyz"}}},
                {.name = "depth", .channels = {{.image = FrameImage::Depth, .components = "r"}}}};
    d.output = {.encoding = bridge::Encoding::Srgb};
    what = std::string("denoiser.onnx") + (fp16 ? (d.compileFlags ? " fp16-arith" : " fp16") : " fp32");
    return std::make_unique<bridge::MlPass>(ctx, device, std::move(d));
}

Result runConfig(engine::Context& ctx, const Config& c, const Options& o, mlplugin::Device& device, const Content& content) {
    engine::RendererDesc rd;
    rd.scene = content.scene;
    rd.outputWidth = c.outW;
    rd.outputHeight = c.outH;
    rd.renderScale = c.upscale == Upscale::Native ? 1.0f : 0.5f;
    rd.upscale = c.upscale == Upscale::Native ? engine::UpscaleMode::Native : engine::UpscaleMode::Bicubic;
    Result r{c};
    r.upscaler = c.upscale == Upscale::Native ? "none" : "bicubic";
    const bool temporal = c.upscale == Upscale::Taau || c.upscale == Upscale::MlTemporal;
    if (c.denoise != Denoise::Off) {
        rd.shadows = engine::ShadowMode::Stochastic;
        rd.shadowSamples = 1;
    }
    if (c.denoise == Denoise::Atrous) {
        rd.denoise = engine::DenoiseMode::Atrous;
        r.denoiser = "atrous";
    }

    // Destruction order: frames first (it waits for submitted frames), then the renderer and
    // the ML pass whose resources those frames used, then the timer.
    engine::GpuTimer timer(ctx, {.framesInFlight = kFramesInFlight, .maxScopesPerFrame = 128, .window = o.frames});
    std::unique_ptr<bridge::MlPass> ml, mlDenoiser;
    std::unique_ptr<bridge::EffectUpscaler> effect;
    if (c.upscale == Upscale::Ml) ml = makeUpscaler(ctx, device, o, r.upscaler);
    if (temporal) {
        bridge::EffectUpscalerDesc ed;
        ed.mode = c.upscale == Upscale::Taau ? effects::UpscalerMode::Taau : effects::UpscalerMode::MlTemporal;
        if (c.upscale == Upscale::MlTemporal) ed.modelPath = o.common.assets + "/" + c.model;
        ed.preferFp16 = !o.fp32;
        ed.tuning = o.tuningTable;
        ed.timeSteps = o.effectSteps;
        effect = std::make_unique<bridge::EffectUpscaler>(ctx, ed);
        r.upscaler = effects::toString(ed.mode);
    }
    if (c.denoise == Denoise::Ml) mlDenoiser = makeDenoiser(ctx, device, o, r.denoiser);
    engine::Renderer renderer(ctx, rd);
    if (ml) renderer.setUpscaler(ml->upscaler());
    if (effect) renderer.setUpscaler(effect->upscaler());
    if (mlDenoiser) renderer.setDenoiser(mlDenoiser->denoiser());
    engine::Frames frames(ctx, {.framesInFlight = kFramesInFlight, .fenceTimeoutNs = kFrameTimeoutNs});
    renderer.build({.headless = true, .format = VK_FORMAT_UNDEFINED, .channels = 0, .framesInFlight = kFramesInFlight});
    r.renderW = renderer.renderExtent().width;
    r.renderH = renderer.renderExtent().height;
    if (effect && effect->effect()) r.upscaler += effect->effect()->usesFp16() ? " fp16" : (c.upscale == Upscale::MlTemporal ? " fp32" : "");
    const uint32_t phases = engine::jitterPhaseCount(r.renderW, c.outW);
    auto params = [&](uint32_t i) {
        engine::FrameParams p = engine::FrameParams::onPath(content.path, i);
        if (temporal) {  // as upscale_demo renders them
            p.jitterPixels = engine::haltonJitter(i, phases);
            p.textureLodBias = engine::textureLodBiasForUpscale(r.renderW, c.outW);
        }
        return p;
    };

    // Bring the GPU to its boost clock first (idle it starts at a fraction: see GraphSession::time).
    const auto rampStart = std::chrono::steady_clock::now();
    for (uint32_t i = 0; !o.common.smoke && std::chrono::steady_clock::now() - rampStart < std::chrono::milliseconds(250); ++i) {
        engine::Frame& f = frames.beginFrame();
        renderer.record(f.cmd, f.slot, params(i), nullptr);
        frames.endFrame();
    }
    for (uint32_t i = 0; i < o.warmup + o.frames; ++i) {
        engine::Frame& f = frames.beginFrame();
        timer.beginFrame(f.cmd, f.slot);
        timer.beginScope(f.cmd, kFrameScope);
        renderer.record(f.cmd, f.slot, params(i), &timer);
        timer.endScope(f.cmd);
        frames.endFrame();
    }
    frames.waitIdle();
    for (uint32_t s = 0; s < kFramesInFlight; ++s) timer.collect(s);
    for (const engine::GpuTiming& t : timer.timings()) {
        if (t.name == kFrameScope) {
            r.frameMs = t.medianMs;
        } else {
            r.passes.push_back({t.name, t.medianMs});
            if (t.name.find('/') == std::string::npos) r.passSumMs += t.medianMs;  // a step's time is inside its pass's
        }
    }
    return r;
}

void writeJson(const std::string& path, const std::string& device, const std::string& scene, const Options& o, const std::vector<Result>& results) {
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path);
    f << "{\n  \"tool\": \"frame_bench\",\n  \"device\": " << bench::jsonString(device) << ",\n  \"scene\": " << bench::jsonString(scene) << ",\n  \"frames\": " << o.frames << ",\n  \"warmup\": " << o.warmup
      << ",\n  \"smoke\": " << (o.common.smoke ? "true" : "false") << ",\n  \"results\": [\n";
    for (size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        f << "    {\"name\": " << bench::jsonString(r.config.name) << ", \"output\": " << bench::jsonString(res(r.config.outW, r.config.outH))
          << ", \"render\": " << bench::jsonString(res(r.renderW, r.renderH)) << ", \"upscaler\": " << bench::jsonString(r.upscaler)
          << ", \"denoiser\": " << bench::jsonString(r.denoiser)
          << ", \"frame_ms\": " << r.frameMs << ", \"pass_sum_ms\": " << r.passSumMs << ", \"passes\": [";
        for (size_t p = 0; p < r.passes.size(); ++p)
            f << (p ? ", " : "") << "{\"name\": " << bench::jsonString(r.passes[p].name) << ", \"median_ms\": " << r.passes[p].medianMs << "}";
        f << "]}" << (i + 1 < results.size() ? "," : "") << "\n";
    }
    f << "  ]\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    if (!parse(argc, argv, o)) return 2;
    if (o.common.smoke) { o.frames = std::min(o.frames, 3u); o.warmup = std::min(o.warmup, 1u); }
    try {
        engine::Context ctx(bench::contextDesc("frame_bench", o.common));
        if (!ctx.features().timestamps) throw std::runtime_error("the device's queue has no valid timestamps");
        std::unique_ptr<mlplugin::Device> device = bridge::createDevice(ctx, o.common.validation);
        std::printf("device: %s\n", ctx.deviceName().c_str());
        if (!o.tuning.empty()) {
            o.tuningTable = bridge::loadTuningTable(o.tuning);
            device->setTuningTable(o.tuningTable);
            std::printf("tuning table %s: %zu entries\n", o.tuning.c_str(), o.tuningTable->size());
        }
        Content content;
        content.scene = engine::loadScene({.seed = o.sceneSeed, .gltfPath = o.scene});
        for (const std::string& w : content.scene->warnings) std::fprintf(stderr, "frame_bench: warning: glTF '%s': %s\n", o.scene.c_str(), w.c_str());
        content.path = o.scene.empty() ? engine::CameraPath::builtIn(0) : engine::CameraPath::orbitAround(content.scene->boundsMin, content.scene->boundsMax);
        std::printf("scene: %s, camera path: %s\n", content.scene->name.c_str(), content.path.name().c_str());

        struct Out { uint32_t w, h; };
        // The ML denoiser's U-Net halves its input twice: sizes are multiples of 4.
        std::vector<Out> outputs = o.common.smoke ? std::vector<Out>{{64, 32}} : std::vector<Out>{{3840, 2160}, {1920, 1080}};
        std::string denoiserPath = o.common.assets + "/denoiser.onnx";
        bool haveDenoiser = std::filesystem::exists(denoiserPath);
        if (!haveDenoiser) std::printf("skipping the ML denoiser: %s not found\n", denoiserPath.c_str());
        std::string temporalPath = o.common.assets + "/upscaler_temporal.onnx";
        bool haveTemporal = std::filesystem::exists(temporalPath);
        if (!haveTemporal) std::printf("skipping the temporal ML upscaler: %s not found\n", temporalPath.c_str());
        // The performance model (docs/EFFECTS.md, "Shipped models"), where the directory has it.
        const std::string fastModel = "upscaler_temporal_fast.onnx";
        bool haveTemporalFast = std::filesystem::exists(o.common.assets + "/" + fastModel);
        std::vector<Config> configs;
        for (Out out : outputs) {
            std::string pair = res(out.w, out.h), half = res(out.w / 2, out.h / 2);
            configs.push_back({"native " + pair, pair, Upscale::Native, out.w, out.h});
            configs.push_back({half + " + ml x2 -> " + pair, pair, Upscale::Ml, out.w, out.h});
            configs.push_back({half + " + bicubic x2 -> " + pair, pair, Upscale::Bicubic, out.w, out.h});
            configs.push_back({half + " + taau x2 -> " + pair, pair, Upscale::Taau, out.w, out.h});
            if (haveTemporal) configs.push_back({half + " + ml-temporal x2 -> " + pair, pair, Upscale::MlTemporal, out.w, out.h});
            if (haveTemporalFast)
                configs.push_back({half + " + ml-temporal-fast x2 -> " + pair, pair, Upscale::MlTemporal, out.w, out.h, Denoise::Off, fastModel});
            if (haveDenoiser) configs.push_back({"native " + pair + " + ml denoise", pair, Upscale::Native, out.w, out.h, Denoise::Ml});
            configs.push_back({"native " + pair + " + atrous denoise", pair, Upscale::Native, out.w, out.h, Denoise::Atrous});
        }
        std::vector<Result> results;
        for (const Config& c : configs) {
            if (!o.common.filter.empty() && c.name.find(o.common.filter) == std::string::npos) continue;
            Result r = runConfig(ctx, c, o, *device, content);
            std::printf("\n%s (render %s, x2: %s, denoiser: %s): frame %.3f ms (sum of passes %.3f ms)\n", c.name.c_str(),
                        res(r.renderW, r.renderH).c_str(), r.upscaler.c_str(), r.denoiser.c_str(), r.frameMs, r.passSumMs);
            for (const PassTime& p : r.passes) std::printf("    %-36s %9.3f ms\n", p.name.c_str(), p.medianMs);
            std::fflush(stdout);
            results.push_back(std::move(r));
            writeJson(o.common.json, ctx.deviceName(), content.scene->name, o, results);  // a run cut short keeps what it measured
        }
        std::printf("\n%-44s %-10s %10s %10s\n", "configuration", "render", "frame ms", "vs native");
        for (const Result& r : results) {
            double native = 0;
            for (const Result& n : results)
                if (n.config.upscale == Upscale::Native && n.config.denoise == Denoise::Off && n.config.pair == r.config.pair) native = n.frameMs;
            std::printf("%-44s %-10s %10.3f %9.2fx\n", r.config.name.c_str(), res(r.renderW, r.renderH).c_str(), r.frameMs,
                        r.frameMs > 0 && native > 0 ? native / r.frameMs : 0.0);
        }
        writeJson(o.common.json, ctx.deviceName(), content.scene->name, o, results);
        std::printf("wrote %s (%zu configurations, median of %u frames after %u warm-up)\n", o.common.json.c_str(), results.size(), o.frames, o.warmup);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "frame_bench: %s\n", e.what());
        return 1;
    }
}
