#include "report.h"

#include "engine/camera.h"
#include "engine/error.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace demo {
namespace {

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else out += c;
    }
    return out + "\"";
}

}  // namespace

void writeReport(const std::string& path, const Options& o, const RunInfo& info, const std::vector<engine::GpuTiming>& timings) {
    std::ostringstream j;
    j << "{\n";
    j << "  \"device\": " << quoted(info.deviceName) << ",\n";
    j << "  \"mode\": " << quoted(modeName(o)) << ",\n";
    j << "  \"denoise\": " << quoted(denoiseName(o)) << ",\n";
    j << "  \"render_scale\": " << (o.mode == engine::UpscaleMode::Native ? 1.0f : o.renderScale) << ",\n";
    j << "  \"render_resolution\": [" << info.renderWidth << ", " << info.renderHeight << "],\n";
    j << "  \"output_resolution\": [" << info.outputWidth << ", " << info.outputHeight << "],\n";
    j << "  \"scene\": " << quoted(info.scene) << ",\n";
    j << "  \"camera_path\": " << quoted(info.cameraPath) << ",\n";
    j << "  \"start_time\": " << o.startTime << ",\n";
    j << "  \"fps\": " << o.fps << ",\n";
    j << "  \"frames\": " << info.framesRendered << ",\n";
    j << "  \"shadows\": " << quoted(engine::toString(o.shadows)) << ",\n";
    j << "  \"shadow_samples\": " << o.shadowSamples << ",\n";
    j << "  \"validation\": " << (o.validation ? "true" : "false") << ",\n";
    j << "  \"gpu_timestamps\": " << (info.timestamps ? "true" : "false") << ",\n";
    j << "  \"passes\": [";
    double total = 0;
    for (size_t i = 0; i < timings.size(); ++i) {
        const auto& t = timings[i];
        total += t.medianMs;
        j << (i ? ",\n" : "\n") << "    {\"name\": " << quoted(t.name) << ", \"median_ms\": " << t.medianMs
          << ", \"last_ms\": " << t.lastMs << ", \"samples\": " << t.samples << "}";
    }
    j << (timings.empty() ? "" : "\n  ") << "],\n";
    j << "  \"sum_of_pass_medians_ms\": " << total << "\n";
    j << "}\n";
    std::ofstream f(path);
    if (!(f << j.str())) throw engine::Error("cannot write report '" + path + "'");
}

}  // namespace demo
