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

// Where the values of display pixel xy live in a tensor of `channels` per display pixel, (padded)
// display width w and height h, unshuffled by r, stored NHWC or NCHW: channel c is element
// base + c * stride. (Computed once per pixel: r is not a compile-time constant, and the
// divisions would otherwise be repeated per channel.)
struct TensorPixel {
    uint base;
    uint stride;
};
TensorPixel tensorPixel(uvec2 xy, uint channels, uint w, uint h, uint r, bool nhwc) {
    uint sub = (xy.y % r) * r + xy.x % r;
    uint pixel = (xy.y / r) * (w / r) + xy.x / r;
    uint plane = (h / r) * (w / r);
    return nhwc ? TensorPixel(pixel * channels * r * r + sub, r * r) : TensorPixel(sub * plane + pixel, r * r * plane);
}
#endif
