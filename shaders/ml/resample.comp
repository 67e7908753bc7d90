#version 460
// Resample of the two innermost dims of NCHW (ONNX Resize semantics): one invocation per output
// element. Source coordinates are computed in fp32 exactly as the CPU reference does
// (mlplugin/src/ops/resample.cpp), so nearest-neighbour ties round the same way on both.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint MODE = 0;       // mlplugin::ResampleMode
layout(constant_id = 4) const uint TRANSFORM = 0;  // mlplugin::CoordinateTransform
layout(constant_id = 5) const uint ROUNDING = 0;   // mlplugin::NearestRounding
layout(constant_id = 6) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 7) const uint OUT_DTYPE = DTYPE_F32;

#define MODE_NEAREST 0u
#define HALF_PIXEL 0u
#define ALIGN_CORNERS 1u
#define ASYMMETRIC 2u
#define PYTORCH_HALF_PIXEL 3u
#define ROUND_PREFER_FLOOR 0u
#define ROUND_PREFER_CEIL 1u
#define ROUND_FLOOR 2u
#define IN_SLOT 0u
#define OUT_SLOT 1u

layout(push_constant, scalar) uniform Push {  // scalar: tightly packed, as the planner pushes them
    uint count;
    uint channels;
    uvec2 outSize;  // (height, width)
    uvec2 inSize;
    uvec4 inStrides;  // n, c, h, w
    uvec4 outStrides;
    vec2 scales;      // output / input
    vec2 offsets;     // half_pixel_symmetric's shifts (0 otherwise)
    vec2 resized;     // input * scale, or the output size (align_corners, pytorch_half_pixel)
} pc;

float sourceCoord(uint o, float resized, uint inLen, float scale, float offset) {
    if (TRANSFORM == ALIGN_CORNERS) return resized == 1.0 ? 0.0 : float(o) * float(inLen - 1) / (resized - 1.0);
    if (TRANSFORM == ASYMMETRIC) return float(o) / scale;
    if (TRANSFORM == PYTORCH_HALF_PIXEL && resized == 1.0) return 0.0;
    return offset + ((float(o) + 0.5) / scale - 0.5);
}

// A coordinate within a few ULP of an integer or half-integer is moved onto it: nearest's
// floor/ceil/tie decisions then do not depend on the division's precision (Vulkan allows
// 2.5 ULP; the reference divides exactly). Same as snapToBoundary() in resample.cpp.
float snapToBoundary(float c) {
    float boundary = floor(c * 2.0 + 0.5) * 0.5;
    return abs(c - boundary) <= max(abs(c), 1.0) * 5e-7 ? boundary : c;
}

uint nearestIndex(float coordinate, uint inLen) {
    float c = snapToBoundary(coordinate);
    float r;
    if (ROUNDING == ROUND_PREFER_FLOOR) r = ceil(c - 0.5);
    else if (ROUNDING == ROUND_PREFER_CEIL) r = floor(c + 0.5);
    else if (ROUNDING == ROUND_FLOOR) r = floor(c);
    else r = ceil(c);
    return uint(clamp(r, 0.0, float(inLen - 1)));
}

float texel(uint base, uint y, uint x) {
    return loadElem(IN_SLOT, IN_DTYPE, base + y * pc.inStrides.z + x * pc.inStrides.w);
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

    float cy = sourceCoord(oy, pc.resized.x, pc.inSize.x, pc.scales.x, pc.offsets.x);
    float cx = sourceCoord(ox, pc.resized.y, pc.inSize.y, pc.scales.y, pc.offsets.y);
    float result;
    if (MODE == MODE_NEAREST) {
        result = texel(base, nearestIndex(cy, pc.inSize.x), nearestIndex(cx, pc.inSize.y));
    } else {
        cy = clamp(cy, 0.0, float(pc.inSize.x - 1));
        cx = clamp(cx, 0.0, float(pc.inSize.y - 1));
        uint y0 = uint(cy), x0 = uint(cx);
        uint y1 = min(y0 + 1, pc.inSize.x - 1), x1 = min(x0 + 1, pc.inSize.y - 1);
        float ty = cy - float(y0), tx = cx - float(x0);
        float top = mix(texel(base, y0, x0), texel(base, y0, x1), tx);
        float bottom = mix(texel(base, y1, x0), texel(base, y1, x1), tx);
        result = mix(top, bottom, ty);
    }
    storeElem(OUT_SLOT, OUT_DTYPE, n * pc.outStrides.x + c * pc.outStrides.y + oy * pc.outStrides.z + ox * pc.outStrides.w, result);
}
