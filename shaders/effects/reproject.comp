#version 460
// Upscaler pass 1, at render resolution: per render pixel, the motion of the nearest surface in
// its 3x3 neighbourhood (so thin foreground edges carry their own motion), the linear depth for
// the next frame, and whether the history at the reprojected position shows the same surface
// (disocclusion test against the previous frame's linear depth).
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "upscaler_common.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D depthTex;       // application, nearest
layout(set = 0, binding = 1) uniform sampler2D motionTex;      // application, nearest
layout(set = 0, binding = 2) uniform sampler2D prevLinearDepth;  // effect, previous frame
layout(set = 0, binding = 3, r32f) uniform writeonly image2D linearDepthOut;
layout(set = 0, binding = 4, rgba16f) uniform writeonly image2D reprojectionOut;  // xy motion (render px), z history confidence
layout(push_constant) uniform Push { ReprojectPush pc; };

// The application's depth as 0 near .. 1 far (non-finite counts as far; inverted depth flipped).
float nearToFar(float d) {
    if (isnan(d) || isinf(d)) d = 1.0;
    d = clamp(d, 0.0, 1.0);
    return (pc.flags & FLAG_DEPTH_INVERTED) != 0u ? 1.0 - d : d;
}

// Distance along the view axis; increases with nearToFar(d), so the nearest sample can be found
// on the device depth and only the centre's needs the division.
float linearDepth(float d) {
    d = nearToFar(d);
    if (pc.cameraFar <= 0.0) return pc.cameraNear / max(1.0 - d, 1e-7);
    return pc.cameraNear * pc.cameraFar / max(pc.cameraFar - d * (pc.cameraFar - pc.cameraNear), 1e-7);
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(pc.renderSize);
    if (p.x >= size.x || p.y >= size.y) return;

    float centreDepth = texelFetch(depthTex, p, 0).r;
    float z = linearDepth(centreDepth);
    ivec2 nearest = p;
    float nearestD = nearToFar(centreDepth);
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            ivec2 q = clamp(p + ivec2(dx, dy), ivec2(0), size - 1);
            float dq = nearToFar(texelFetch(depthTex, q, 0).r);
            if (dq < nearestD) {
                nearestD = dq;
                nearest = q;
            }
        }
    vec2 motion = texelFetch(motionTex, nearest, 0).rg * pc.motionScale;
    if (any(isnan(motion)) || any(isinf(motion))) motion = vec2(0.0);
    imageStore(linearDepthOut, p, vec4(z));

    // Where this sample was in the previous frame's (jittered) image.
    float confidence = 0.0;
    vec2 prevPos = vec2(p) + 0.5 - pc.jitter + motion + pc.prevJitter;
    vec2 prevSize = vec2(pc.prevRenderSize);
    if ((pc.flags & FLAG_HISTORY_VALID) != 0u && all(greaterThanEqual(prevPos, vec2(0.0))) && all(lessThan(prevPos, prevSize))) {
        ivec2 base = ivec2(floor(prevPos - 0.5));
        for (int dy = 0; dy <= 1; ++dy)
            for (int dx = 0; dx <= 1; ++dx) {
                ivec2 q = clamp(base + ivec2(dx, dy), ivec2(0), ivec2(pc.prevRenderSize) - 1);
                float zp = texelFetch(prevLinearDepth, q, 0).r;
                float relative = abs(zp - z) / max(min(zp, z), 1e-6);
                confidence = max(confidence, 1.0 - smoothstep(pc.depthTolerance, 2.0 * pc.depthTolerance, relative));
            }
    }
    imageStore(reprojectionOut, p, vec4(motion, confidence, 0.0));
}
