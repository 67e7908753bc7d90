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
};

// Throws engine::Error when the file cannot be written.
void writeReport(const std::string& path, const Options& options, const RunInfo& info,
                 const std::vector<engine::GpuTiming>& timings);

}  // namespace demo
