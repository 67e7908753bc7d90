#include "options.h"

#include "bridge/graph_tuning.h"
#include "engine/camera.h"
#include "engine/error.h"

#include <charconv>
#include <cstdio>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

namespace demo {
namespace {

uint32_t parseUint(const std::string& flag, const std::string& v, uint32_t lo, uint32_t hi) {
    uint32_t out = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec == std::errc::invalid_argument || end != v.data() + v.size())
        throw UsageError(flag + ": '" + v + "' is not a non-negative integer");
    if (ec == std::errc::result_out_of_range || out < lo || out > hi)
        throw UsageError(flag + ": " + v + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return out;
}

// "0.1", "1000": the bounds as a user would type them.
std::string shortNumber(float v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", double(v));
    return text;
}

float parseFloat(const std::string& flag, const std::string& v, float lo, float hi) {
    float out = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(out))
        throw UsageError(flag + ": '" + v + "' is not a number");
    if (out < lo || out > hi) throw UsageError(flag + ": " + v + " is out of range [" + shortNumber(lo) + ", " + shortNumber(hi) + "]");
    return out;
}

engine::UpscaleMode parseMode(const std::string& v) {
    if (v == "native") return engine::UpscaleMode::Native;
    if (v == "bilinear") return engine::UpscaleMode::Bilinear;
    if (v == "bicubic") return engine::UpscaleMode::Bicubic;
    throw UsageError("--mode: '" + v + "' is not one of native, bilinear, bicubic, ml, taau, ml-temporal");
}

void parseDenoise(const std::string& v, Options& o) {
    o.mlDenoise = v == "ml";
    if (v == "off" || o.mlDenoise) o.denoise = engine::DenoiseMode::Off;  // ml: MlPass replaces the built-in filter
    else if (v == "atrous") o.denoise = engine::DenoiseMode::Atrous;
    else throw UsageError("--denoise: '" + v + "' is not one of off, atrous, ml");
}

engine::ShadowMode parseShadows(const std::string& v) {
    if (v == "off") return engine::ShadowMode::Off;
    if (v == "analytic") return engine::ShadowMode::Analytic;
    if (v == "stochastic") return engine::ShadowMode::Stochastic;
    throw UsageError("--shadows: '" + v + "' is not one of off, analytic, stochastic");
}

uint32_t parsePath(const std::string& v) {
    uint32_t byName = engine::cameraPathIndex(v);
    if (byName != UINT32_MAX) return byName;
    if (!v.empty() && std::isdigit(static_cast<unsigned char>(v[0])))
        return parseUint("--path", v, 0, engine::cameraPathCount() - 1);
    throw UsageError("--path: '" + v + "' is neither a path index nor a path name (see --list-paths)");
}

uint32_t parseChannels(const std::string& v) {
    static const engine::Channel all[] = {engine::Channel::Color, engine::Channel::Depth, engine::Channel::Normal,
                                          engine::Channel::Albedo, engine::Channel::Motion,
                                          engine::Channel::SunVisibility, engine::Channel::Output};
    uint32_t bits = 0;
    size_t start = 0;
    while (start <= v.size()) {
        size_t comma = v.find(',', start);
        std::string name = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        bool found = false;
        for (engine::Channel c : all)
            if (name == engine::toString(c)) bits |= uint32_t(c), found = true;
        if (!found)
            throw UsageError("--channels: '" + name + "' is not one of color, depth, normal, albedo, motion, sun_visibility, output");
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return bits;
}

}  // namespace

std::string usage() {
    return R"(upscale_demo: renders the procedural demo scene (or a glTF scene) and upscales it to the output resolution.

Usage: upscale_demo [options]
  --headless              render offscreen and write PNG frames + report.json to --out
  --frames N              frames to render (headless default 1; windowed default: until closed)
  --width W, --height H   output resolution, 16..16384 (default 1280x720)
  --render-scale S        render resolution = output * S, 0.1..2 (default 0.5; native ignores it;
                          2 with bilinear = 2x2 supersampled reference)
  --mode M                output stage: native | bilinear | bicubic | ml | taau | ml-temporal
                          (default bilinear). ml: the single-frame ONNX upscaler of --model
                          through bridge::MlPass; taau: the hand-written temporal upscaler;
                          ml-temporal: the temporal network (--temporal-model). The temporal modes
                          jitter the projection (Halton 2,3; 8 x ratio^2 phases)
  --temporal-model FILE   ml-temporal: ONNX model (default: upscaler_temporal.onnx of the model directory)
  --sharpness S           taau, ml-temporal: contrast-adaptive sharpening 0..1 (default 0)
  --supersample N         native: each frame is the average of N jittered renders at the output
                          resolution, 1..1024 (default 1): the anti-aliased reference
                          (with --channels output also written as float output_NNNNN.npy)
  --model FILE            ml: ONNX upscaler, input 'color' [1,3,H,W] sRGB, output [1,3,2H,2W] sRGB
                          (default: upscaler_x2.onnx of the model directory, see below)
  --denoise D             off | atrous | ml (default off): a-trous wavelet filter, or the ONNX
                          denoiser of --denoise-model through bridge::MlPass, before the output stage
  --denoise-model FILE    ml denoiser: inputs color/albedo/normal/depth, output colour, sRGB
                          (default: denoiser.onnx of the model directory)
  --ml-precision P        auto | fp32 | fp16: the ML networks' tensors (default auto: fp16 with
                          fp16 arithmetic where the device has it, else fp32; the temporal
                          network: fp32, or fp16 where the device has it)
  --scene FILE            draw a glTF 2.0 scene (.gltf or .glb) instead of the procedural one; lit by the
                          engine's sun and sky, without shadows; unsupported features are warnings
  --scene-seed N          procedural scene variation, 0..4294967295 (default 0: the classic scene)
  --path K                camera path index or name (see --list-paths; default 0; with --scene the
                          default is an automatic orbit around the scene's bounds)
  --camera-path FILE      camera keyframes from a JSON file (docs/RENDERER.md) instead of --path
  --time T                start time in seconds along the path (default 0)
  --fps F                 path time step per frame (default 30)
  --shadows S             off | analytic | stochastic (default analytic)
  --shadow-samples N      rays per pixel for stochastic shadows, 1..65536 (default 1)
  --no-lighting           write albedo instead of lit colour
  --channels LIST         headless: also write float .npy of color,depth,normal,albedo,motion,sun_visibility,output
  --out DIR               output directory (headless; default upscale_out)
  --no-images             headless: write report.json only (timing runs)
  --progress S            headless: a progress line (frames done, time per frame, time left) at
                          most every S seconds, 0..86400 (default 10; 0: every frame); off: none
  --device INDEX          Vulkan physical device index
  --pipeline-cache FILE   ml modes: restore the plugin's pipeline cache from FILE (when it fits this
                          GPU and driver) and save it there once the networks are compiled
  --tuning FILE           ml modes: measured kernel choices for every network (write the file on this
                          GPU with mlrun MODEL.onnx --tuning FILE, once per model); default: the
                          plugin's fixed heuristics
  --validation            enable the Khronos validation layer (+ synchronization validation)
  --write-golden FILE     render the golden-test frame (96x64, native, path 0, t=2) to FILE
  --resize-test           windowed: resize the window during the run (smoke test)
  --cycle-modes           windowed: switch modes, denoiser, split view, zoom and overlay on a fixed
                          frame schedule (smoke test; keys do the same interactively)
  --simulate-device-loss N  make the device report VK_ERROR_DEVICE_LOST at frame N: the demo
                          recreates the device and every resource and goes on (headless: with
                          the next frame; report.json lists the loss)
  --device-memory-budget MIB  fail device allocations beyond MIB MiB with
                          VK_ERROR_OUT_OF_DEVICE_MEMORY, as a full GPU would (exit status 4)
  --soak N                headless: a new output configuration every N frames along a fixed
                          cycle (resizes; native/bilinear/bicubic/ml/taau upscale; denoise
                          off/atrous/ml; a model reload per cycle), memory sampled per cycle;
                          writes soak.json to --out and fails (status 5) on a memory slope
                          above the limits or any validation message
  --soak-device-loss      with --soak: also lose (and recover) the device once per cycle
  --soak-max-rss-slope B  with --soak: the resident-memory growth allowed, bytes per 1000 frames
                          (default 65536; none: reported, not limited)
  --soak-max-device-slope B  with --soak: the device-memory growth allowed (default 0)
  --list-paths            print the camera paths and exit
  --help                  this text

Models: $VKML_MODEL_DIR when set, else ../share/vkml/models next to this executable (installed:
<prefix>/share/vkml/models; build tree: build/demos/share/vkml/models, links to assets/).
)";
}

