#version 450
#extension GL_GOOGLE_include_directive : require
// Copies a convolution filter [outC, inC, kH, kW] (any strides, any type) into the B matrix
// conv2d_coopmat.comp reads: fp16 [K_ROWS][N_PAD], row k holding the weights of reduction index
// k for every output channel, zeros in the padding. K order per mode:
//   direct: k = tap * IC_PAD + ic   (channels padded to IC_PAD per tap)
//   im2col: k = ic * kH * kW + tap  (padded once at the end)
//   unfold-x: k = ky * IC_PAD + kx * IN_C + ic  (each kernel row's kW * IN_C padded to IC_PAD)
//   shared-memory implicit GEMM (conv2d_igemm.comp): [N_PAD / BN][K_ROWS][BN], row
//     k = (slice * kH * kW + tap) * IC_PAD + c for input channel slice * IC_PAD + c (IC_PAD: the
//     slice width), so each N block's weights for one slice and kernel row are contiguous
//   Winograd F(2x2, 3x3) (conv2d_winograd.comp): U = G g G^T of every 3x3 filter, as
//     [N_PAD / BN][K_ROWS / 256 slices][16 positions][BN / 16][16 c][16 n], each 16 x 16 fragment
//     contiguous; position p = 4 xi + nu is element (xi, nu) of U
//   Winograd F(4x4, 3x3): the same with 36 positions (6x6 U, G of Lavin and Gray 2016), K_ROWS / 576 slices
// Run at initialization into the persistent resource (owned filters) or, for bound filters, at
// execution into the temporary resource. Constant ids mirror CoopPackConst in convolution.cpp.
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const uint OUT_C = 1;
layout(constant_id = 4) const uint IN_C = 1;
layout(constant_id = 5) const uint K_H = 1;
layout(constant_id = 6) const uint K_W = 1;
layout(constant_id = 7) const uint MODE = 0;  // 0 direct, 1 im2col, 2 unfold-x, 3 shared-memory implicit GEMM, 4 Winograd F(2x2), 5 F(4x4)
layout(constant_id = 8) const uint IC_PAD = 16;
layout(constant_id = 9) const uint K_ROWS = 16;
layout(constant_id = 10) const uint N_PAD = 16;
layout(constant_id = 11) const uint SRC_SLOT = 1;
layout(constant_id = 12) const uint SRC_DTYPE = 0;
layout(constant_id = 13) const uint SRC_OC_STRIDE = 0;
layout(constant_id = 14) const uint SRC_IC_STRIDE = 0;
layout(constant_id = 15) const uint SRC_KY_STRIDE = 0;
layout(constant_id = 16) const uint SRC_KX_STRIDE = 0;
layout(constant_id = 17) const uint DST_SLOT = PERSISTENT_SLOT;
layout(constant_id = 18) const uint DST_OFFSET = 0;  // fp16 elements
layout(constant_id = 19) const uint BN = 16;         // mode 3: output channels per N block

// Row xi of Winograd's G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1], column a.
float winogradG(uint xi, uint a) {
    if (xi == 0) return a == 0 ? 1.0 : 0.0;
    if (xi == 3) return a == 2 ? 1.0 : 0.0;
    return xi == 2 && a == 1 ? -0.5 : 0.5;
}

// Row xi of G for F(4x4, 3x3), column a.
float winogradG4(uint xi, uint a) {
    const float g[18] = float[](1.0 / 4.0, 0.0, 0.0, -1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0,
                                1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0, 1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0, 0.0, 0.0, 1.0);
    return g[xi * 3 + a];
}

// Modes 4 and 5: element `index` of the packed U (layout above), computed in fp32 from the filter.
float winogradU(uint index) {
    const uint edge = MODE == 5 ? 6 : 4, positions = edge * edge;
    const uint nf = BN / 16, slices = K_ROWS / (positions * 16);
    uint n = index % 16, c = (index / 16) % 16, j = (index / 256) % nf, p = (index / (256 * nf)) % positions;
    uint s = (index / (256 * nf * positions)) % slices, nb = index / (256 * nf * positions * slices);
    uint oc = nb * BN + j * 16 + n, ic = s * 16 + c;
    if (oc >= OUT_C || ic >= IN_C) return 0.0;
    float u = 0.0;
    for (uint a = 0; a < 3; ++a)
        for (uint b = 0; b < 3; ++b)
            u += (MODE == 5 ? winogradG4(p / 6, a) * winogradG4(p % 6, b) : winogradG(p / 4, a) * winogradG(p % 4, b)) *
                 loadElem(SRC_SLOT, SRC_DTYPE, oc * SRC_OC_STRIDE + ic * SRC_IC_STRIDE + a * SRC_KY_STRIDE + b * SRC_KX_STRIDE);
    return u;
}

void main() {
    const uint taps = K_H * K_W;
    uint index = linearInvocation();
    if (index >= K_ROWS * N_PAD) return;
    if (MODE == 4 || MODE == 5) {
        heapF16[DST_SLOT].v[DST_OFFSET + index] = float16_t(winogradU(index));
        return;
    }
    uint k = index / N_PAD, oc = index % N_PAD;
    uint ic = MODE == 0 ? k % IC_PAD : k / taps;
    uint tap = MODE == 0 ? k / IC_PAD : k % taps;
    if (MODE == 3) {
        k = (index / BN) % K_ROWS;
        oc = (index / (K_ROWS * BN)) * BN + index % BN;
        ic = (k / (taps * IC_PAD)) * IC_PAD + k % IC_PAD;
        tap = (k / IC_PAD) % taps;
    }
    if (MODE == 2) {
        uint slot = k % IC_PAD;  // kx * IN_C + ic; past K_W * IN_C: padding (tap out of range)
        ic = slot % IN_C;
        tap = slot < K_W * IN_C ? (k / IC_PAD) * K_W + slot / IN_C : taps;
    }
    float value = 0.0;
    if (oc < OUT_C && ic < IN_C && tap < taps)
        value = loadElem(SRC_SLOT, SRC_DTYPE, oc * SRC_OC_STRIDE + ic * SRC_IC_STRIDE + (tap / K_W) * SRC_KY_STRIDE + (tap % K_W) * SRC_KX_STRIDE);
    heapF16[DST_SLOT].v[DST_OFFSET + index] = float16_t(value);
}
