#include "overlay.h"

#include <algorithm>
#include <cstdio>

namespace demo {

void FrameClock::tick() {
    auto now = std::chrono::steady_clock::now();
    if (last_ != std::chrono::steady_clock::time_point{}) {
        double ms = std::chrono::duration<double, std::milli>(now - last_).count();
        if (ring_.size() < 64) ring_.push_back(ms);
        else ring_[next_++ % ring_.size()] = ms;
    }
    last_ = now;
}

double FrameClock::medianMs() const {
    if (ring_.empty()) return 0.0;
    std::vector<double> v = ring_;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

std::vector<std::string> overlayLines(const OverlayInfo& info, const std::vector<engine::GpuTiming>& timings,
                                      const std::vector<std::string>& passes) {
    char line[128];
    std::vector<std::string> lines;
    std::snprintf(line, sizeof line, "%s  denoise %s", info.mode.c_str(), info.denoise.c_str());
    lines.push_back(line);
    std::snprintf(line, sizeof line, "%ux%u -> %ux%u", info.renderWidth, info.renderHeight, info.outputWidth, info.outputHeight);
    lines.push_back(line);
    if (!info.split.empty()) lines.push_back("split " + info.split);
    std::snprintf(line, sizeof line, "frame %.2f ms (%.0f fps)", info.frameMs, info.frameMs > 0 ? 1000.0 / info.frameMs : 0.0);
    lines.push_back(line);
    // The timer keeps every name it has seen: show the passes of the current graph only.
    double sum = 0;
    for (const std::string& pass : passes) {
        auto t = std::find_if(timings.begin(), timings.end(), [&](const engine::GpuTiming& g) { return g.name == pass; });
        if (t == timings.end() || t->samples == 0) continue;
        std::snprintf(line, sizeof line, "%-22.22s %8.3f ms", pass.c_str(), t->medianMs);
        lines.push_back(line);
        sum += t->medianMs;
    }
    std::snprintf(line, sizeof line, "%-22s %8.3f ms", "gpu total", sum);
    lines.push_back(line);
    lines.push_back("1-4 mode D denoise S split Tab B");
    lines.push_back("Z zoom O overlay Esc quit");
    return lines;
}

}  // namespace demo
