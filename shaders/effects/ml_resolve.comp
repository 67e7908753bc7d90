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
//
// When the model ends in a pointwise head (a 1x1 convolution; effects/src/temporal_network.h,
// PointwiseHead), the network stops before it and this pass applies it (HEAD_CHANNELS > 0): the
// network then writes, and this pass reads, its last hidden value (16 or 32 channels per tensor
// pixel) instead of the 8 r^2 parameters. A workgroup takes a 16 x 16 tile of display pixels in two
// phases. First each invocation computes the parameters of one sub-pixel of one hidden pixel,
// the invocations of a subgroup all of the same sub-pixel, so that they read the head's weights
// (specialised to the hidden width and r) at one uniform-buffer address; the parameters go to
// shared memory. Then each invocation resolves one display pixel, as without a head. (Per display
// pixel throughout, a subgroup reads the weights of four sub-pixels at once; per hidden pixel
// throughout, an invocation resolves its r x r display pixels in turn, with strided loads and
// stores: H200, 4K, each cost 0.1 ms more than the network saved.)
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

#ifndef OUTPUT_FORMAT
#define OUTPUT_FORMAT rgba16f
#endif

// 8 x 8 invocations per workgroup, or with a head HEAD_TILE x HEAD_TILE (constants 2 and 3).
layout(local_size_x_id = 2, local_size_y_id = 3) in;
layout(constant_id = 0) const uint HEAD_CHANNELS = 0u;  // the head's input channels; 0: the network writes the parameters
layout(constant_id = 1) const uint HEAD_UNSHUFFLE = 1u;  // r, with a head
const uint HEAD_TILE = 16u;  // display pixels per side of a workgroup's tile with a head
const uint HEAD_SUBPIXELS = HEAD_UNSHUFFLE * HEAD_UNSHUFFLE;
const uint HEAD_ARRAY = HEAD_CHANNELS > 0u ? HEAD_CHANNELS : 1u;  // arrays of the hidden values (no array is empty)
const uint HEAD_QUADS_PER_CHANNEL = HEAD_SUBPIXELS * ML_PARAMS / 4u;  // a hidden channel's weights for every output
layout(set = 0, binding = 0, std430) readonly buffer Features { TENSOR_T features[]; };
layout(set = 0, binding = 1, std430) readonly buffer Params { TENSOR_T params[]; };  // or the hidden value
layout(set = 0, binding = 0, std430) readonly buffer FeatureQuads { TENSOR_QUAD featureQuads[]; };  // the same buffers,
layout(set = 0, binding = 1, std430) readonly buffer ParamQuads { TENSOR_QUAD paramQuads[]; };      // 16 bytes at a time
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D historyOut;
layout(set = 0, binding = 3, OUTPUT_FORMAT) uniform writeonly image2D outputImage;
// PointwiseHead's layout with the outputs pixel-major (sub-pixel s's 8 at s * 8): hidden channel
// i's weights, then the biases (at HEAD_CHANNELS); 16 bytes unread without a head.
layout(set = 0, binding = 4, std140) uniform Head { vec4 headQuads[(HEAD_CHANNELS + 1u) * HEAD_QUADS_PER_CHANNEL]; };
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

// Display pixel t from its features and its parameters pv.
void resolvePixel(uvec2 t, float pv[ML_PARAMS]) {
    float fv[ML_FEATURES];
    loadFeatures(pixelIn(t, ML_FEATURES), fv);
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

// The hidden value's channels at one of its pixels (NHWC: 16 bytes at a time where they divide).
void loadHidden(uvec2 p, out float h[HEAD_ARRAY]) {
    const uint width = pc.tensorWidth / HEAD_UNSHUFFLE, pixel = p.y * width + p.x;
    if ((pc.flags & FLAG_TENSORS_NHWC) != 0u && HEAD_CHANNELS % TENSOR_QUAD_VALUES == 0u) {
        for (uint i = 0u; i < HEAD_CHANNELS / TENSOR_QUAD_VALUES; ++i) {
#ifdef TENSOR_F16
            const uvec4 w = paramQuads[pixel * (HEAD_CHANNELS / TENSOR_QUAD_VALUES) + i];
            for (uint j = 0u; j < 4u; ++j) {
                const vec2 pair = unpackHalf2x16(w[j]);
                h[8u * i + 2u * j] = pair.x;
                h[8u * i + 2u * j + 1u] = pair.y;
            }
#else
            const vec4 w = paramQuads[pixel * (HEAD_CHANNELS / TENSOR_QUAD_VALUES) + i];
            for (uint j = 0u; j < 4u; ++j) h[4u * i + j] = w[j];
#endif
        }
    } else {
        const bool nhwc = (pc.flags & FLAG_TENSORS_NHWC) != 0u;
        const uint plane = (pc.tensorHeight / HEAD_UNSHUFFLE) * width;
        for (uint i = 0u; i < HEAD_CHANNELS; ++i) h[i] = float(params[nhwc ? pixel * HEAD_CHANNELS + i : i * plane + pixel]);
    }
}

shared vec4 tileParams[HEAD_TILE * HEAD_TILE * 2];  // with a head: each display pixel's 8 parameters

void main() {
    if (HEAD_CHANNELS == 0u) {  // one display pixel, its parameters from the network
        const uvec2 t = gl_GlobalInvocationID.xy;
        if (t.x >= pc.displaySize.x || t.y >= pc.displaySize.y) return;
        float pv[ML_PARAMS];
        loadParams(pixelIn(t, ML_PARAMS), pv);
        resolvePixel(t, pv);
        return;
    }
    // The head: invocation i computes sub-pixel s = i / (side * side) of hidden pixel i % (side * side) of the tile.
    const uint side = HEAD_TILE / HEAD_UNSHUFFLE, i = gl_LocalInvocationIndex;
    const uint s = i / (side * side), q = i % (side * side);
    const uvec2 local = uvec2(q % side, q / side), p = gl_WorkGroupID.xy * side + local;
    if (p.x < pc.tensorWidth / HEAD_UNSHUFFLE && p.y < pc.tensorHeight / HEAD_UNSHUFFLE) {
        float h[HEAD_ARRAY];
        loadHidden(p, h);
        vec4 lo = headQuads[HEAD_CHANNELS * HEAD_QUADS_PER_CHANNEL + 2u * s], hi = headQuads[HEAD_CHANNELS * HEAD_QUADS_PER_CHANNEL + 2u * s + 1u];
        for (uint c = 0u; c < HEAD_CHANNELS; ++c) {
            lo += h[c] * headQuads[c * HEAD_QUADS_PER_CHANNEL + 2u * s];
            hi += h[c] * headQuads[c * HEAD_QUADS_PER_CHANNEL + 2u * s + 1u];
        }
        const uvec2 d = local * HEAD_UNSHUFFLE + uvec2(s % HEAD_UNSHUFFLE, s / HEAD_UNSHUFFLE);
        tileParams[(d.y * HEAD_TILE + d.x) * 2u] = lo;
        tileParams[(d.y * HEAD_TILE + d.x) * 2u + 1u] = hi;
    }
    barrier();
    // Then each invocation one display pixel of the tile.
    const uvec2 t = gl_WorkGroupID.xy * HEAD_TILE + gl_LocalInvocationID.xy;
    if (t.x >= pc.displaySize.x || t.y >= pc.displaySize.y) return;
    const uint at = (gl_LocalInvocationID.y * HEAD_TILE + gl_LocalInvocationID.x) * 2u;
    const vec4 lo = tileParams[at], hi = tileParams[at + 1u];
    resolvePixel(t, float[](lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w));
}
