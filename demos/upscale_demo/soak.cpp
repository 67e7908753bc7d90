#include "soak.h"

#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace demo {

const char* OutputConfig::upscaleName() const {
    if (taau) return "taau";
    if (mlTemporal) return "ml-temporal";
    return ml ? "ml" : engine::toString(mode);
}

std::string OutputConfig::describe() const {
    std::string out = std::to_string(width) + "x" + std::to_string(height) + " " + upscaleName();
    out += std::string(", denoise ") + (mlDenoise ? "ml" : engine::toString(denoise));
    if (reloadModels) out += ", models reloaded";
    if (loseDevice) out += ", device lost";
    return out;
}

std::vector<OutputConfig> soakCycle(uint32_t width, uint32_t height, bool loseDevice) {
    auto round8 = [](uint32_t v) { return std::max(16u, v / 8 * 8); };
    const uint32_t w = round8(width), h = round8(height);
    const uint32_t sw = round8(w * 3 / 4), sh = round8(h * 3 / 4);  // smaller
    const uint32_t lw = round8(w * 5 / 4), lh = round8(h * 5 / 4);  // larger
    using engine::DenoiseMode;
    using engine::UpscaleMode;
    std::vector<OutputConfig> c = {
        {w, h, UpscaleMode::Bilinear, false, false, false, DenoiseMode::Off, false},  // sampled
        {w, h, UpscaleMode::Bicubic, false, false, false, DenoiseMode::Atrous, false},
        {w, h, UpscaleMode::Native, false, false, false, DenoiseMode::Off, false},
        {w, h, UpscaleMode::Bilinear, true, false, false, DenoiseMode::Off, false},
        {sw, sh, UpscaleMode::Bilinear, true, false, false, DenoiseMode::Off, true},
        {sw, sh, UpscaleMode::Bilinear, false, true, false, DenoiseMode::Atrous, false},  // taau
        {lw, lh, UpscaleMode::Bicubic, false, false, false, DenoiseMode::Off, true},
        {lw, lh, UpscaleMode::Native, false, false, false, DenoiseMode::Atrous, false},
    };
    c[3].reloadModels = true;  // the first ML step reads both models from their files again
    c[5].loseDevice = loseDevice;
    return c;
}

void countChange(SoakEvents& e, const OutputConfig& from, const OutputConfig& to) {
    e.resizes += from.width != to.width || from.height != to.height;
    e.modeSwitches += std::string(from.upscaleName()) != to.upscaleName();
    e.denoiseSwitches += from.mlDenoise != to.mlDenoise || (!to.mlDenoise && from.denoise != to.denoise);
    e.modelReloads += to.reloadModels;
    e.deviceLosses += to.loseDevice;
}

SoakEvents cycleEvents(const std::vector<OutputConfig>& cycle) {
    SoakEvents e;
    for (size_t i = 0; i < cycle.size(); ++i) countChange(e, cycle[i], cycle[(i + 1) % cycle.size()]);
    return e;
}

double slopePer1000Frames(const std::vector<MemorySample>& samples, double MemorySample::*value) {
    // Theil-Sen: the median of the slopes between every two samples. A leak raises all of
    // them; a one-off step (an allocator arena growing once, a page-cache hiccup) moves only
    // the pairs that straddle it, which least squares would let dominate a short run.
    std::vector<double> slopes;
    for (size_t i = 0; i < samples.size(); ++i)
        for (size_t k = i + 1; k < samples.size(); ++k) {
            const double dx = double(samples[k].frame) - double(samples[i].frame);
            if (dx > 0) slopes.push_back((samples[k].*value - samples[i].*value) / dx * 1000.0);
        }
    if (slopes.empty()) return 0;
    const size_t mid = slopes.size() / 2;
    std::nth_element(slopes.begin(), slopes.begin() + std::ptrdiff_t(mid), slopes.end());
    if (slopes.size() % 2) return slopes[mid];
    const double upper = slopes[mid];
    return (upper + *std::max_element(slopes.begin(), slopes.begin() + std::ptrdiff_t(mid))) / 2;
}

namespace {
// Resident memory moves in steps (an allocator arena or a driver cache growing once), and a step
// in the middle of a run raises even the pairwise median: CI on lavapipe once read 655 KB per
// 1000 frames from one 1.5 MB step at frame 2225 of 5000, flat before and after. A leak grows in
// both halves of the run, a step in one only: the smaller of the two halves' slopes. (A leak
// that starts halfway through is missed; the soak's cycle repeats every sample interval, so a
// leak of any configuration grows from the first cycle on.)
double growthInBothHalves(const std::vector<MemorySample>& samples, double MemorySample::*value) {
    if (samples.size() < 6) return slopePer1000Frames(samples, value);
    const auto half = samples.begin() + std::ptrdiff_t(samples.size() / 2);
    return std::min(slopePer1000Frames({samples.begin(), half}, value), slopePer1000Frames({half, samples.end()}, value));
}

// Resident memory also swings with the soak's configurations, over more than one sample interval:
// CI on lavapipe once read 1.45 MB per 1000 frames from a run that moved between 211.7 and
// 214.7 MB with a period of about 2000 frames and ended both halves near the top, its highest
// value first reached at frame 2625 of 5000 and never passed. A leak raises the high-water mark;
// a swing or a one-off step does not raise it again: the growth of each half's peak over the
// frames between the halves' ends.
double peakGrowth(const std::vector<MemorySample>& samples, double MemorySample::*value) {
    if (samples.size() < 6) return slopePer1000Frames(samples, value);
    const auto half = samples.begin() + std::ptrdiff_t(samples.size() / 2);
    auto peak = [&](auto first, auto last) {
        double m = (*first).*value;
        for (auto it = first; it != last; ++it) m = std::max(m, (*it).*value);
        return m;
    };
    const double frames = double(samples.back().frame) - double((half - 1)->frame);
    if (frames <= 0) return 0;
    return (peak(half, samples.end()) - peak(samples.begin(), half)) / frames * 1000.0;
}

std::string bytes(double b) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.0f bytes", b);
    return buf;
}
}  // namespace

