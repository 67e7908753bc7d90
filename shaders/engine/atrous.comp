#version 460
// One iteration of the edge-avoiding a-trous wavelet filter (Dammertz et al. 2010): the 5x5
// B3-spline kernel (1/16, 1/4, 3/8, 1/4, 1/16) with taps `step` pixels apart, each tap weighted
// by edge-stopping functions on colour, normal and depth. Five iterations with step 1, 2, 4, 8,
// 16 cover a 61x61 footprint at 25 taps each.
//
// Albedo is a fourth edge-stopping feature (as in later a-trous denoisers): the scene's
// pixel-sized texture (checkers, glyphs) differs in albedo, noise does not, so texture edges stop
// the filter while the colour sigma can stay wide enough to average one-sample shadow noise.
// Sky pixels (depth 1) pass through untouched and are never taps of surface pixels.
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D source;  // all nearest
layout(set = 0, binding = 1) uniform sampler2D gAlbedo;
layout(set = 0, binding = 2) uniform sampler2D gNormal;
layout(set = 0, binding = 3) uniform sampler2D gDepth;
layout(set = 0, binding = 4, rgba16f) uniform writeonly image2D destination;

layout(push_constant) uniform Push { AtrousPush pc; };

const float kernel[3] = float[](3.0 / 8.0, 1.0 / 4.0, 1.0 / 16.0);

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(pc.width, pc.height);
    if (p.x >= size.x || p.y >= size.y) return;
    vec3 color = texelFetch(source, p, 0).rgb;
    float depth = texelFetch(gDepth, p, 0).r;
    if (depth >= 1.0) {
        imageStore(destination, p, vec4(color, 1.0));
        return;
    }
    vec3 albedo = texelFetch(gAlbedo, p, 0).rgb;
    vec3 normal = texelFetch(gNormal, p, 0).xyz;
    // Depth is not linear in distance: compare against the depth the local plane predicts
    // (slope from central differences, as in SVGF), so slanted surfaces are not cut into bands.
    vec2 slope = 0.5 * vec2(texelFetch(gDepth, min(p + ivec2(1, 0), size - 1), 0).r -
                            texelFetch(gDepth, max(p - ivec2(1, 0), ivec2(0)), 0).r,
                            texelFetch(gDepth, min(p + ivec2(0, 1), size - 1), 0).r -
                            texelFetch(gDepth, max(p - ivec2(0, 1), ivec2(0)), 0).r);

    vec3 sum = vec3(0);
    float weightSum = 0.0;
    for (int j = -2; j <= 2; ++j) {
        for (int i = -2; i <= 2; ++i) {
            ivec2 q = p + ivec2(i, j) * int(pc.step);
            if (any(lessThan(q, ivec2(0))) || any(greaterThanEqual(q, size))) continue;
            float qDepth = texelFetch(gDepth, q, 0).r;
            if (qDepth >= 1.0) continue;
            vec3 qColor = texelFetch(source, q, 0).rgb;
            vec3 dc = qColor - color;
            vec3 dn = texelFetch(gNormal, q, 0).xyz - normal;
            vec3 da = texelFetch(gAlbedo, q, 0).rgb - albedo;
            float dz = abs(qDepth - depth) / (pc.sigmaDepth * abs(dot(slope, vec2(i, j) * float(pc.step))) + 1e-6);
            float w = kernel[abs(i)] * kernel[abs(j)] *
                      exp(-dot(dc, dc) / pc.sigmaColor2 - dot(dn, dn) / pc.sigmaNormal2 - dot(da, da) / pc.sigmaAlbedo2 - dz);
            sum += w * qColor;
            weightSum += w;
        }
    }
    imageStore(destination, p, vec4(sum / weightSum, 1.0));  // the centre tap has weight > 0
}
