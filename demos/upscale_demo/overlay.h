#pragma once
// The overlay's text: modes, resolutions, frame time and the GPU time of every pass of the
// current frame graph (GpuTimer medians).
#include "engine/gpu_timer.h"

#include <chrono>
#include <string>
#include <vector>

namespace demo {

// Median CPU frame time (present to present) over the last frames.
class FrameClock {
public:
    void tick();
    double medianMs() const;

private:
    std::chrono::steady_clock::time_point last_{};
    std::vector<double> ring_;
    size_t next_ = 0;
};

struct OverlayInfo {
    std::string mode, denoise, split;  // split: "" when off
    uint32_t renderWidth = 0, renderHeight = 0, outputWidth = 0, outputHeight = 0;
    double frameMs = 0;
};

std::vector<std::string> overlayLines(const OverlayInfo& info, const std::vector<engine::GpuTiming>& timings,
                                      const std::vector<std::string>& passes);

}  // namespace demo
