#version 460
// G-buffer pass, background: one far-plane triangle drawn after the scene with depth test
// LESS_OR_EQUAL, so it covers exactly the pixels nothing was drawn on. Their motion is that of
// directions at infinity. The reprojection is a homography of screen positions, so interpolating
// its homogeneous result linearly across the triangle is exact.
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(push_constant) uniform Push { SkyMotionPush pc; };
layout(location = 0) noperspective out vec4 outPrevPixels;
layout(location = 1) noperspective out vec2 outPixels;  // this frame's render pixels (see GBufferPush)

void main() {
    vec2 ndc = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2) * 2.0 - 1.0;
    outPrevPixels = pc.reprojection * vec4(ndc, 1.0, 1.0);
    outPixels = (ndc + 1.0) * pc.pixelScale;
    gl_Position = vec4(ndc, 1.0, 1.0);
}
