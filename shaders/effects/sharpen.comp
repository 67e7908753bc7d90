#version 460
// Upscaler pass 3 (optional): robust contrast-adaptive sharpening of the resolved colour (after
// AMD's RCAS): a negative cross-shaped lobe limited so that no channel leaves the range of its
// four neighbours, scaled by pc.sharpness.
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "upscaler_common.glsl"

#ifndef OUTPUT_FORMAT
#define OUTPUT_FORMAT rgba16f
#endif

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D resolvedTex;  // effect: this frame's history (working space)
layout(set = 0, binding = 1, OUTPUT_FORMAT) uniform writeonly image2D outputImage;
layout(push_constant) uniform Push { ResolvePush pc; };

vec3 at(ivec2 p) {
    return texelFetch(resolvedTex, clamp(p, ivec2(0), ivec2(pc.displaySize) - 1), 0).rgb;
}

void main() {
    ivec2 o = ivec2(gl_GlobalInvocationID.xy);
    if (o.x >= int(pc.displaySize.x) || o.y >= int(pc.displaySize.y)) return;
    vec3 e = at(o), b = at(o + ivec2(0, -1)), d = at(o + ivec2(-1, 0)), f = at(o + ivec2(1, 0)), h = at(o + ivec2(0, 1));
    vec3 mn = min(min(b, d), min(f, h)), mx = max(max(b, d), max(f, h));
    vec3 hitMin = min(mn, e) / max(4.0 * max(mx, e), vec3(1e-5));
    vec3 hitMax = (1.0 - max(mx, e)) / min(4.0 * min(mn, e) - 4.0, vec3(-1e-5));
    vec3 lobeRgb = max(-hitMin, hitMax);
    const float limit = 0.25 - 1.0 / 16.0;
    float lobe = max(-limit, min(max(lobeRgb.r, max(lobeRgb.g, lobeRgb.b)), 0.0)) * pc.sharpness;
    vec3 color = (lobe * (b + d + f + h) + e) / (4.0 * lobe + 1.0);
    imageStore(outputImage, o, vec4(fromWorkingSpace(color, pc.flags, pc.exposure), 1.0));
}
