#version 460
// Single-frame upscaler, step 2: the network output [1, 3, sH, sW] (sRGB values) -> the output
// image. Its valid region is scale x this frame's render size; it is resampled bilinearly to the
// display size (an identity when the display is exactly scale x the render size).
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "single_frame_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

#ifndef OUTPUT_FORMAT
#define OUTPUT_FORMAT rgba16f
#endif

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer Output { TENSOR_T tensor[]; };
layout(set = 0, binding = 1, OUTPUT_FORMAT) uniform writeonly image2D outputImage;
layout(push_constant) uniform Push { SingleFramePush pc; };

vec3 texel(ivec2 q, ivec2 valid) {
    q = clamp(q, ivec2(0), valid - 1);
    uint w = pc.tensorWidth * pc.scale, plane = w * pc.tensorHeight * pc.scale, i = uint(q.y) * w + uint(q.x);
    vec3 c = vec3(float(tensor[i]), float(tensor[plane + i]), float(tensor[2u * plane + i]));
    return finite3(c) ? clamp(c, vec3(0.0), vec3(1.0)) : vec3(0.0);
}

void main() {
    ivec2 o = ivec2(gl_GlobalInvocationID.xy);
    if (o.x >= int(pc.displayWidth) || o.y >= int(pc.displayHeight)) return;
    ivec2 valid = ivec2(pc.renderWidth, pc.renderHeight) * int(pc.scale);
    if (valid == ivec2(pc.displayWidth, pc.displayHeight)) {  // the usual case: an identity, one texel (3 reads, not 12)
        imageStore(outputImage, o, vec4(fromWorkingSpace(srgbToLinear(texel(o, valid)), pc.flags, pc.exposure), 1.0));
        return;
    }
    vec2 pos = (vec2(o) + 0.5) * vec2(valid) / vec2(pc.displayWidth, pc.displayHeight) - 0.5;
    ivec2 b = ivec2(floor(pos));
    vec2 f = pos - vec2(b);
    vec3 c = mix(mix(texel(b, valid), texel(b + ivec2(1, 0), valid), f.x), mix(texel(b + ivec2(0, 1), valid), texel(b + ivec2(1, 1), valid), f.x), f.y);
    imageStore(outputImage, o, vec4(fromWorkingSpace(srgbToLinear(c), pc.flags, pc.exposure), 1.0));
}
