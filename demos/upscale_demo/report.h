#pragma once
// report.json: what was rendered, where, and how long each pass took on the GPU.
#include "engine/gpu_timer.h"
#include "options.h"

#include <string>
#include <vector>

namespace demo {

struct RunInfo {
    std::string deviceName;
    uint32_t renderWidth = 0, renderHeight = 0;
    uint32_t outputWidth = 0, outputHeight = 0;
    uint32_t framesRendered = 0;
    bool timestamps = false;
    std::string scene;       // "procedural seed N" or the glTF file
    std::string cameraPath;  // built-in name, keyframe file's name, or "auto_orbit"
};

// Throws engine::Error when the file cannot be written.
void writeReport(const std::string& path, const Options& options, const RunInfo& info,
                 const std::vector<engine::GpuTiming>& timings);

}  // namespace demo
