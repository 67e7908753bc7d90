// The temporal network's tensors as storage buffers: fp32, or fp16 with TENSOR_F16 (16-bit
// storage). Layout: NCHW, pixel-unshuffled by 2 (upscaler_shared.h, TENSOR_ALIGN).
#ifndef EFFECTS_TENSOR_BUFFER_GLSL
#define EFFECTS_TENSOR_BUFFER_GLSL
#ifdef TENSOR_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define TENSOR_T float16_t
#else
#define TENSOR_T float
#endif

// Element index of channel c of display pixel (x, y) in a tensor of (padded) width w, height h.
uint unshuffledIndex(uint c, uvec2 xy, uint w, uint h) {
    uint k = c * 4u + (xy.y & 1u) * 2u + (xy.x & 1u);
    return (k * (h / 2u) + xy.y / 2u) * (w / 2u) + xy.x / 2u;
}
#endif
