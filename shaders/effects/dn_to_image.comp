#version 460
// Denoiser, step 2: the network output [1, 3, H, W] (sRGB values) -> the output image.
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "denoiser_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

#ifndef OUTPUT_FORMAT
#define OUTPUT_FORMAT rgba16f
#endif

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, std430) readonly buffer Output { TENSOR_T tensor[]; };
layout(set = 0, binding = 1, OUTPUT_FORMAT) uniform writeonly image2D outputImage;
layout(push_constant) uniform Push { DenoiserPush pc; };

void main() {
    ivec2 o = ivec2(gl_GlobalInvocationID.xy);
    if (o.x >= int(pc.width) || o.y >= int(pc.height)) return;
    uint plane = pc.tensorWidth * pc.tensorHeight, i = uint(o.y) * pc.tensorWidth + uint(o.x);
    vec3 c = vec3(float(tensor[i]), float(tensor[plane + i]), float(tensor[2u * plane + i]));
    c = finite3(c) ? clamp(c, vec3(0.0), vec3(1.0)) : vec3(0.0);
    if ((pc.flags & FLAG_COLOR_SRGB) == 0u) c = srgbToLinear(c);
    imageStore(outputImage, o, vec4(c, 1.0));
}
