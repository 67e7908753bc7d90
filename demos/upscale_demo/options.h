#pragma once
// upscale_demo command line: parsed into Options, or a UsageError naming the bad argument.
#include "engine/renderer.h"

#include <cstdint>
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
    std::string model;   // ONNX upscaler; empty: VKML_DEFAULT_UPSCALER_MODEL (assets/upscaler_x2.onnx in the source tree)
    // --mode taau | ml-temporal: the effects::Upscaler through bridge::EffectUpscaler, with a
    // Halton(2,3) jitter on the render-resolution projection.
    bool taau = false;
    bool mlTemporal = false;
    std::string temporalModel;  // ml-temporal; empty: assets/upscaler_temporal.onnx
    float sharpness = 0.0f;     // temporal modes: RCAS-style sharpening 0..1
    uint32_t supersample = 1;   // --mode native: average of N jittered renders per frame (the reference)
    engine::DenoiseMode denoise = engine::DenoiseMode::Off;
    bool mlDenoise = false;  // --denoise ml: bridge::MlPass with `denoiseModel` as the renderer's denoiser
    std::string denoiseModel;  // empty: VKML_DEFAULT_DENOISER_MODEL (assets/denoiser.onnx in the source tree)
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
    std::string outDir = "upscale_out";
    uint32_t channels = 0;  // engine::Channel bits written as .npy
    bool writeImages = true;  // false: timing runs write report.json only
    std::string writeGolden;  // path: render the golden frame (golden.h) and write it as PNG
    bool resizeTest = false;
    bool cycleModes = false;
    std::optional<uint32_t> simulateDeviceLoss;  // frame at which to act as if VK_ERROR_DEVICE_LOST was returned  // windowed: switch modes, split view, zoom, overlay on a frame schedule
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
bool temporal(const Options& o);  // taau or ml-temporal: jittered frames, an effects::Upscaler

}  // namespace demo
