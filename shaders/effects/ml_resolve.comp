#version 460
// Upscaler pass 3 (temporal ML), at display resolution: applies the network's per-pixel
// parameters to the features of ml_features.comp:
//   current = mix(wide, narrow, sigmoid(p2)); history = mix(clipped, raw, sigmoid(p1))
//   colour  = clamp(mix(history, current, sigmoid(p0)) + 0.25 tanh(p3..5), 0, 1)   (linear)
//   state   = sigmoid(p6), stored in the history's alpha and fed back next frame.
// A pixel without valid history takes the current estimate alone.
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
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D historyOut;
layout(set = 0, binding = 3, OUTPUT_FORMAT) uniform writeonly image2D outputImage;
// With pc.headInputs > 0 the network's last layer, a 1x1 convolution, runs here: `params` holds its
// input (headInputs channels per 1/r pixel) and this its fp32 weights [r^2 ML_PARAMS][headInputs],
// then its bias [r^2 ML_PARAMS].
layout(set = 0, binding = 4, std430) readonly buffer Head { float head[]; };
layout(push_constant) uniform Push { ResolvePush pc; };

bool nhwc() { return (pc.flags & FLAG_TENSORS_NHWC) != 0u; }
float feature(uint c, uvec2 t) { return float(features[unshuffledIndex(c, ML_FEATURES, t, pc.tensorWidth, pc.tensorHeight, pc.tensorUnshuffle, nhwc())]); }
float param(uint c, uvec2 t) { return float(params[unshuffledIndex(c, ML_PARAMS, t, pc.tensorWidth, pc.tensorHeight, pc.tensorUnshuffle, nhwc())]); }

// Parameters 0..6 of display pixel t: read, or computed by the peeled 1x1 layer from the hidden
// channels of t's 1/r pixel (output channel c r^2 + sub-pixel, as pixel_shuffle orders them).
void parameters(uvec2 t, out float p[7]) {
    const uint r = pc.tensorUnshuffle, k = pc.headInputs;
    if (k == 0u) {
        for (uint c = 0u; c < 7u; ++c) p[c] = param(c, t);
        return;
    }
    const uint sub = (t.y % r) * r + t.x % r, outputs = ML_PARAMS * r * r;
    const uint pixel = (t.y / r) * (pc.tensorWidth / r) + t.x / r, plane = (pc.tensorHeight / r) * (pc.tensorWidth / r);
    for (uint c = 0u; c < 7u; ++c) p[c] = head[outputs * k + c * r * r + sub];
    for (uint i = 0u; i < k; ++i) {
        const float h = float(params[nhwc() ? pixel * k + i : i * plane + pixel]);
        for (uint c = 0u; c < 7u; ++c) p[c] += head[(c * r * r + sub) * k + i] * h;
    }
}
float sigmoid(float x) { return 1.0 / (1.0 + exp(-clamp(x, -30.0, 30.0))); }
vec3 srgbFeature(uint c, uvec2 t) { return srgbToLinear(clamp(vec3(feature(c, t), feature(c + 1u, t), feature(c + 2u, t)), 0.0, 1.0)); }

void main() {
    uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.displaySize.x || t.y >= pc.displaySize.y) return;
    vec3 narrow = srgbFeature(0u, t), wide = srgbFeature(4u, t), raw = srgbFeature(7u, t), clipped = srgbFeature(10u, t);
    float valid = feature(13u, t);
    float p[7];
    parameters(t, p);
    float p0 = p[0], p1 = p[1], p2 = p[2], p6 = p[6];
    vec3 residual = vec3(p[3], p[4], p[5]);
    if (!finite3(residual) || isnan(p0) || isnan(p1) || isnan(p2) || isnan(p6)) {  // a broken network never poisons the history
        residual = vec3(0.0);
        p0 = 30.0; p1 = -30.0; p2 = 0.0; p6 = -30.0;
    }
    vec3 current = mix(wide, narrow, sigmoid(p2));
    vec3 history = mix(clipped, raw, sigmoid(p1));
    float alpha = valid > 0.0 ? sigmoid(p0) : 1.0;
    vec3 color = clamp(mix(history, current, alpha) + 0.25 * tanh(residual), vec3(0.0), vec3(1.0));
    imageStore(historyOut, ivec2(t), vec4(color, sigmoid(p6)));
    imageStore(outputImage, ivec2(t), vec4(fromWorkingSpace(color, pc.flags, pc.exposure), 1.0));
}
