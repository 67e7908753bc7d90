// Shared by the image <-> tensor conversions of bridge::MlPass. Tensor elements are fp32, or
// fp16 in the _f16 variants (HAS_F16: 16-bit storage); the element type is a per-tensor value.
#ifndef BRIDGE_TENSOR_IO_GLSL
#define BRIDGE_TENSOR_IO_GLSL

#extension GL_EXT_scalar_block_layout : require
#ifdef HAS_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

#define DTYPE_F32 0u
#define DTYPE_F16 1u
#define ENCODING_LINEAR 0u
#define ENCODING_SRGB 1u

// The exact sRGB transfer functions (IEC 61966-2-1), not a gamma approximation: the networks
// are trained on 8-bit sRGB images encoded with these.
vec4 linearToSrgb(vec4 c) {
    vec3 rgb = mix(c.rgb * 12.92, 1.055 * pow(max(c.rgb, vec3(0.0)), vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c.rgb));
    return vec4(rgb, c.a);
}

vec4 srgbToLinear(vec4 c) {
    vec3 rgb = mix(c.rgb / 12.92, pow((max(c.rgb, vec3(0.04045)) + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c.rgb));
    return vec4(rgb, c.a);
}

#endif
