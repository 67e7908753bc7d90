#version 460
// Resample of the two innermost dims of NCHW (ONNX Resize semantics): one invocation per output
// element. Source coordinates are computed in fp32 exactly as the CPU reference does
// (mlplugin/src/ops/resample.cpp), so nearest-neighbour ties round the same way on both.
// Cubic: 4x4 taps around the source coordinate, separable weights from Keys' kernel.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint MODE = 0;       // mlplugin::ResampleMode
layout(constant_id = 4) const uint TRANSFORM = 0;  // mlplugin::CoordinateTransform
layout(constant_id = 5) const uint ROUNDING = 0;   // mlplugin::NearestRounding
layout(constant_id = 6) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 7) const uint OUT_DTYPE = DTYPE_F32;
layout(constant_id = 8) const float CUBIC_A = -0.75;  // cubic: the kernel's coefficient a
layout(constant_id = 9) const uint EXCLUDE_OUTSIDE = 0;  // cubic: 1 = taps outside get weight 0, the rest renormalised

#define MODE_NEAREST 0u
#define MODE_LINEAR 1u
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

// The four taps of a cubic resize around coordinate c along a dim of length len: indices
// floor(c) - 1 .. floor(c) + 2 clamped to the border, and their weights. Mirrors cubicTaps() in
// resample.cpp. The distances are 1 + t, t, 1 - t, 2 - t: the outer two taps use the kernel's
// 1 <= |x| <= 2 piece, the inner two its |x| <= 1 piece.
void cubicTaps(float c, uint len, out uvec4 index, out vec4 weight) {
    float f = floor(c);
    float t = c - f;
    const float a = CUBIC_A;
    vec2 inner = vec2(t, 1.0 - t);
    vec2 outer = vec2(1.0 + t, 2.0 - t);
    vec2 wi = ((a + 2.0) * inner - (a + 3.0)) * inner * inner + 1.0;
    vec2 wo = ((a * outer - 5.0 * a) * outer + 8.0 * a) * outer - 4.0 * a;
    weight = vec4(wo.x, wi.x, wi.y, wo.y);
    ivec4 i = ivec4(int(f)) + ivec4(-1, 0, 1, 2);
    if (EXCLUDE_OUTSIDE != 0u) {
        weight *= vec4(greaterThanEqual(i, ivec4(0))) * vec4(lessThan(i, ivec4(len)));
        float sum = weight.x + weight.y + weight.z + weight.w;
        if (sum != 0.0) weight /= sum;  // 0 only when all four taps lie outside (see resample.cpp)
    }
    index = uvec4(clamp(i, ivec4(0), ivec4(len - 1)));
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
    } else if (MODE != MODE_LINEAR) {  // cubic: the coordinate is not clamped, the taps are
        uvec4 iy, ix;
        vec4 wy, wx;
        cubicTaps(cy, pc.inSize.x, iy, wy);
        cubicTaps(cx, pc.inSize.y, ix, wx);
        result = 0.0;
        for (int j = 0; j < 4; ++j) {
            vec4 row = vec4(texel(base, iy[j], ix.x), texel(base, iy[j], ix.y), texel(base, iy[j], ix.z), texel(base, iy[j], ix.w));
            result += wy[j] * dot(wx, row);
        }
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
