#pragma once
// upscale_demo command line: parsed into Options, or a UsageError naming the bad argument.
#include "engine/renderer.h"
#include "mlplugin/tensor_desc.h"
#include "mlplugin/tuning.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace demo {

struct Options {
    bool help = false;
    bool listPaths = false;
    bool headless = false;
    uint32_t frames = 0;  // 0: windowed runs until closed; headless defaults to 1
    uint32_t width = 1280;
    uint32_t height = 720;
    float renderScale = 0.5f;
    engine::UpscaleMode mode = engine::UpscaleMode::Bilinear;
    bool ml = false;     // --mode ml: bridge::MlPass with `model` as the renderer's upscaler (headless)
    std::string model;   // ONNX upscaler; empty: upscaler_x2.onnx of the model directory (main.cpp resolves it)
    // --mode taau | ml-temporal: the effects::Upscaler through bridge::EffectUpscaler, with a
    // Halton(2,3) jitter on the render-resolution projection.
    bool taau = false;
    bool mlTemporal = false;
    std::string temporalModel;  // ml-temporal; empty: upscaler_temporal.onnx of the model directory (main.cpp)
    float sharpness = 0.0f;     // temporal modes: RCAS-style sharpening 0..1
    uint32_t supersample = 1;   // --mode native: average of N jittered renders per frame (the reference)
    engine::DenoiseMode denoise = engine::DenoiseMode::Off;
    bool mlDenoise = false;  // --denoise ml: bridge::MlPass with `denoiseModel` as the renderer's denoiser
    std::string denoiseModel;  // empty: denoiser.onnx of the model directory (main.cpp resolves it)
    std::optional<mlplugin::DataType> mlPrecision;  // --ml-precision; unset: bridge::MlPass's default (fp16 where the device has it)
    engine::ShadowMode shadows = engine::ShadowMode::Analytic;
    uint32_t shadowSamples = 1;
    bool lighting = true;
    uint32_t path = 0;
    bool pathGiven = false;    // --path on the command line (a glTF scene otherwise orbits automatically)
    std::string cameraPath;    // --camera-path: a keyframe JSON file (replaces --path)
    std::string scene;         // --scene: a glTF file (.gltf/.glb); empty: the procedural scene
    uint32_t sceneSeed = 0;    // --scene-seed: the procedural scene's seed (0: the classic scene)
    float startTime = 0.0f;
    float fps = 30.0f;
    std::optional<uint32_t> device;
    bool validation = false;
    std::string pipelineCache;  // file the ML passes' pipeline cache is restored from and saved to
    std::shared_ptr<const mlplugin::TuningTable> tuning;  // --tuning: measured kernel choices of every ML network
    std::string outDir = "upscale_out";
    std::optional<double> progressSeconds = 10.0;  // headless: a progress line at most this often; nullopt: none
    uint32_t channels = 0;  // engine::Channel bits written as .npy
    bool writeImages = true;  // false: timing runs write report.json only
    std::string writeGolden;  // path: render the golden frame (golden.h) and write it as PNG
    bool resizeTest = false;
    bool cycleModes = false;  // windowed: switch modes, split view, zoom, overlay on a frame schedule
    // Frame at which the context is made to report VK_ERROR_DEVICE_LOST
    // (Context::simulateDeviceLoss); the demo recovers as from a real loss.
    std::optional<uint32_t> simulateDeviceLoss;
    uint32_t deviceMemoryBudgetMiB = 0;  // ContextDesc::deviceMemoryBudgetBytes in MiB; 0: none
    // Headless soak (soak.h): a new output configuration every soakStepFrames frames.
    uint32_t soakStepFrames = 0;
    bool soakDeviceLoss = false;            // also lose the device once per soak cycle
    // Growth allowed, bytes per 1000 frames (unset: soak.h's defaults); exceeded: the run fails.
    std::optional<double> soakMaxRssSlope;
    std::optional<double> soakMaxDeviceSlope;  // device memory (the engine's accounting)
};

class UsageError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws UsageError with a sentence naming the offending flag or value.
Options parseOptions(const std::vector<std::string>& args);
std::string usage();
// "native", "bilinear", "bicubic" or "ml" (reports and messages).
const char* modeName(const Options& o);
const char* denoiseName(const Options& o);  // "off", "atrous" or "ml"
bool temporal(const Options& o);  // taau or ml-temporal: jittered frames, an effects::Upscaler

}  // namespace demo
