#version 450
#extension GL_GOOGLE_include_directive : require
// Batch normalization, step 1: folds the per-channel statistics into one multiply-add,
//   scale' = scale / sqrt(variance + epsilon),   bias' = bias - mean * scale'
// written as fp32 [scale'(C), bias'(C)] at the start of DST_SLOT: the persistent resource at
// initialization when the plugin owns all four tensors, otherwise the temporary resource at
// every execution. Each tensor is read from its input slot, or from the persistent resource
// (at an element offset) where the initializer packed an owned one.
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const float EPSILON = 1e-5;
layout(constant_id = 4) const uint DST_SLOT = TEMPORARY_SLOT;
// Per tensor (mean, variance, scale, bias): slot, data type, element base, channel stride.
layout(constant_id = 5) const uint MEAN_SLOT = 1u;
layout(constant_id = 6) const uint MEAN_DTYPE = DTYPE_F32;
layout(constant_id = 7) const uint MEAN_BASE = 0u;
layout(constant_id = 8) const uint MEAN_STRIDE = 1u;
layout(constant_id = 9) const uint VAR_SLOT = 2u;
layout(constant_id = 10) const uint VAR_DTYPE = DTYPE_F32;
layout(constant_id = 11) const uint VAR_BASE = 0u;
layout(constant_id = 12) const uint VAR_STRIDE = 1u;
layout(constant_id = 13) const uint SCALE_SLOT = 3u;
layout(constant_id = 14) const uint SCALE_DTYPE = DTYPE_F32;
layout(constant_id = 15) const uint SCALE_BASE = 0u;
layout(constant_id = 16) const uint SCALE_STRIDE = 1u;
layout(constant_id = 17) const uint BIAS_SLOT = 4u;
layout(constant_id = 18) const uint BIAS_DTYPE = DTYPE_F32;
layout(constant_id = 19) const uint BIAS_BASE = 0u;
layout(constant_id = 20) const uint BIAS_STRIDE = 1u;

layout(push_constant) uniform Push {
    uint channels;
} pc;

void main() {
    uint c = linearInvocation();
    if (c >= pc.channels) return;
    float mean = loadElem(MEAN_SLOT, MEAN_DTYPE, MEAN_BASE + c * MEAN_STRIDE);
    float variance = loadElem(VAR_SLOT, VAR_DTYPE, VAR_BASE + c * VAR_STRIDE);
    float scale = loadElem(SCALE_SLOT, SCALE_DTYPE, SCALE_BASE + c * SCALE_STRIDE);
    float bias = loadElem(BIAS_SLOT, BIAS_DTYPE, BIAS_BASE + c * BIAS_STRIDE);
    float folded = scale * inversesqrt(variance + EPSILON);
    heapF32[DST_SLOT].v[c] = folded;
    heapF32[DST_SLOT].v[pc.channels + c] = bias - mean * folded;
}
