#version 460
// G-buffer pass, vertex stage: world-space static geometry, current and previous clip
// positions for motion vectors.
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(push_constant) uniform Push { GBufferPush pc; };

layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec3 inNormal;
layout(location = 2) in vec2 inUv;
layout(location = 3) in uint inMaterial;
layout(location = 4) in vec4 inColor;  // R8G8B8A8_UNORM

layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec2 outUv;
layout(location = 2) flat out uint outMaterial;
layout(location = 3) out vec4 outColor;  // procedural tint, or glTF COLOR_0 (white without)
layout(location = 4) out vec4 outPixels;      // this position, homogeneous render pixels (x, y, 0, w)
layout(location = 5) out vec4 outPrevPixels;  // the previous one, the same way (GBufferPush)

void main() {
    vec4 world = vec4(inPosition, 1.0);
    vec4 clip = pc.viewProj * world;
    outPixels = vec4((clip.xy + clip.w) * pc.pixelScale, 0.0, clip.w);
    outPrevPixels = vec4(dot(pc.prevPixelsRows[0], world), dot(pc.prevPixelsRows[1], world), 0.0, dot(pc.prevPixelsRows[2], world));
    outNormal = inNormal;
    outUv = inUv;
    outMaterial = inMaterial;
    outColor = inColor;
    gl_Position = clip;
}