SoakVerdict judgeSoak(const std::vector<MemorySample>& samples, uint64_t validationMessages, const SoakLimits& limits) {
    SoakVerdict v;
    v.warmupSamples = std::min(samples.size(), std::max<size_t>(1, samples.size() / 5));
    const std::vector<MemorySample> steady(samples.begin() + std::ptrdiff_t(v.warmupSamples), samples.end());
    // A leak shows in both estimates; a step or a swing of the allocator raises one of them only.
    v.residentSlope = std::min(growthInBothHalves(steady, &MemorySample::residentBytes), peakGrowth(steady, &MemorySample::residentBytes));
    v.deviceSlope = slopePer1000Frames(steady, &MemorySample::deviceBytes);
    v.driverSlope = slopePer1000Frames(steady, &MemorySample::driverBytes);
    if (steady.size() < 3)
        v.failures.push_back("only " + std::to_string(steady.size()) + " memory sample(s) after the warm-up of " + std::to_string(v.warmupSamples) +
                             "; a slope needs at least 3 (run more cycles: --frames >= 5 x 8 x --soak)");
    if (v.residentSlope > limits.residentSlope)
        v.failures.push_back("resident memory grows by " + bytes(v.residentSlope) + " per 1000 frames (limit " + bytes(limits.residentSlope) + ")");
    if (v.deviceSlope > limits.deviceSlope)
        v.failures.push_back("device memory grows by " + bytes(v.deviceSlope) + " per 1000 frames (limit " + bytes(limits.deviceSlope) + ")");
    if (validationMessages)
        v.failures.push_back(std::to_string(validationMessages) + " validation message(s) were reported");
    v.pass = v.failures.empty();
    return v;
}

std::string soakJson(const SoakRun& run, const SoakVerdict& v) {
    std::ostringstream j;
    j << "{\n";
    j << "  \"frames\": " << run.frames << ",\n";
    j << "  \"step_frames\": " << run.stepFrames << ",\n";
    j << "  \"cycle\": [";
    for (size_t i = 0; i < run.cycle.size(); ++i) j << (i ? ", " : "") << jsonString(run.cycle[i].describe());
    j << "],\n";
    j << "  \"events\": {\"resizes\": " << run.events.resizes << ", \"mode_switches\": " << run.events.modeSwitches
      << ", \"denoise_switches\": " << run.events.denoiseSwitches << ", \"model_reloads\": " << run.events.modelReloads
      << ", \"device_losses\": " << run.events.deviceLosses << "},\n";
    j << "  \"seconds\": " << run.seconds << ",\n";
    j << "  \"validation\": " << (run.validation ? "true" : "false") << ",\n";
    j << "  \"validation_messages\": " << run.validationMessages << ",\n";
    j << "  \"samples\": [";
    for (size_t i = 0; i < run.samples.size(); ++i) {
        const MemorySample& s = run.samples[i];
        j << (i ? ",\n" : "\n") << "    {\"frame\": " << s.frame << ", \"rss_bytes\": " << uint64_t(s.residentBytes)
          << ", \"device_bytes\": " << uint64_t(s.deviceBytes);
        if (run.driverUsage) j << ", \"driver_bytes\": " << uint64_t(s.driverBytes);
        j << "}";
    }
    j << (run.samples.empty() ? "" : "\n  ") << "],\n";
    j << "  \"warmup_samples\": " << v.warmupSamples << ",\n";
    j << "  \"rss_slope_bytes_per_1000_frames\": " << v.residentSlope << ",\n";
    j << "  \"device_slope_bytes_per_1000_frames\": " << v.deviceSlope << ",\n";
    j << "  \"vk_ext_memory_budget\": " << (run.driverUsage ? "true" : "false") << ",\n";
    if (run.driverUsage) j << "  \"driver_slope_bytes_per_1000_frames\": " << v.driverSlope << ",\n";
    auto limit = [](double bytes) { return std::isinf(bytes) ? std::string("null") : std::to_string(int64_t(bytes)); };
    j << "  \"limits\": {\"rss_slope_bytes_per_1000_frames\": " << limit(run.limits.residentSlope)
      << ", \"device_slope_bytes_per_1000_frames\": " << limit(run.limits.deviceSlope) << "},\n";
    j << "  \"failures\": [";
    for (size_t i = 0; i < v.failures.size(); ++i) j << (i ? ", " : "") << jsonString(v.failures[i]);
    j << "],\n";
    j << "  \"pass\": " << (v.pass ? "true" : "false") << "\n";
    j << "}\n";
    return j.str();
}

uint64_t residentBytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t size = 0, resident = 0;
    if (!(statm >> size >> resident)) return 0;
    return resident * uint64_t(sysconf(_SC_PAGESIZE));
}

}  // namespace demo
