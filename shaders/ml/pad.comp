#version 460
// Pad (ONNX semantics): one invocation per output element. Per dim the output index maps to
// input index i = o - padBegin; outside [0, inSize) it is the constant (CONSTANT), clamped
// (EDGE) or mirrored about the border element (REFLECT; the planner checked pads < inSize, so
// one mirror suffices).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint RANK = 5;
layout(constant_id = 4) const uint MODE = 0;  // mlplugin::PadMode
layout(constant_id = 5) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 6) const uint OUT_DTYPE = DTYPE_F32;

#define MODE_CONSTANT 0u
#define MODE_EDGE 1u
#define MODE_REFLECT 2u
#define MAX_RANK 5
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
    Dim dims[MAX_RANK];
} pc;

void main() {
    uint id = linearInvocation();
    if (id >= pc.count) return;
    uint rem = id;
    uint inIndex = 0;
    uint outIndex = 0;
    bool inside = true;
    [[unroll]] for (int d = int(RANK) - 1; d >= 0; --d) {
        Dim dim = pc.dims[d];
        uint o = d == 0 ? rem : rem % dim.outSize;
        rem /= dim.outSize;
        outIndex += o * dim.outStride;
        int i = int(o) - int(dim.padBegin);
        int last = int(dim.inSize) - 1;
        if (i < 0 || i > last) {
            if (MODE == MODE_CONSTANT) inside = false;
            else if (MODE == MODE_EDGE) i = clamp(i, 0, last);
            else i = i < 0 ? -i : 2 * last - i;
        }
        inIndex += uint(max(i, 0)) * dim.inStride;
    }
    float v = inside ? loadElem(IN_SLOT, IN_DTYPE, inIndex) : pc.value;
    storeElem(OUT_SLOT, OUT_DTYPE, outIndex, v);
}
