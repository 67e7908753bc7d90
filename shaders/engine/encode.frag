#version 460
// Final pass: output-resolution colour into the presentable / read-back 8-bit target.
// sRGB targets encode in hardware; for UNORM targets the shader applies the sRGB curve.
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(set = 0, binding = 0) uniform sampler2D source;
layout(push_constant) uniform Push { EncodePush pc; };
layout(location = 0) in vec2 inUv;
layout(location = 0) out vec4 outColor;

vec3 linearToSrgb(vec3 c) {
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

void main() {
    vec3 c = clamp(texelFetch(source, ivec2(gl_FragCoord.xy), 0).rgb, 0.0, 1.0);
    outColor = vec4(pc.applySrgb != 0u ? linearToSrgb(c) : c, 1.0);
}
