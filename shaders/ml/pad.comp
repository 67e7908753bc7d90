#version 460
// Pad (ONNX semantics): one invocation per output element. Per dim the output index maps to
// input index i = o - padBegin; outside [0, inSize) it is the constant (CONSTANT), clamped
// (EDGE), mirrored about the border element (REFLECT; the planner checked pads < inSize, so
// one mirror suffices) or taken modulo inSize (WRAP).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "loop_dims.glsl"

// Dims right-aligned in 8 (mlplugin::kMaxTensorRank): the inner 5 in push constants, the outer
// 3 (tensors above rank 5) as specialization constants (loop_dims.glsl).
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint RANK = 5;
layout(constant_id = 4) const uint MODE = 0;  // mlplugin::PadMode
layout(constant_id = 5) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 6) const uint OUT_DTYPE = DTYPE_F32;
OUTER_ARRAY(OUTER_OUT_SIZE, 7, 8, 9, 1u)
OUTER_ARRAY(OUTER_IN_SIZE, 10, 11, 12, 1u)
OUTER_ARRAY(OUTER_PAD_BEGIN, 13, 14, 15, 0u)
OUTER_ARRAY(OUTER_IN_STRIDE, 16, 17, 18, 0u)
OUTER_ARRAY(OUTER_OUT_STRIDE, 19, 20, 21, 0u)

#define MODE_CONSTANT 0u
#define MODE_EDGE 1u
#define MODE_REFLECT 2u
#define MODE_WRAP 3u
#define IN_SLOT 0u
#define OUT_SLOT 1u

struct Dim {
    uint outSize;
    uint inSize;
    uint padBegin;
    uint inStride;
    uint outStride;
};

layout(push_constant, std430) uniform Push {
    uint count;
    float value;
    Dim dims[PUSH_DIMS];
} pc;

uint rem;
uint inIndex = 0u;
uint outIndex = 0u;
bool inside = true;

// Consumes one dim's coordinate from `rem`.
void walk(Dim dim) {
    uint o = rem % dim.outSize;
    rem /= dim.outSize;
    outIndex += o * dim.outStride;
    int i = int(o) - int(dim.padBegin);
    int last = int(dim.inSize) - 1;
    if (i < 0 || i > last) {
        if (MODE == MODE_CONSTANT) inside = false;
        else if (MODE == MODE_EDGE) i = clamp(i, 0, last);
        // In unsigned arithmetic: GLSL leaves % undefined for a negative operand, and the H100's
        // driver returned wrong indices for it (lavapipe's did not). i >= -padBegin, so adding
        // a multiple of inSize above padBegin makes it non-negative without changing it modulo inSize.
        else if (MODE == MODE_WRAP) i = int(uint(i + int(dim.inSize * (dim.padBegin / dim.inSize + 1u))) % dim.inSize);
        else i = i < 0 ? -i : 2 * last - i;
    }
    inIndex += uint(max(i, 0)) * dim.inStride;
}

void main() {
    uint id = linearInvocation();
    if (id >= pc.count) return;
    rem = id;
    [[unroll]] for (int d = PUSH_DIMS - 1; d >= max(PUSH_DIMS - int(RANK), 0); --d) walk(pc.dims[d]);
    [[unroll]] for (int d = OUTER_DIMS - 1; d >= LOOP_DIMS - int(RANK); --d)
        walk(Dim(OUTER_OUT_SIZE(d), OUTER_IN_SIZE(d), OUTER_PAD_BEGIN(d), OUTER_IN_STRIDE(d), OUTER_OUT_STRIDE(d)));
    float v = inside ? loadElem(IN_SLOT, IN_DTYPE, inIndex) : pc.value;
    storeElem(OUT_SLOT, OUT_DTYPE, outIndex, v);
}
