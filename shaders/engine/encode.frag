#version 460
// Final pass (windowed): output-resolution colour into the swapchain image, which only supports
// attachment writes. sRGB targets encode in hardware; for UNORM ones the shader applies the curve.
// Headless targets use encode.comp (compute is much faster than raster on compute-first GPUs).
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Push { EncodePush pc; };
layout(location = 0) in vec2 inUv;
layout(location = 0) out vec4 outColor;

#include "srgb.glsl"

void main() {
    vec3 c = clamp(texelFetch(source, ivec2(gl_FragCoord.xy), 0).rgb, 0.0, 1.0);
    outColor = vec4(pc.applySrgb != 0u ? linearToSrgb(c) : c, 1.0);
}
