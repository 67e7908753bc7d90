#pragma once
// report.json: what was rendered, where, and how long each pass took on the GPU.
#include "engine/gpu_timer.h"
#include "options.h"

#include <string>
#include <vector>

namespace demo {

// A device loss the headless demo recovered from (or did not).
struct DeviceLoss {
    uint64_t frame = 0;              // the frame that saw the loss
    std::vector<uint64_t> lostFrames;  // frames whose output the loss took (in flight, or that frame)
    bool recovered = false;
    bool simulated = false;          // --simulate-device-loss / the soak's losses
    double seconds = 0;              // tearing down + recreating the device and every resource
};

struct RunInfo {
    std::string deviceName;
    uint32_t renderWidth = 0, renderHeight = 0;
    uint32_t outputWidth = 0, outputHeight = 0;
    uint32_t framesRendered = 0;
    bool timestamps = false;
    std::string scene;       // "procedural seed N" or the glTF file
    std::string cameraPath;  // built-in name, keyframe file's name, or "auto_orbit"
    std::vector<DeviceLoss> deviceLosses;
    uint64_t deviceMemoryPeak = 0;    // bytes (Context::memoryStats of the last device)
    uint64_t deviceMemoryBudget = 0;  // bytes; 0: none
};

// Throws engine::Error (IoError) when the file cannot be written.
void writeReport(const std::string& path, const Options& options, const RunInfo& info,
                 const std::vector<engine::GpuTiming>& timings);
// Writes `text` to `path`; throws engine::Error (IoError) naming the file when it cannot.
void writeTextFile(const std::string& path, const std::string& text);

// `s` as a JSON string literal.
std::string jsonString(const std::string& s);

}  // namespace demo
