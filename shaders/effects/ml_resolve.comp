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
layout(push_constant) uniform Push { ResolvePush pc; };

TensorPixel pixelIn(uvec2 t, uint channels) {
    return tensorPixel(t, channels, pc.tensorWidth, pc.tensorHeight, pc.tensorUnshuffle, (pc.flags & FLAG_TENSORS_NHWC) != 0u);
}
float feature(TensorPixel at, uint c) { return float(features[at.base + c * at.stride]); }
float param(TensorPixel at, uint c) { return float(params[at.base + c * at.stride]); }
float sigmoid(float x) { return 1.0 / (1.0 + exp(-clamp(x, -30.0, 30.0))); }
vec3 srgbFeature(TensorPixel at, uint c) { return srgbToLinear(clamp(vec3(feature(at, c), feature(at, c + 1u), feature(at, c + 2u)), 0.0, 1.0)); }

void main() {
    uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.displaySize.x || t.y >= pc.displaySize.y) return;
    const TensorPixel f = pixelIn(t, ML_FEATURES), p = pixelIn(t, ML_PARAMS);
    vec3 narrow = srgbFeature(f, 0u), wide = srgbFeature(f, 4u), raw = srgbFeature(f, 7u), clipped = srgbFeature(f, 10u);
    float valid = feature(f, 13u);
    float p0 = param(p, 0u), p1 = param(p, 1u), p2 = param(p, 2u), p6 = param(p, 6u);
    vec3 residual = vec3(param(p, 3u), param(p, 4u), param(p, 5u));
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
