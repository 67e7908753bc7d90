// Push constants of the denoiser's conversions (C++ side: effects/src/denoiser.cpp).
#ifndef EFFECTS_DENOISER_SHARED_H
#define EFFECTS_DENOISER_SHARED_H
#ifdef __cplusplus
#include <cstdint>
namespace effects::gpu {
using uint = uint32_t;
#endif

struct DenoiserPush {
    uint width, height;              // this frame's size
    uint tensorWidth, tensorHeight;  // the network's size (maxSize rounded up)
    uint flags;                      // FLAG_COLOR_SRGB (upscaler_shared.h)
    uint pad0, pad1, pad2;
};

#ifdef __cplusplus
}  // namespace effects::gpu
#endif
#endif
