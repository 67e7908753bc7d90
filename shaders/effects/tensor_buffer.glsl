// The temporal network's tensors as storage buffers: fp32, or fp16 with TENSOR_F16 (16-bit
// storage). Layout: NCHW or NHWC, pixel-unshuffled by r (upscaler_shared.h).
#ifndef EFFECTS_TENSOR_BUFFER_GLSL
#define EFFECTS_TENSOR_BUFFER_GLSL
#ifdef TENSOR_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define TENSOR_T float16_t
#define TENSOR_QUAD uvec4  // 16 bytes: 8 fp16 values, packed in pairs
#define TENSOR_QUAD_VALUES 8u
#else
#define TENSOR_T float
#define TENSOR_QUAD vec4
#define TENSOR_QUAD_VALUES 4u
#endif

// Where the values of display pixel xy live in a tensor of `channels` per display pixel, (padded)
// display width w and height h, unshuffled by r, stored NHWC or NCHW (FLAG_TENSORS_NHWC in
// `flags`), in the model's channel order or pixel-major (FLAG_TENSORS_PIXEL_MAJOR, NHWC only:
// the display pixel's values contiguous, see upscaler_shared.h): value c is element
// base + c * stride. (Computed once per pixel: r is not a compile-time constant, and the
// divisions would otherwise be repeated per channel.)
struct TensorPixel {
    uint base;
    uint stride;
};
TensorPixel tensorPixel(uvec2 xy, uint channels, uint w, uint h, uint r, uint flags) {
    uint sub = (xy.y % r) * r + xy.x % r;
    uint pixel = (xy.y / r) * (w / r) + xy.x / r;
    uint plane = (h / r) * (w / r);
    if ((flags & FLAG_TENSORS_NHWC) == 0u) return TensorPixel(sub * plane + pixel, r * r * plane);
    if ((flags & FLAG_TENSORS_PIXEL_MAJOR) != 0u) return TensorPixel((pixel * r * r + sub) * channels, 1u);
    return TensorPixel(pixel * channels * r * r + sub, r * r);
}
#endif
