#include "progress.h"

#include <cstdio>
#include <utility>

namespace demo {

ProgressLine::ProgressLine(std::string what, uint64_t total, std::optional<double> intervalSeconds)
    : what_(std::move(what)), total_(total), interval_(intervalSeconds) {}

void ProgressLine::update(uint64_t done) {
    if (!interval_ || done == 0) return;
    const Clock::time_point now = Clock::now();
    if (std::chrono::duration<double>(now - last_).count() < *interval_) return;
    last_ = now;
    const double perFrame = std::chrono::duration<double>(now - start_).count() / double(done);
    const uint64_t left = done < total_ ? total_ - done : 0;
    std::printf("  %s %llu/%llu (%.2f s per frame, about %s left)\n", what_.c_str(), static_cast<unsigned long long>(done),
                static_cast<unsigned long long>(total_), perFrame, roughDuration(perFrame * double(left)).c_str());
    std::fflush(stdout);  // a pipe (a training or evaluation script) sees it now, not at exit
}

std::string roughDuration(double seconds) {
    char text[32];
    if (seconds < 10.0) std::snprintf(text, sizeof text, "%.1f s", seconds);
    else if (seconds < 120.0) std::snprintf(text, sizeof text, "%.0f s", seconds);
    else if (seconds < 7200.0) std::snprintf(text, sizeof text, "%.0f min", seconds / 60.0);
    else std::snprintf(text, sizeof text, "%.1f h", seconds / 3600.0);
    return text;
}

}  // namespace demo
