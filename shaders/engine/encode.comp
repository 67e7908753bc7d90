#version 460
// Final pass (headless): output-resolution colour -> sRGB-encoded RGBA8 storage image for
// read-back. Same result as encode.frag on an sRGB target, but in compute: on compute-first GPUs
// (H100) a fullscreen raster pass costs ~10x more than this dispatch.
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"
#include "srgb.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D target;
layout(push_constant) uniform Push { UpscalePush pc; };  // dst size = src size

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(pc.dstWidth) || p.y >= int(pc.dstHeight)) return;
    vec3 c = clamp(texelFetch(source, p, 0).rgb, 0.0, 1.0);
    imageStore(target, p, vec4(linearToSrgb(c), 1.0));
}
