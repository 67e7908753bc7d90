#version 460
// Temporal ML, after the network, at display resolution: applies the network's per-pixel
// parameters to the features of ml_features.comp:
//   current = mix(wide, narrow, sigmoid(p2)); history = mix(clipped, raw, sigmoid(p1))
//   colour  = clamp(mix(history, current, sigmoid(p0)) + 0.25 tanh(p3..5), 0, 1)   (linear)
//   state   = sigmoid(p6), stored in the history's alpha and fed back next frame.
// A pixel without valid history takes the current estimate alone.
// With FLAG_ML_ACCUMULATE (the model names a history weight cap C), the state is the history's
// accumulated sample weight W / C (feature 14 is it times the history's validity) and
//   kept = W sigmoid(-p0), added = exp(p7) w_n   (w_n: the narrow kernel's weight sum, feature 3)
//   colour = clamp(mix(history, current, (added + eps) / (kept + added + eps)) + 0.25 tanh(p3..5), 0, 1)
//   state  = min(kept + added, C) / C
// so that a pixel whose history the network trusts averages all its samples by their distance.
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

#ifndef OUTPUT_FORMAT
#define OUTPUT_FORMAT rgba16f
#endif

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer Features { TENSOR_T features[]; };
layout(set = 0, binding = 1, std430) readonly buffer Params { TENSOR_T params[]; };
layout(set = 0, binding = 0, std430) readonly buffer FeatureQuads { TENSOR_QUAD featureQuads[]; };  // the same buffers,
layout(set = 0, binding = 1, std430) readonly buffer ParamQuads { TENSOR_QUAD paramQuads[]; };      // 16 bytes at a time
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D historyOut;
layout(set = 0, binding = 3, OUTPUT_FORMAT) uniform writeonly image2D outputImage;
layout(push_constant) uniform Push { ResolvePush pc; };

TensorPixel pixelIn(uvec2 t, uint channels) {
    return tensorPixel(t, channels, pc.tensorWidth, pc.tensorHeight, pc.tensorUnshuffle, pc.flags);
}

// One display pixel's values; pixel-major tensors (stride 1) in 16-byte loads.
#ifdef TENSOR_F16
#define UNPACK_QUAD(v, at, quads)                                                              \
    for (uint i = 0u; i < uint(v.length()) / 8u; ++i) {                                        \
        uvec4 w = quads[at.base / 8u + i];                                                     \
        for (uint j = 0u; j < 4u; ++j) {                                                       \
            vec2 pair = unpackHalf2x16(w[j]);                                                  \
            v[8u * i + 2u * j] = pair.x;                                                       \
            v[8u * i + 2u * j + 1u] = pair.y;                                                  \
        }                                                                                      \
    }
#else
#define UNPACK_QUAD(v, at, quads)                                                              \
    for (uint i = 0u; i < uint(v.length()) / 4u; ++i) {                                        \
        vec4 w = quads[at.base / 4u + i];                                                      \
        for (uint j = 0u; j < 4u; ++j) v[4u * i + j] = w[j];                                   \
    }
#endif
void loadFeatures(TensorPixel at, out float v[ML_FEATURES]) {
    if (at.stride == 1u) {
        UNPACK_QUAD(v, at, featureQuads)
    } else {
        for (uint c = 0u; c < 15u; ++c) v[c] = float(features[at.base + c * at.stride]);  // 15 is unused
        v[15] = 0.0;
    }
}
void loadParams(TensorPixel at, out float v[ML_PARAMS]) {
    if (at.stride == 1u) {
        UNPACK_QUAD(v, at, paramQuads)
    } else {
        for (uint c = 0u; c < ML_PARAMS; ++c) v[c] = float(params[at.base + c * at.stride]);
    }
}
float sigmoid(float x) { return 1.0 / (1.0 + exp(-clamp(x, -30.0, 30.0))); }
vec3 srgbFeature(float v[ML_FEATURES], uint c) { return srgbToLinear(clamp(vec3(v[c], v[c + 1u], v[c + 2u]), 0.0, 1.0)); }

void main() {
    uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.displaySize.x || t.y >= pc.displaySize.y) return;
    float fv[ML_FEATURES], pv[ML_PARAMS];
    loadFeatures(pixelIn(t, ML_FEATURES), fv);
    loadParams(pixelIn(t, ML_PARAMS), pv);
    vec3 narrow = srgbFeature(fv, 0u), wide = srgbFeature(fv, 4u), raw = srgbFeature(fv, 7u), clipped = srgbFeature(fv, 10u);
    float valid = fv[13];
    float p0 = pv[0], p1 = pv[1], p2 = pv[2], p6 = pv[6], p7 = pv[7];
    vec3 residual = vec3(pv[3], pv[4], pv[5]);
    if (!finite3(residual) || isnan(p0) || isnan(p1) || isnan(p2) || isnan(p6) || isnan(p7)) {  // a broken network never poisons the history
        residual = vec3(0.0);
        p0 = 30.0; p1 = -30.0; p2 = 0.0; p6 = -30.0; p7 = 0.0;
    }
    vec3 current = mix(wide, narrow, sigmoid(p2));
    vec3 history = mix(clipped, raw, sigmoid(p1));
    float alpha, state;
    if ((pc.flags & FLAG_ML_ACCUMULATE) != 0u) {
        const float cap = pc.maxHistoryWeight;
        float kept = cap * clamp(fv[14], 0.0, 1.0) * sigmoid(-p0);
        float added = exp(clamp(p7, ML_GAIN_LOG_MIN, ML_GAIN_LOG_MAX)) * max(fv[3], 0.0);
        alpha = (added + ML_ACCUMULATE_EPSILON) / (kept + added + ML_ACCUMULATE_EPSILON);
        state = min(kept + added, cap) / cap;
    } else {
        alpha = valid > 0.0 ? sigmoid(p0) : 1.0;
        state = sigmoid(p6);
    }
    vec3 color = clamp(mix(history, current, alpha) + 0.25 * tanh(residual), vec3(0.0), vec3(1.0));
    imageStore(historyOut, ivec2(t), vec4(color, state));
    imageStore(outputImage, ivec2(t), vec4(fromWorkingSpace(color, pc.flags, pc.exposure), 1.0));
}
