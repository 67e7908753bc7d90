// The temporal network's tensors as storage buffers: fp32, or fp16 with TENSOR_F16 (16-bit
// storage). Layout: NCHW, pixel-unshuffled by r (upscaler_shared.h).
#ifndef EFFECTS_TENSOR_BUFFER_GLSL
#define EFFECTS_TENSOR_BUFFER_GLSL
#ifdef TENSOR_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define TENSOR_T float16_t
#else
#define TENSOR_T float
#endif

// Element index of channel c of display pixel (x, y) in a tensor of (padded) width w, height h,
// unshuffled by r.
uint unshuffledIndex(uint c, uvec2 xy, uint w, uint h, uint r) {
    uint k = (c * r + xy.y % r) * r + xy.x % r;
    return (k * (h / r) + xy.y / r) * (w / r) + xy.x / r;
}
#endif
