#pragma once
// The headless soak (upscale_demo --headless --soak N): the demo cycles through a fixed list of
// output configurations, N frames each — resizes, the upscale modes (native, bilinear,
// bicubic, ml, taau), every denoiser (off, atrous, ml), a model reload per cycle and, with
// --soak-device-loss, a device loss and recovery per cycle — and samples memory at the end of
// every cycle's first step. That step always has the same configuration, so growth between
// samples is a leak, not the difference between configurations. The samples after a warm-up
// give robust slopes (bytes per 1000 frames) that must stay under the limits, and no
// validation message may appear. tools/soak.sh runs it; docs/RELIABILITY.md has the figures.
#include "engine/renderer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace demo {

// What the output stage runs (the demo's --mode/--denoise, or one step of the soak cycle).
struct OutputConfig {
    uint32_t width = 0, height = 0;  // output resolution
    engine::UpscaleMode mode = engine::UpscaleMode::Bilinear;  // built-in filter when none of the three below
    bool ml = false;                                           // the single-frame ONNX upscaler (MlPass)
    bool taau = false, mlTemporal = false;                     // the temporal upscalers (EffectUpscaler)
    engine::DenoiseMode denoise = engine::DenoiseMode::Off;    // built-in denoiser when !mlDenoise
    bool mlDenoise = false;                                    // the ONNX denoiser
    bool reloadModels = false;  // soak: the step starts by loading the ONNX models again
    bool loseDevice = false;    // soak: the device is lost in the middle of the step
    bool replacesFilter() const { return ml || taau || mlTemporal; }  // a pass instead of the built-in filter
    const char* upscaleName() const;  // "native", "bilinear", "bicubic", "ml", "taau", "ml-temporal"
    std::string describe() const;     // "64x48 ml, denoise atrous"
};

// The soak cycle for a base output size, which is rounded down to a multiple of 8 (the ML
// denoiser needs render extents that are multiples of 4 at render scale 0.5). Step 0 is the
// base size, bilinear, no denoiser: the sampled configuration.
std::vector<OutputConfig> soakCycle(uint32_t width, uint32_t height, bool loseDevice);

// How many configuration changes of each kind one pass through `cycle` (back to step 0) makes.
struct SoakEvents {
    uint64_t resizes = 0, modeSwitches = 0, denoiseSwitches = 0, modelReloads = 0, deviceLosses = 0;
};
SoakEvents cycleEvents(const std::vector<OutputConfig>& cycle);
// Adds what going from `from` to `to` changes (a device loss counts when `to` has one).
void countChange(SoakEvents& events, const OutputConfig& from, const OutputConfig& to);

struct MemorySample {
    uint64_t frame = 0;
    double residentBytes = 0;  // process RSS
    double deviceBytes = 0;    // Context::memoryStats().inUse (the engine's accounting)
    double driverBytes = 0;    // VK_EXT_memory_budget heap usage (see SoakRun::driverUsage)
};

// Robust (Theil-Sen: median pairwise) slope of `value` over `frame`, in units per 1000 frames
// (0 for < 2 samples).
double slopePer1000Frames(const std::vector<MemorySample>& samples, double MemorySample::*value);

struct SoakLimits {
    double residentSlope = 65536;  // bytes per 1000 frames; infinity: reported, not limited
    double deviceSlope = 0;
};

struct SoakVerdict {
    size_t warmupSamples = 0;  // left out of the slopes (caches and pools filling)
    double residentSlope = 0, deviceSlope = 0, driverSlope = 0;
    bool pass = false;
    std::vector<std::string> failures;  // sentences naming the number and the limit
};

// Slopes over the samples after the warm-up (the first fifth, at least one sample); the resident
// slope is the smaller of the two halves' slopes (with 6 or more samples), so that one step of
// the resident set is not taken for a leak. Fails on a slope above its limit, any validation
// message, or fewer than 3 samples after the warm-up.
SoakVerdict judgeSoak(const std::vector<MemorySample>& samples, uint64_t validationMessages, const SoakLimits& limits);

struct SoakRun {
    uint64_t frames = 0;
    uint32_t stepFrames = 0;
    std::vector<OutputConfig> cycle;
    SoakEvents events;  // made during the run
    double seconds = 0;
    bool validation = false;
    bool driverUsage = false;  // the device has VK_EXT_memory_budget: driverBytes are real
    uint64_t validationMessages = 0;
    std::vector<MemorySample> samples;
    SoakLimits limits;
};

// soak.json: the run, every sample, the slopes and the verdict.
std::string soakJson(const SoakRun& run, const SoakVerdict& verdict);

// The process's resident set size in bytes (/proc/self/statm).
uint64_t residentBytes();

}  // namespace demo
