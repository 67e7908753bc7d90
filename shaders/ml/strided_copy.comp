#version 460
// Generic strided copy: out[outBase + sum(i_d * outStride_d)] = in[inBase + sum(i_d * inStride_d)]
// over a box of up to 8 dims (detail::kMaxCopyRank), one invocation per element, dims outermost first and ordered by
// the planner so consecutive invocations write consecutive output elements. Transpose, slice,
// concat, split, depth-to-space and space-to-depth are all such copies (src/ops/strided_copy.h).
//
// Strides are uint: a negative input stride (slice with a negative step) is its two's complement,
// and index arithmetic wraps mod 2^32, which lands on the right element because every
// addressed element is below 2^32.
//
// VEC4: the planner proved the innermost dim contiguous on both sides and every base/stride a
// multiple of 4, and expressed the view in units of 4 elements: one invocation moves 4.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint RANK = 8;
layout(constant_id = 4) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 5) const uint OUT_DTYPE = DTYPE_F32;
layout(constant_id = 6) const bool VEC4 = false;

#define MAX_RANK 8  // 5 + 3 * 8 push words

layout(push_constant, std430) uniform Push {
    uint count;  // invocations (elements, or groups of 4 when VEC4)
    uint inSlot;
    uint outSlot;
    uint inBase;
    uint outBase;
    uint sizes[MAX_RANK];
    uint inStrides[MAX_RANK];
    uint outStrides[MAX_RANK];
} pc;

vec4 loadVec4(uint slot, uint index) {
#ifdef HAS_F16
    if (IN_DTYPE == DTYPE_F16) return vec4(heapF16x4[slot].v[index]);
#endif
    return heapVec4[slot].v[index];
}

void storeVec4(uint slot, uint index, vec4 value) {
#ifdef HAS_F16
    if (OUT_DTYPE == DTYPE_F16) { heapF16x4[slot].v[index] = f16vec4(value); return; }
#endif
    heapVec4[slot].v[index] = value;
}

void main() {
    uint id = linearInvocation();
    if (id >= pc.count) return;
    uint rem = id;
    uint inIndex = pc.inBase;
    uint outIndex = pc.outBase;
    [[unroll]] for (int d = int(RANK) - 1; d >= 0; --d) {
        uint i = d == 0 ? rem : rem % pc.sizes[d];
        rem /= pc.sizes[d];
        inIndex += i * pc.inStrides[d];
        outIndex += i * pc.outStrides[d];
    }
    if (VEC4) storeVec4(pc.outSlot, outIndex, loadVec4(pc.inSlot, inIndex));
    else storeElem(pc.outSlot, OUT_DTYPE, outIndex, loadElem(pc.inSlot, IN_DTYPE, inIndex));
}
