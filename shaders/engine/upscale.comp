#version 460
// Built-in output-stage upscalers (the baselines an ML upscaler must beat): bilinear, or
// Catmull-Rom bicubic from 16 texel fetches. Pixel centres map onto pixel centres.
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(constant_id = 0) const uint FILTER = UPSCALE_BILINEAR;

layout(set = 0, binding = 0) uniform sampler2D source;  // linear filtering, clamp to edge
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D destination;

layout(push_constant) uniform Push { UpscalePush pc; };

vec4 fetchClamped(ivec2 p) {
    return texelFetch(source, clamp(p, ivec2(0), ivec2(pc.srcWidth, pc.srcHeight) - 1), 0);
}

vec4 catmullRomWeights(float t) {
    float t2 = t * t, t3 = t2 * t;
    return vec4(-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1.0, -1.5 * t3 + 2.0 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2);
}

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (pixel.x >= pc.dstWidth || pixel.y >= pc.dstHeight) return;
    vec2 uv = (vec2(pixel) + 0.5) / vec2(pc.dstWidth, pc.dstHeight);
    vec4 result;
    if (FILTER == UPSCALE_BILINEAR) {
        result = textureLod(source, uv, 0.0);
    } else {
        vec2 texel = uv * vec2(pc.srcWidth, pc.srcHeight) - 0.5;
        ivec2 base = ivec2(floor(texel));
        vec2 f = texel - vec2(base);
        vec4 wx = catmullRomWeights(f.x), wy = catmullRomWeights(f.y);
        result = vec4(0);
        for (int j = 0; j < 4; ++j) {
            vec4 row = wx.x * fetchClamped(base + ivec2(-1, j - 1)) + wx.y * fetchClamped(base + ivec2(0, j - 1)) +
                       wx.z * fetchClamped(base + ivec2(1, j - 1)) + wx.w * fetchClamped(base + ivec2(2, j - 1));
            result += wy[j] * row;
        }
        result = clamp(result, 0.0, 1.0);  // Catmull-Rom overshoots at edges
    }
    imageStore(destination, ivec2(pixel), result);
}
