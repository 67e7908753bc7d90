#version 460
// Global pooling (window = the whole H x W plane): one workgroup per (n, c) plane, its
// invocations striding over the plane and reducing in shared memory. A per-output loop would
// leave all but N*C invocations idle on a 4K image.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint TYPE = 0;  // mlplugin::PoolingType
layout(constant_id = 4) const uint P = 2;
layout(constant_id = 5) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 6) const uint OUT_DTYPE = DTYPE_F32;

#define TYPE_MAX 0u
#define TYPE_AVERAGE 1u
#define TYPE_LP 2u
#define IN_SLOT 0u
#define OUT_SLOT 1u
#define GROUP_SIZE 128  // must match the planner's local size

layout(push_constant, scalar) uniform Push {  // scalar: tightly packed, as the planner pushes them
    uint planes;  // N * C
    uint channels;
    uvec2 inSize;  // (height, width)
    uvec4 inStrides;
    uvec4 outStrides;
} pc;

shared float partial[GROUP_SIZE];

float combine(float a, float b) { return TYPE == TYPE_MAX ? max(a, b) : a + b; }

float term(float x) {
    if (TYPE != TYPE_LP) return x;
    float a = abs(x);
    if (P == 1) return a;
    if (P == 2) return a * a;
    return pow(a, float(P));
}

void main() {
    // The whole workgroup takes this branch together, so the barriers below stay uniform.
    uint plane = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    if (plane >= pc.planes) return;
    uint c = plane % pc.channels;
    uint n = plane / pc.channels;
    uint base = n * pc.inStrides.x + c * pc.inStrides.y;
    uint area = pc.inSize.x * pc.inSize.y;

    float acc = TYPE == TYPE_MAX ? -3.402823e38 : 0.0;
    for (uint k = gl_LocalInvocationIndex; k < area; k += GROUP_SIZE) {
        uint y = k / pc.inSize.y;
        uint x = k - y * pc.inSize.y;
        acc = combine(acc, term(loadElem(IN_SLOT, IN_DTYPE, base + y * pc.inStrides.z + x * pc.inStrides.w)));
    }
    partial[gl_LocalInvocationIndex] = acc;
    barrier();
    [[unroll]] for (uint s = GROUP_SIZE / 2; s > 0; s >>= 1) {
        if (gl_LocalInvocationIndex < s)
            partial[gl_LocalInvocationIndex] = combine(partial[gl_LocalInvocationIndex], partial[gl_LocalInvocationIndex + s]);
        barrier();
    }
    if (gl_LocalInvocationIndex != 0) return;
    float r = partial[0];
    if (TYPE == TYPE_AVERAGE) r /= float(area);
    else if (TYPE == TYPE_LP) r = P == 1 ? r : (P == 2 ? sqrt(r) : pow(r, 1.0 / float(P)));
    storeElem(OUT_SLOT, OUT_DTYPE, n * pc.outStrides.x + c * pc.outStrides.y, r);
}
