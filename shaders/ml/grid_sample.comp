#version 460
// Grid sample (mlplugin/grid_sample.h): one invocation per output pixel (n, y, x). It reads the
// pixel's grid position once, turns it into input coordinates (fp32, `precise`, the same
// operations as the CPU reference in mlplugin/src/ops/grid_sample.cpp) and its taps, then walks
// the channels: consecutive invocations write consecutive output pixels of each channel.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint MODE = 0;     // mlplugin::GridSampleMode
layout(constant_id = 4) const uint PADDING = 0;  // mlplugin::GridSamplePadding
layout(constant_id = 5) const bool ALIGN_CORNERS = false;
layout(constant_id = 6) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 7) const uint GRID_DTYPE = DTYPE_F32;
layout(constant_id = 8) const uint OUT_DTYPE = DTYPE_F32;

#define MODE_LINEAR 0u
#define MODE_NEAREST 1u
#define PAD_ZEROS 0u
#define PAD_BORDER 1u
#define PAD_REFLECTION 2u
#define IN_SLOT 0u
#define GRID_SLOT 1u
#define OUT_SLOT 2u

layout(push_constant, scalar) uniform Push {
    uint pixels;    // N * outH * outW
    uint channels;
    uvec2 inSize;   // (H, W)
    uvec2 outSize;  // (outH, outW)
    uvec4 inStrides;    // n, c, h, w
    uvec4 gridStrides;  // n, y, x, component
    uvec4 outStrides;   // n, c, h, w
} pc;

float unnormalize(float g, uint size) {
    precise float x = ALIGN_CORNERS ? (g + 1.0) * 0.5 * float(size - 1) : ((g + 1.0) * float(size) - 1.0) * 0.5;
    return x;
}

float reflectPosition(float x, float low, float span) {
    if (span <= 0.0) return 0.0;
    precise float d = abs(x - low);
    float flips = floor(d / span);
    precise float extra = d - span * flips;
    return mod(flips, 2.0) == 0.0 ? low + extra : low + span - extra;
}

float sourcePosition(float g, uint size) {
    float x = unnormalize(g, size);
    if (PADDING == PAD_REFLECTION) x = ALIGN_CORNERS ? reflectPosition(x, 0.0, float(size - 1)) : reflectPosition(x, -0.5, float(size));
    if (PADDING != PAD_ZEROS) x = clamp(x, 0.0, float(size - 1));
    return x;
}

void main() {
    uint id = linearInvocation();
    if (id >= pc.pixels) return;
    uint ox = id % pc.outSize.y;
    uint rest = id / pc.outSize.y;
    uint oy = rest % pc.outSize.x;
    uint n = rest / pc.outSize.x;

    uint gridAt = n * pc.gridStrides.x + oy * pc.gridStrides.y + ox * pc.gridStrides.z;
    float px = sourcePosition(loadElem(GRID_SLOT, GRID_DTYPE, gridAt), pc.inSize.y);
    float py = sourcePosition(loadElem(GRID_SLOT, GRID_DTYPE, gridAt + pc.gridStrides.w), pc.inSize.x);
    int w = int(pc.inSize.y), h = int(pc.inSize.x);

    // Up to 4 taps (offsets within a channel) and their weights; a tap outside the input (Zeros
    // padding only) keeps weight 0 and offset 0.
    uint tap[4] = uint[4](0u, 0u, 0u, 0u);
    float weight[4] = float[4](0.0, 0.0, 0.0, 0.0);
    if (MODE == MODE_NEAREST) {
        // Written as "inside" so NaN positions (and any beyond the input) read nothing.
        float rx = roundEven(px), ry = roundEven(py);
        if (rx >= 0.0 && rx < float(w) && ry >= 0.0 && ry < float(h)) {
            tap[0] = uint(ry) * pc.inStrides.z + uint(rx) * pc.inStrides.w;
            weight[0] = 1.0;
        }
    } else {
        float fx = floor(px), fy = floor(py);
        float tx = px - fx, ty = py - fy;
        [[unroll]] for (int k = 0; k < 4; ++k) {
            float x = fx + float(k & 1), y = fy + float(k >> 1);
            if (!(x >= 0.0 && x < float(w) && y >= 0.0 && y < float(h))) continue;  // NaN positions too
            tap[k] = uint(y) * pc.inStrides.z + uint(x) * pc.inStrides.w;
            weight[k] = ((k & 1) != 0 ? tx : 1.0 - tx) * ((k >> 1) != 0 ? ty : 1.0 - ty);
        }
    }

    uint inBase = n * pc.inStrides.x;
    uint outAt = n * pc.outStrides.x + oy * pc.outStrides.z + ox * pc.outStrides.w;
    for (uint c = 0u; c < pc.channels; ++c) {
        uint base = inBase + c * pc.inStrides.y;
        float v = 0.0;
        [[unroll]] for (int k = 0; k < 4; ++k)
            if (weight[k] != 0.0) v += weight[k] * loadElem(IN_SLOT, IN_DTYPE, base + tap[k]);
        storeElem(OUT_SLOT, OUT_DTYPE, outAt + c * pc.outStrides.y, v);
    }
}
