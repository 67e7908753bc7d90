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
// base + c * stride. (Computed once per pixel rather than per channel.) r is 1, 2 or 4 (the
// effect tries no other), so the divisions by it are shifts and masks: r is no compile-time
// constant, and a division by a run-time integer costs a GPU a dozen instructions, among them a
// reciprocal and two conversions on the slow special-function units.
struct TensorPixel {
    uint base;
    uint stride;
};
TensorPixel tensorPixel(uvec2 xy, uint channels, uint w, uint h, uint r, uint flags) {
    const uint shift = uint(findLSB(r)), mask = r - 1u;
    uint sub = ((xy.y & mask) << shift) + (xy.x & mask);
    uint pixel = (xy.y >> shift) * (w >> shift) + (xy.x >> shift);
    uint plane = (h >> shift) * (w >> shift);
    if ((flags & FLAG_TENSORS_NHWC) == 0u) return TensorPixel(sub * plane + pixel, r * r * plane);
    if ((flags & FLAG_TENSORS_PIXEL_MAJOR) != 0u) return TensorPixel((pixel * r * r + sub) * channels, 1u);
    return TensorPixel(pixel * channels * r * r + sub, r * r);
}
#endif
