#pragma once
// What the headless and the windowed frame loops share.
#include <cstdint>

namespace demo {

inline constexpr uint32_t kFramesInFlight = 2;
// A device lost again this many times without a frame completed (headless) or presented
// (windowed) in between is given up on.
inline constexpr uint32_t kMaxLossesWithoutProgress = 3;

}  // namespace demo
