#version 450
#extension GL_GOOGLE_include_directive : require
// Batch normalization, step 2: y = activation(x * scale'[c] + bias'[c]) per element, with the
// folded per-channel constants from batchnorm_fold.comp (fp32 [scale'(C), bias'(C)] at the start
// of FOLDED_SLOT). One output element per invocation; sizes and strides right-aligned in 8 dims
// (mlplugin::kMaxTensorRank; 2 + 3 * 8 push words).
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const int CHANNEL_DIM = 1;  // of the 8 right-aligned dims
layout(constant_id = 4) const uint DTYPE_IN = DTYPE_F32;
layout(constant_id = 5) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 6) const uint OUT_SLOT = 5u;
layout(constant_id = 7) const uint FOLDED_SLOT = TEMPORARY_SLOT;
layout(constant_id = 8) const uint ACT_TYPE = ACT_NONE;
layout(constant_id = 9) const float ACT_ALPHA = 0.0;
layout(constant_id = 10) const float ACT_BETA = 0.0;

layout(push_constant) uniform Push {
    uint count;
    uint channels;
    uint sizes[8];
    uint strideIn[8];
    uint strideOut[8];
} pc;

void main() {
    uint index = linearInvocation();
    if (index >= pc.count) return;
    uint offsetIn = 0u, offsetOut = 0u, channel = 0u;
    uint rest = index;
    [[unroll]] for (int d = 7; d >= CHANNEL_DIM - 1; --d) {  // dims before N have size 1
        uint coord = rest % pc.sizes[d];
        rest /= pc.sizes[d];
        if (d == CHANNEL_DIM) channel = coord;
        offsetIn += coord * pc.strideIn[d];
        offsetOut += coord * pc.strideOut[d];
    }
    float scale = heapF32[FOLDED_SLOT].v[channel];
    float bias = heapF32[FOLDED_SLOT].v[pc.channels + channel];
    float y = loadElem(0u, DTYPE_IN, offsetIn) * scale + bias;
    storeElem(OUT_SLOT, DTYPE_OUT, offsetOut, applyActivation(ACT_TYPE, ACT_ALPHA, ACT_BETA, y));
}
