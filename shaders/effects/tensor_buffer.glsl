// The temporal network's tensors as storage buffers: fp32, or fp16 with TENSOR_F16 (16-bit
// storage). Layout: NCHW or NHWC, pixel-unshuffled by r (upscaler_shared.h).
#ifndef EFFECTS_TENSOR_BUFFER_GLSL
#define EFFECTS_TENSOR_BUFFER_GLSL
#ifdef TENSOR_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define TENSOR_T float16_t
#else
#define TENSOR_T float
#endif

// Element index of channel c (of `channels` per display pixel) of display pixel (x, y) in a tensor
// of (padded) display width w, height h, unshuffled by r, stored NHWC or NCHW.
uint unshuffledIndex(uint c, uint channels, uvec2 xy, uint w, uint h, uint r, bool nhwc) {
    uint k = (c * r + xy.y % r) * r + xy.x % r;
    uint pixel = (xy.y / r) * (w / r) + xy.x / r;
    return nhwc ? pixel * channels * r * r + k : k * (h / r) * (w / r) + pixel;
}
#endif
