#version 460
// Denoiser, step 1: the application's colour, albedo, normal and depth -> the network's four
// input tensors (NCHW planes). Colour as sRGB values; non-finite samples as 0; pixels beyond this
// frame's size repeat its edge.
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "denoiser_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D colorTex;
layout(set = 0, binding = 1) uniform sampler2D albedoTex;
layout(set = 0, binding = 2) uniform sampler2D normalTex;
layout(set = 0, binding = 3) uniform sampler2D depthTex;
layout(set = 0, binding = 4, std430) writeonly buffer Color { TENSOR_T color[]; };
layout(set = 0, binding = 5, std430) writeonly buffer Albedo { TENSOR_T albedo[]; };
layout(set = 0, binding = 6, std430) writeonly buffer Normal { TENSOR_T normal[]; };
layout(set = 0, binding = 7, std430) writeonly buffer Depth { TENSOR_T depth[]; };
layout(push_constant) uniform Push { DenoiserPush pc; };

vec3 finiteOr0(vec3 v) { return finite3(v) ? v : vec3(0.0); }

void main() {
    uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.tensorWidth || t.y >= pc.tensorHeight) return;
    ivec2 p = min(ivec2(t), ivec2(pc.width, pc.height) - 1);
    vec3 c = finiteOr0(texelFetch(colorTex, p, 0).rgb);
    c = (pc.flags & FLAG_COLOR_SRGB) != 0u ? clamp(c, 0.0, 1.0) : linearToSrgb(clamp(c, 0.0, 1.0));
    vec3 a = clamp(finiteOr0(texelFetch(albedoTex, p, 0).rgb), 0.0, 1.0);
    vec3 n = clamp(finiteOr0(texelFetch(normalTex, p, 0).xyz), -1.0, 1.0);
    float d = texelFetch(depthTex, p, 0).r;
    d = isnan(d) || isinf(d) ? 1.0 : clamp(d, 0.0, 1.0);
    uint plane = pc.tensorWidth * pc.tensorHeight, i = t.y * pc.tensorWidth + t.x;
    for (uint k = 0u; k < 3u; ++k) {
        color[k * plane + i] = TENSOR_T(c[k]);
        albedo[k * plane + i] = TENSOR_T(a[k]);
        normal[k * plane + i] = TENSOR_T(n[k]);
    }
    depth[i] = TENSOR_T(d);
}
