#pragma once
// Progress of a long headless run on stdout. On a CPU device (lavapipe) a 1920x1080 temporal ML
// frame takes seconds, so a run of hundreds of frames is silent for many minutes without it.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace demo {

class ProgressLine {
public:
    // `what` names the unit ("frame", "reference frame"); a line at most every `intervalSeconds`
    // (0: after every frame; nullopt: never).
    ProgressLine(std::string what, uint64_t total, std::optional<double> intervalSeconds);

    // `done` of the total are recorded: prints "  <what> 37/300 (3.41 s per frame, about 15 min
    // left)" when the interval has passed since the last line (or the start).
    void update(uint64_t done);

private:
    using Clock = std::chrono::steady_clock;
    std::string what_;
    uint64_t total_;
    std::optional<double> interval_;
    Clock::time_point start_ = Clock::now();
    Clock::time_point last_ = start_;
};

// "0.4 s", "52 s", "15 min", "2.3 h": a duration at the precision a progress line needs.
std::string roughDuration(double seconds);

}  // namespace demo
