// Push constants of the single-frame network's conversions (C++ side: single_frame_upscaler.cpp).
#ifndef EFFECTS_SINGLE_FRAME_SHARED_H
#define EFFECTS_SINGLE_FRAME_SHARED_H
#ifdef __cplusplus
#include <cstdint>
namespace effects::gpu {
using uint = uint32_t;
#endif

struct SingleFramePush {
    uint renderWidth, renderHeight;    // this frame's render size (read region of the colour)
    uint tensorWidth, tensorHeight;    // the network's input size (the maximum render size)
    uint displayWidth, displayHeight;
    uint scale;                        // the network's upscale factor
    uint flags;                        // FLAG_COLOR_SRGB, FLAG_HDR (upscaler_shared.h)
    float exposure;
    uint pad0, pad1, pad2;
};

#ifdef __cplusplus
}  // namespace effects::gpu
#endif
#endif
