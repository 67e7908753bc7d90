#version 460
// Temporal ML, before the network, at display resolution: the reprojection and the network's
// input features per output pixel (upscaler_current.glsl), written pixel-unshuffled into the
// feature tensor (docs/EFFECTS.md lists them), and this frame's linear depth for the next frame.
// Padding pixels of the tensor (beyond the display size) repeat the edge. Colours are
// sRGB-encoded working-space values (the network sees perceptual values). Built with
// HISTORY_FETCH_5_TAPS for models whose "vkml.history_taps" is 5 (without: the 9-tap default), and
// with MOVING_HISTORY_CAP for models that name a "vkml.moving_history_weight".
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D colorTex;         // application, nearest
layout(set = 0, binding = 1) uniform sampler2D depthTex;         // application, nearest
layout(set = 0, binding = 2) uniform sampler2D motionTex;        // application, nearest
layout(set = 0, binding = 3) uniform sampler2D prevLinearDepth;  // effect, previous frame, nearest
layout(set = 0, binding = 4) uniform sampler2D historyTex;       // effect, previous frame, linear filter
layout(set = 0, binding = 5) uniform sampler2D reactiveTex;      // application (or a black texel)
layout(set = 0, binding = 6, r32f) uniform writeonly image2D linearDepthOut;
layout(set = 0, binding = 7, std430) writeonly buffer Features { TENSOR_T features[]; };
layout(set = 0, binding = 7, std430) writeonly buffer FeatureQuads { TENSOR_QUAD featureQuads[]; };  // the same buffer
layout(push_constant) uniform Push { ResolvePush pc; };

#define STAGED_CURRENT_SAMPLES
#ifdef MOVING_HISTORY_CAP
#define FASTEST_MOTION
#endif
#include "upscaler_current.glsl"

// The features of display pixel o (docs/EFFECTS.md lists them).
void computeFeatures(ivec2 o, SampleBlock block, out float f[ML_FEATURES]) {
    CurrentSamples cur = gatherCurrent(o, block);
    HistorySample hist = fetchHistory(o, cur);
    vec3 v = linearToSrgb(cur.narrow);
    f[0] = v.r; f[1] = v.g; f[2] = v.b;
    f[3] = cur.narrowWeight;
    v = linearToSrgb(cur.wide);
    f[4] = v.r; f[5] = v.g; f[6] = v.b;
    v = linearToSrgb(hist.raw);
    f[7] = v.r; f[8] = v.g; f[9] = v.b;
    v = linearToSrgb(hist.clipped);
    f[10] = v.r; f[11] = v.g; f[12] = v.b;
    f[13] = hist.valid;
#ifdef MOVING_HISTORY_CAP
    // The history state (accumulated weight / cap) a moving pixel keeps at most; the accumulating
    // resolve's "kept" weight is the cap times this feature (ml_resolve.comp).
    f[14] = hist.valid * min(clamp(hist.state, 0.0, 1.0), movingHistoryCap(cur) / pc.maxHistoryWeight);
#else
    f[14] = hist.valid * clamp(hist.state, 0.0, 1.0);
#endif
    f[15] = min(float(pc.renderSize.x) / float(pc.displaySize.x), pc.ratioFeatureMax);
}

#ifdef TENSOR_F16
uvec4 packQuad(float f[ML_FEATURES], uint i) {
    return uvec4(packHalf2x16(vec2(f[8u * i], f[8u * i + 1u])), packHalf2x16(vec2(f[8u * i + 2u], f[8u * i + 3u])),
                 packHalf2x16(vec2(f[8u * i + 4u], f[8u * i + 5u])), packHalf2x16(vec2(f[8u * i + 6u], f[8u * i + 7u])));
}
#endif

void main() {
    const SampleBlock block = beginBlock();
    const uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.tensorWidth || t.y >= pc.tensorHeight) return;  // after beginBlock's barrier
    float f[ML_FEATURES];
    computeFeatures(min(ivec2(t), ivec2(pc.displaySize) - 1), block, f);
    const TensorPixel at = tensorPixel(t, ML_FEATURES, pc.tensorWidth, pc.tensorHeight, pc.tensorUnshuffle, pc.flags);
    if (at.stride == 1u) {  // pixel-major: the 16 values in 16-byte stores (base is a multiple of 16 values)
        const uint q = at.base / TENSOR_QUAD_VALUES;
#ifdef TENSOR_F16
        for (uint i = 0u; i < ML_FEATURES / 8u; ++i) featureQuads[q + i] = packQuad(f, i);
#else
        for (uint i = 0u; i < ML_FEATURES / 4u; ++i) featureQuads[q + i] = vec4(f[4u * i], f[4u * i + 1u], f[4u * i + 2u], f[4u * i + 3u]);
#endif
    } else {
        for (uint c = 0u; c < ML_FEATURES; ++c) features[at.base + c * at.stride] = TENSOR_T(f[c]);
    }
}
