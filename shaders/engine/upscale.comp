#version 460
// Built-in output-stage upscalers (the baselines an ML upscaler must beat): bilinear, or
// Catmull-Rom bicubic from 16 texel fetches. Pixel centres map onto pixel centres.
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"
#include "resample.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(constant_id = 0) const uint FILTER = UPSCALE_BILINEAR;

layout(set = 0, binding = 0) uniform sampler2D source;  // linear filtering, clamp to edge
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D destination;

layout(push_constant) uniform Push { UpscalePush pc; };

void main() {
    uvec2 pixel = gl_GlobalInvocationID.xy;
    if (pixel.x >= pc.dstWidth || pixel.y >= pc.dstHeight) return;
    vec2 uv = (vec2(pixel) + 0.5) / vec2(pc.dstWidth, pc.dstHeight);
    vec4 result;
    if (FILTER == UPSCALE_BILINEAR) {
        result = textureLod(source, uv, 0.0);
    } else {
        result = sampleCatmullRom(source, uv, ivec2(pc.srcWidth, pc.srcHeight));
    }
    imageStore(destination, ivec2(pixel), result);
}