Options parseOptions(const std::vector<std::string>& args) {
    Options o;
    bool scaleGiven = false, seedGiven = false;
    using Handler = std::function<void(const std::string&)>;
    const std::map<std::string, Handler> withValue = {
        {"--frames", [&](const std::string& v) { o.frames = parseUint("--frames", v, 1, 1000000); }},
        {"--width", [&](const std::string& v) { o.width = parseUint("--width", v, engine::kMinResolution, engine::kMaxResolution); }},
        {"--height", [&](const std::string& v) { o.height = parseUint("--height", v, engine::kMinResolution, engine::kMaxResolution); }},
        {"--render-scale", [&](const std::string& v) { o.renderScale = parseFloat("--render-scale", v, 0.1f, 2.0f); scaleGiven = true; }},
        {"--mode", [&](const std::string& v) {
             o.ml = v == "ml";
             o.taau = v == "taau";
             o.mlTemporal = v == "ml-temporal";
             // ml and the temporal modes replace the resampling stage; any resampling mode will do
             o.mode = o.ml || o.taau || o.mlTemporal ? engine::UpscaleMode::Bilinear : parseMode(v);
         }},
        {"--temporal-model", [&](const std::string& v) { if (v.empty()) throw UsageError("--temporal-model: empty file name"); o.temporalModel = v; }},
        {"--sharpness", [&](const std::string& v) { o.sharpness = parseFloat("--sharpness", v, 0.0f, 1.0f); }},
        {"--supersample", [&](const std::string& v) { o.supersample = parseUint("--supersample", v, 1, 1024); }},
        {"--model", [&](const std::string& v) { if (v.empty()) throw UsageError("--model: empty file name"); o.model = v; }},
        {"--denoise", [&](const std::string& v) { parseDenoise(v, o); }},
        {"--denoise-model", [&](const std::string& v) { if (v.empty()) throw UsageError("--denoise-model: empty file name"); o.denoiseModel = v; }},
        {"--ml-precision", [&](const std::string& v) {
             if (v == "auto") o.mlPrecision.reset();
             else if (v == "fp32") o.mlPrecision = mlplugin::DataType::Float32;
             else if (v == "fp16") o.mlPrecision = mlplugin::DataType::Float16;
             else throw UsageError("--ml-precision: expected auto, fp32 or fp16, not '" + v + "'");
         }},
        {"--simulate-device-loss", [&](const std::string& v) { o.simulateDeviceLoss = parseUint("--simulate-device-loss", v, 0, 1000000); }},
        {"--path", [&](const std::string& v) { o.path = parsePath(v); o.pathGiven = true; }},
        {"--camera-path", [&](const std::string& v) { if (v.empty()) throw UsageError("--camera-path: empty file name"); o.cameraPath = v; }},
        {"--scene", [&](const std::string& v) { if (v.empty()) throw UsageError("--scene: empty file name"); o.scene = v; }},
        {"--scene-seed", [&](const std::string& v) { o.sceneSeed = parseUint("--scene-seed", v, 0, UINT32_MAX); seedGiven = true; }},
        {"--time", [&](const std::string& v) { o.startTime = parseFloat("--time", v, -1e6f, 1e6f); }},
        {"--fps", [&](const std::string& v) { o.fps = parseFloat("--fps", v, 1.0f, 1000.0f); }},
        {"--progress", [&](const std::string& v) {
             o.progressSeconds = v == "off" ? std::nullopt : std::optional<double>(parseFloat("--progress", v, 0.0f, 86400.0f));
         }},
        {"--shadows", [&](const std::string& v) { o.shadows = parseShadows(v); }},
        {"--shadow-samples", [&](const std::string& v) { o.shadowSamples = parseUint("--shadow-samples", v, 1, 65536); }},
        {"--channels", [&](const std::string& v) { o.channels = parseChannels(v); }},
        {"--out", [&](const std::string& v) { if (v.empty()) throw UsageError("--out: empty directory name"); o.outDir = v; }},
        {"--device", [&](const std::string& v) { o.device = parseUint("--device", v, 0, 63); }},
        {"--pipeline-cache", [&](const std::string& v) { if (v.empty()) throw UsageError("--pipeline-cache: empty file name"); o.pipelineCache = v; }},
        {"--tuning", [&](const std::string& v) {
             if (v.empty()) throw UsageError("--tuning: empty file name");
             try {
                 o.tuning = bridge::loadTuningTable(v);
             } catch (const engine::Error& e) {
                 throw UsageError(std::string("--tuning: ") + e.what());
             }
         }},
        {"--device-memory-budget", [&](const std::string& v) { o.deviceMemoryBudgetMiB = parseUint("--device-memory-budget", v, 1, 1u << 24); }},
        {"--soak", [&](const std::string& v) { o.soakStepFrames = parseUint("--soak", v, 1, 1000000); }},
        {"--soak-max-rss-slope", [&](const std::string& v) {
             o.soakMaxRssSlope = v == "none" ? std::numeric_limits<double>::infinity() : parseFloat("--soak-max-rss-slope", v, 0.0f, 1e12f);
         }},
        {"--soak-max-device-slope", [&](const std::string& v) { o.soakMaxDeviceSlope = parseFloat("--soak-max-device-slope", v, 0.0f, 1e12f); }},
        {"--write-golden", [&](const std::string& v) { if (v.empty()) throw UsageError("--write-golden: empty file name"); o.writeGolden = v; }},
    };
    const std::map<std::string, std::function<void()>> flags = {
        {"--help", [&] { o.help = true; }},
        {"-h", [&] { o.help = true; }},
        {"--list-paths", [&] { o.listPaths = true; }},
        {"--headless", [&] { o.headless = true; }},
        {"--no-lighting", [&] { o.lighting = false; }},
        {"--validation", [&] { o.validation = true; }},
        {"--resize-test", [&] { o.resizeTest = true; }},
        {"--cycle-modes", [&] { o.cycleModes = true; }},
        {"--no-images", [&] { o.writeImages = false; }},
        {"--soak-device-loss", [&] { o.soakDeviceLoss = true; }},
    };
    for (size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i], value;
        bool inlineValue = false;
        if (size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
            inlineValue = true;
        }
        if (auto f = flags.find(arg); f != flags.end()) {
            if (inlineValue) throw UsageError(arg + " takes no value");
            f->second();
        } else if (auto h = withValue.find(arg); h != withValue.end()) {
            if (!inlineValue) {
                if (i + 1 >= args.size()) throw UsageError(arg + " needs a value");
                value = args[++i];
            }
            h->second(value);
        } else {
            throw UsageError("unknown option '" + args[i] + "' (see --help)");
        }
    }
    if (o.mode == engine::UpscaleMode::Native && !scaleGiven) o.renderScale = 1.0f;
    if (o.headless && o.frames == 0) o.frames = 1;
    if (!o.denoiseModel.empty() && !o.mlDenoise) throw UsageError("--denoise-model needs --denoise ml");
    if (o.cycleModes && o.headless) throw UsageError("--cycle-modes is for the windowed demo (drop --headless)");
    if (!o.model.empty() && !o.ml) throw UsageError("--model needs --mode ml");
    if (!o.temporalModel.empty() && !o.mlTemporal) throw UsageError("--temporal-model needs --mode ml-temporal");
    if (o.sharpness > 0.0f && !o.taau && !o.mlTemporal) throw UsageError("--sharpness needs --mode taau or ml-temporal");
    if (o.supersample > 1 && (o.mode != engine::UpscaleMode::Native || o.ml || o.taau || o.mlTemporal))
        throw UsageError("--supersample needs --mode native (it renders the reference at the output resolution)");
    if (o.supersample > 1 && !o.headless) throw UsageError("--supersample is for the headless demo (add --headless)");
    if (o.shadowSamples > 1 && o.shadows != engine::ShadowMode::Stochastic)
        throw UsageError("--shadow-samples needs --shadows stochastic");
    if (seedGiven && !o.scene.empty()) throw UsageError("--scene-seed varies the procedural scene; it does not apply to --scene");
    if (o.pathGiven && !o.cameraPath.empty()) throw UsageError("--path and --camera-path both choose the camera: give one");
    if (!o.writeGolden.empty() && (!o.scene.empty() || seedGiven || !o.cameraPath.empty() || o.pathGiven))
        throw UsageError("--write-golden renders the fixed golden frame: drop --scene, --scene-seed, --path and --camera-path");
    if (o.simulateDeviceLoss && o.supersample > 1)
        throw UsageError("--simulate-device-loss is not supported with --supersample (a reference run is not recovered from a loss)");
    if (o.soakStepFrames) {
        if (!o.headless) throw UsageError("--soak is for the headless demo (add --headless)");
        if (o.renderScale != 0.5f) throw UsageError("--soak needs --render-scale 0.5 (its cycle runs the x2 ML upscaler)");
    } else if (o.soakDeviceLoss || o.soakMaxRssSlope || o.soakMaxDeviceSlope) {  // optionals: given or not
        throw UsageError("--soak-device-loss and --soak-max-*-slope need --soak N");
    }
    return o;
}

const char* denoiseName(const Options& o) { return o.mlDenoise ? "ml" : engine::toString(o.denoise); }

const char* modeName(const Options& o) {
    if (o.taau) return "taau";
    if (o.mlTemporal) return "ml-temporal";
    return o.ml ? "ml" : engine::toString(o.mode);
}

bool temporal(const Options& o) { return o.taau || o.mlTemporal; }

}  // namespace demo
