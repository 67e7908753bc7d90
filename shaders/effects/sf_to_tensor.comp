#version 460
// Single-frame upscaler, step 1: the render-size region of the colour -> the network input
// 'color' [1, 3, H, W] as sRGB values (the network's space), H x W = the maximum render size;
// pixels beyond this frame's render size repeat its edge.
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "single_frame_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D colorTex;
layout(set = 0, binding = 1, std430) writeonly buffer Input { TENSOR_T tensor[]; };
layout(push_constant) uniform Push { SingleFramePush pc; };

void main() {
    uvec2 t = gl_GlobalInvocationID.xy;
    if (t.x >= pc.tensorWidth || t.y >= pc.tensorHeight) return;
    ivec2 p = min(ivec2(t), ivec2(pc.renderWidth, pc.renderHeight) - 1);
    vec3 c = linearToSrgb(toWorkingSpace(texelFetch(colorTex, p, 0).rgb, pc.flags, pc.exposure));
    uint plane = pc.tensorWidth * pc.tensorHeight, i = t.y * pc.tensorWidth + t.x;
    tensor[i] = TENSOR_T(c.r);
    tensor[plane + i] = TENSOR_T(c.g);
    tensor[2u * plane + i] = TENSOR_T(c.b);
}
