#version 460
// 2-D pooling (max, average, Lp) over NCHW with strides, dilations and asymmetric padding:
// one invocation per output element, consecutive invocations along the output row.
// Padding never contributes: max ignores it, average divides by the in-bounds count unless
// COUNT_PAD (then by the window size), Lp sums |x|^p over in-bounds taps. A window with no
// in-bounds tap (possible with dilation gaps) yields 0.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint TYPE = 0;  // mlplugin::PoolingType
layout(constant_id = 4) const bool COUNT_PAD = false;
layout(constant_id = 5) const uint P = 2;
layout(constant_id = 6) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 7) const uint OUT_DTYPE = DTYPE_F32;

#define TYPE_MAX 0u
#define TYPE_AVERAGE 1u
#define TYPE_LP 2u
#define IN_SLOT 0u
#define OUT_SLOT 1u

layout(push_constant, scalar) uniform Push {  // scalar: tightly packed, as the planner pushes them
    uint count;
    uint channels;
    uvec2 outSize;  // (height, width)
    uvec2 inSize;
    uvec4 inStrides;   // n, c, h, w
    uvec4 outStrides;
    uvec2 window;
    uvec2 strides;
    uvec2 dilations;
    uvec2 padBegin;
} pc;

float lpTerm(float x) {
    float a = abs(x);
    if (P == 1) return a;
    if (P == 2) return a * a;
    return pow(a, float(P));
}

void main() {
    uint id = linearInvocation();
    if (id >= pc.count) return;
    uint ox = id % pc.outSize.y;
    uint rest = id / pc.outSize.y;
    uint oy = rest % pc.outSize.x;
    rest /= pc.outSize.x;
    uint c = rest % pc.channels;
    uint n = rest / pc.channels;

    uint base = n * pc.inStrides.x + c * pc.inStrides.y;
    int y0 = int(oy * pc.strides.x) - int(pc.padBegin.x);
    int x0 = int(ox * pc.strides.y) - int(pc.padBegin.y);
    float acc = TYPE == TYPE_MAX ? -3.402823e38 : 0.0;
    uint taps = 0;
    for (uint ky = 0; ky < pc.window.x; ++ky) {
        int y = y0 + int(ky * pc.dilations.x);
        if (y < 0 || y >= int(pc.inSize.x)) continue;
        for (uint kx = 0; kx < pc.window.y; ++kx) {
            int x = x0 + int(kx * pc.dilations.y);
            if (x < 0 || x >= int(pc.inSize.y)) continue;
            float v = loadElem(IN_SLOT, IN_DTYPE, base + uint(y) * pc.inStrides.z + uint(x) * pc.inStrides.w);
            if (TYPE == TYPE_MAX) acc = max(acc, v);
            else if (TYPE == TYPE_AVERAGE) acc += v;
            else acc += lpTerm(v);
            ++taps;
        }
    }
    float result = 0.0;
    if (taps > 0) {
        if (TYPE == TYPE_MAX) result = acc;
        else if (TYPE == TYPE_AVERAGE) result = acc / float(COUNT_PAD ? pc.window.x * pc.window.y : taps);
        else result = P == 1 ? acc : (P == 2 ? sqrt(acc) : pow(acc, 1.0 / float(P)));
    }
    storeElem(OUT_SLOT, OUT_DTYPE, n * pc.outStrides.x + c * pc.outStrides.y + oy * pc.outStrides.z + ox * pc.outStrides.w, result);
}
