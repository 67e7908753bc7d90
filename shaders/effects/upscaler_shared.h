// Structs and constants shared by the upscaler effect's C++ code and its GLSL shaders (C++ side:
// static_asserts on the sizes and offsets in effects/src/upscaler.cpp).
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
EFFECTS_CONST uint FLAG_TENSORS_NHWC = 64u;     // ML: the feature/parameter tensors are stored channels-last
EFFECTS_CONST uint FLAG_TENSORS_PIXEL_MAJOR = 128u;  // ML, with NHWC: a display pixel's values are contiguous
EFFECTS_CONST uint FLAG_ML_ACCUMULATE = 256u;   // ML: the accumulating resolve (the model's "vkml.history_weight_cap")

// The temporal network's tensors (docs/EFFECTS.md). Features and parameters live at the display
// resolution rounded up to a multiple of 4r, stored space-to-depth by r (pixel-unshuffled, r = 1,
// 2 or 4, read off the model): channel c * r * r + dy * r + dx of the 1/r-resolution tensor holds
// value c of pixel (r x + dx, r y + dy). Stored NCHW, or NHWC with FLAG_TENSORS_NHWC (fp16
// networks: what the tensor-core convolutions read and write fastest). With
// FLAG_TENSORS_PIXEL_MAJOR (NHWC only) the effect has permuted the network's first and last
// layers so that channel (dy * r + dx) * C + c holds that value instead: each display pixel's C
// values are then one contiguous run, moved in 16-byte accesses (C = ML_FEATURES or ML_PARAMS,
// both multiples of 8).
EFFECTS_CONST uint ML_FEATURES = 16u;           // per display pixel
EFFECTS_CONST uint ML_PARAMS = 8u;              // per display pixel
// The accumulating resolve (ml_resolve.comp; tools/train/temporal.py's resolve() mirrors it).
EFFECTS_CONST float ML_ACCUMULATE_EPSILON = 1e-4f;  // a pixel without history or samples takes the current estimate
EFFECTS_CONST float ML_GAIN_LOG_MIN = -8.0f;        // the clamp of p7, the log of the current samples' gain
EFFECTS_CONST float ML_GAIN_LOG_MAX = 4.0f;
// TAAU: a moving pixel's accumulated sample weight is capped far below a still one's
// (ResolvePush::maxHistoryWeight, 16). Every frame's resampling of the history along the motion
// blurs it a little, and shading that does not follow the surfaces' motion (specular and other
// view-dependent light, which the motion vectors do not describe) makes the reprojected history
// lag behind; the neighbourhood clip misses both on smooth content. With a weight of 16 the
// error built up for tens of frames (a glossy bottle fell 3 dB below bicubic); capped at 0.5 the
// new samples keep at least a third of each moving pixel. A pixel counts as fully moving when
// the fastest of its 3x3 render samples moves MOVING_FULL_MOTION display pixels per frame, linearly
// below that: the fastest, not the nearest surface's motion the reprojection follows, so that
// the edge of a slow object against a moving background counts as moving too (there the clip
// spans both sides and constrains nothing). Chosen on the validation split's scenes
// (docs/EFFECTS.md, "Moving pixels keep few samples"). A temporal ML model may name a moving cap
// of its own ("vkml.moving_history_weight", ResolvePush::movingHistoryWeight): its feature pass
// then caps the history state it hands the network in the same way (ml_features.comp).
EFFECTS_CONST float TAAU_MOVING_HISTORY_WEIGHT = 0.5f;
EFFECTS_CONST float MOVING_FULL_MOTION = 0.5f;

// The push constants of the display-resolution passes. The reprojection (motion of the nearest
// surface, history confidence, this frame's linear depth) runs inside the TAAU resolve and the ML
// feature pass (upscaler_current.glsl), so they carry its parameters too. 124 bytes: within the
// 128 every Vulkan device offers.
struct ResolvePush {
    uvec2 renderSize;
    uvec2 displaySize;
    vec2 jitter;
    float exposure;
    uint flags;
    float maxHistoryWeight;  // cap of the accumulated sample weight (how long history lasts; ML: the model's cap)
    float clampGammaMoving;  // neighbourhood box half-width in standard deviations, moving pixels
    float sharpness;         // 0..1 (sharpen pass)
    uint tensorWidth;        // ML: the feature/parameter tensors' (padded) width and height
    uint tensorHeight;
    float clampGammaStatic;  // the box half-width where the content does not move
    float narrowFalloff;     // narrow kernel: exp(-narrowFalloff * d^2), d in display pixels
    uint tensorUnshuffle;    // ML: r, the space-to-depth factor of the tensors
    float ratioFeatureMax;   // ML: the ratio feature's clamp (the model's "vkml.ratio_feature_max"; FLT_MAX: none)
    float depthTolerance;    // relative linear-depth difference beyond which history is rejected
    uvec2 prevRenderSize;
    vec2 prevJitter;
    vec2 motionScale;
    float cameraNear;
    float cameraFar;          // 0: infinite
    vec2 depthTexelSize;      // 1 / the extent of the linear depth images (the maximum render size)
    uvec2 depthOwnerScale;    // ceil(render * 65536 / display) per axis: which workgroup writes which render pixel's linear depth
    float movingHistoryWeight;  // the cap of a moving pixel's accumulated sample weight (TAAU; ML: the model's, if it names one)
};

#ifdef __cplusplus
}  // namespace effects::gpu
#undef EFFECTS_CONST
#endif
#endif
