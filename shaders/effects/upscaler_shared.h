// Structs and constants shared by the upscaler effect's C++ code and its GLSL shaders (C++ side:
// static_asserts on the sizes in effects/src/upscaler_passes.cpp).
#ifndef EFFECTS_UPSCALER_SHARED_H
#define EFFECTS_UPSCALER_SHARED_H

#ifdef __cplusplus
#include <cstdint>
namespace effects::gpu {
struct vec2 { float x, y; };
struct uvec2 { uint32_t x, y; };
using uint = uint32_t;
#define EFFECTS_CONST inline constexpr
#else
#define EFFECTS_CONST const
#endif

// Push-constant flags.
EFFECTS_CONST uint FLAG_COLOR_SRGB = 1u;        // input colour holds sRGB-encoded values
EFFECTS_CONST uint FLAG_HDR = 2u;               // input colour is unbounded (reversible tonemap while accumulating)
EFFECTS_CONST uint FLAG_DEPTH_INVERTED = 4u;    // depth 1 near .. 0 far
EFFECTS_CONST uint FLAG_HAS_REACTIVE = 8u;      // a reactive mask is bound
EFFECTS_CONST uint FLAG_HISTORY_VALID = 16u;    // the history holds the previous frame (no reset)
EFFECTS_CONST uint FLAG_WRITE_OUTPUT = 32u;     // the resolve writes the output (no sharpening pass after it)

// The temporal network's tensors (docs/EFFECTS.md). Features and parameters live at the display
// resolution rounded up to TENSOR_ALIGN, stored space-to-depth by 2 (pixel-unshuffled): channel
// c * 4 + dy * 2 + dx of the half-resolution tensor holds feature c of pixel (2x + dx, 2y + dy).
EFFECTS_CONST uint ML_FEATURES = 16u;           // per display pixel
EFFECTS_CONST uint ML_PARAMS = 8u;              // per display pixel
EFFECTS_CONST uint TENSOR_ALIGN = 8u;

struct ReprojectPush {
    uvec2 renderSize;
    uvec2 prevRenderSize;
    vec2 jitter;
    vec2 prevJitter;
    vec2 motionScale;
    float cameraNear;
    float cameraFar;        // 0: infinite
    uint flags;
    float depthTolerance;   // relative linear-depth difference beyond which history is rejected
    uint pad0;
    uint pad1;
};

struct ResolvePush {
    uvec2 renderSize;
    uvec2 displaySize;
    vec2 jitter;
    float exposure;
    uint flags;
    float maxHistoryWeight;  // cap of the accumulated sample weight (how long history lasts)
    float clampGammaMoving;  // neighbourhood box half-width in standard deviations, moving pixels
    float sharpness;         // 0..1 (sharpen pass)
    uint tensorWidth;        // ML: the feature/parameter tensors' (padded) width and height
    uint tensorHeight;
    float clampGammaStatic;  // the box half-width where the content does not move
    float narrowFalloff;     // narrow kernel: exp(-narrowFalloff * d^2), d in display pixels
    uint pad0;
};

#ifdef __cplusplus
}  // namespace effects::gpu
#undef EFFECTS_CONST
#endif
#endif
