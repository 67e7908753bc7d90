#version 450
#extension GL_GOOGLE_include_directive : require
// Generic 2-D convolution and transposed convolution: one output element per invocation,
// any groups, dilation, strides and tensor layout. The fallback behind conv2d_tiled.comp.
#include "conv2d_params.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Input coordinate feeding output coordinate `o` through tap `k`, or -1 when none does.
int inputCoord(uint o, uint k, uint stride, uint dilation, uint pad, uint size) {
    int c;
    if (TRANSPOSED == 0) {
        c = int(o * stride + k * dilation) - int(pad);
    } else {
        // Transposed: o = i * stride - pad + k * dilation, so i = (o + pad - k * dilation) / stride.
        int num = int(o + pad) - int(k * dilation);
        if (num < 0 || uint(num) % stride != 0) return -1;
        c = num / int(stride);
    }
    return (c >= 0 && c < int(size)) ? c : -1;
}

// First tap that can feed output coordinate `o`: 0 for an ordinary convolution; for a transposed
// one the first k in [0, step) with (o + pad - k * dilation) divisible by the stride, or `size`
// when none is. Later candidates follow every `step` taps, so the loops skip the taps that
// cannot contribute instead of testing each one.
uint firstTap(uint o, uint stride, uint dilation, uint pad, uint step, uint size) {
    if (TRANSPOSED == 0) return 0;
    uint phase = (o + pad) % stride;
    for (uint k = 0; k < step && k < size; ++k)
        if ((k * dilation) % stride == phase) return k;
    return size;
}

void main() {
    uint index = linearInvocation();
    if (index >= BATCH * OUT_C * OUT_H * OUT_W) return;
    uint ox = index % OUT_W;
    uint rest = index / OUT_W;
    uint oy = rest % OUT_H;
    rest /= OUT_H;
    uint oc = rest % OUT_C;
    uint n = rest / OUT_C;
    uint icBase = (oc / GROUP_OUT_C) * GROUP_IN_C;

    float acc = 0.0;
    uint kx0 = firstTap(ox, STRIDE_X, DIL_X, PAD_L, TAP_STEP_X, K_W);
    for (uint ky = firstTap(oy, STRIDE_Y, DIL_Y, PAD_T, TAP_STEP_Y, K_H); ky < K_H; ky += TAP_STEP_Y) {
        int iy = inputCoord(oy, ky, STRIDE_Y, DIL_Y, PAD_T, IN_H);
        if (iy < 0) continue;
        for (uint kx = kx0; kx < K_W; kx += TAP_STEP_X) {
            int ix = inputCoord(ox, kx, STRIDE_X, DIL_X, PAD_L, IN_W);
            if (ix < 0) continue;
            for (uint icl = 0; icl < GROUP_IN_C; ++icl)
                acc += loadInput(n, icBase + icl, iy, ix) * loadWeight(oc, icl, ky, kx);
        }
    }
    storeOutput(n, oc, oy, ox, acc);
}
