// Shared by conv2d.comp (generic) and conv2d_tiled.comp: the operator's static shape as
// specialization constants, and tensor accessors. Constant ids mirror ConvConst in
// mlplugin/src/ops/convolution.cpp (ids 0..2 are the local size).
//
// Weights are read through one address formula that covers all three layouts:
//   filter [outC, inC/g, kH, kW]           block 1, blockStride s0
//   transposed filter [inC, outC/g, kH, kW] block outC/g, blockStride inC/g*s0, laneStride s1, icStride s0
//   packed persistent [outC/16][inC/g*kH*kW][16]  block 16, laneStride 1
// address(oc, icl, ky, kx) = (oc / BLOCK) * BLOCK_STRIDE + (oc % BLOCK) * LANE_STRIDE
//                            + icl * IC_STRIDE + ky * KY_STRIDE + kx * KX_STRIDE
#ifndef MLP_CONV2D_PARAMS_GLSL
#define MLP_CONV2D_PARAMS_GLSL
#include "common.glsl"

layout(constant_id = 3) const uint BATCH = 1;
layout(constant_id = 4) const uint IN_C = 1;
layout(constant_id = 5) const uint IN_H = 1;
layout(constant_id = 6) const uint IN_W = 1;
layout(constant_id = 7) const uint OUT_C = 1;
layout(constant_id = 8) const uint OUT_H = 1;
layout(constant_id = 9) const uint OUT_W = 1;
layout(constant_id = 10) const uint K_H = 1;
layout(constant_id = 11) const uint K_W = 1;
layout(constant_id = 12) const uint STRIDE_Y = 1;
layout(constant_id = 13) const uint STRIDE_X = 1;
layout(constant_id = 14) const uint DIL_Y = 1;
layout(constant_id = 15) const uint DIL_X = 1;
layout(constant_id = 16) const uint PAD_T = 0;
layout(constant_id = 17) const uint PAD_L = 0;
layout(constant_id = 18) const uint GROUP_IN_C = 1;   // input channels per group
layout(constant_id = 19) const uint GROUP_OUT_C = 1;  // output channels per group
layout(constant_id = 20) const uint TRANSPOSED = 0;
layout(constant_id = 21) const uint IN_DTYPE = 0;
layout(constant_id = 22) const uint IN_STRIDE_N = 0;
layout(constant_id = 23) const uint IN_STRIDE_C = 0;
layout(constant_id = 24) const uint IN_STRIDE_H = 0;
layout(constant_id = 25) const uint IN_STRIDE_W = 0;
layout(constant_id = 26) const uint OUT_DTYPE = 0;
layout(constant_id = 27) const uint OUT_SLOT = 3;
layout(constant_id = 28) const uint OUT_STRIDE_N = 0;
layout(constant_id = 29) const uint OUT_STRIDE_C = 0;
layout(constant_id = 30) const uint OUT_STRIDE_H = 0;
layout(constant_id = 31) const uint OUT_STRIDE_W = 0;
layout(constant_id = 32) const uint W_SLOT = 1;
layout(constant_id = 33) const uint W_DTYPE = 0;
layout(constant_id = 34) const uint W_OFFSET = 0;
layout(constant_id = 35) const uint W_BLOCK = 1;
layout(constant_id = 36) const uint W_BLOCK_STRIDE = 0;
layout(constant_id = 37) const uint W_LANE_STRIDE = 0;
layout(constant_id = 38) const uint W_IC_STRIDE = 0;
layout(constant_id = 39) const uint W_KY_STRIDE = 0;
layout(constant_id = 40) const uint W_KX_STRIDE = 0;
layout(constant_id = 41) const uint HAS_BIAS = 0;
layout(constant_id = 42) const uint B_SLOT = 2;
layout(constant_id = 43) const uint B_DTYPE = 0;
layout(constant_id = 44) const uint B_OFFSET = 0;
layout(constant_id = 45) const uint B_STRIDE = 1;
layout(constant_id = 46) const uint ACT = 0;
layout(constant_id = 47) const float ACT_ALPHA = 0.0;
layout(constant_id = 48) const float ACT_BETA = 0.0;
// conv2d_tiled.comp only
layout(constant_id = 49) const uint CI_CHUNK = 1;   // input channels staged per pass
layout(constant_id = 50) const uint IN_TILE_H = 1;  // staged input rows (tile + halo)
layout(constant_id = 51) const uint IN_TILE_W = 1;
layout(constant_id = 52) const uint OC_BLOCKS = 1;  // ceil(OUT_C / OC_BLOCK)
// conv2d.comp, transposed only: the taps feeding one output repeat every stride / gcd(stride,
// dilation) taps.
layout(constant_id = 53) const uint TAP_STEP_Y = 1;
layout(constant_id = 54) const uint TAP_STEP_X = 1;

// A depth-to-space folded into the store (graph compilation): the convolution's OUT_C channels
// land at channel oc / b^2 (CRD) or oc % C (DCR) of a [N, OUT_C / b^2, OUT_H * b, OUT_W * b]
// tensor whose strides are the OUT_STRIDE_* above. Ids after conv2d_coopmat.comp's.
layout(constant_id = 73) const uint D2S_BLOCK = 1;  // 1: none
layout(constant_id = 74) const uint D2S_CRD = 0;    // 0: DCR, 1: CRD

#define INPUT_SLOT 0u

// Caller guarantees 0 <= y < IN_H, 0 <= x < IN_W.
float loadInput(uint n, uint c, int y, int x) {
    return loadElem(INPUT_SLOT, IN_DTYPE, n * IN_STRIDE_N + c * IN_STRIDE_C + uint(y) * IN_STRIDE_H + uint(x) * IN_STRIDE_W);
}

// Weight for output channel oc, input channel icl (within the group), tap (ky, kx).
float loadWeight(uint oc, uint icl, uint ky, uint kx) {
    uint index = W_OFFSET + (oc / W_BLOCK) * W_BLOCK_STRIDE + (oc % W_BLOCK) * W_LANE_STRIDE + icl * W_IC_STRIDE +
                 ky * W_KY_STRIDE + kx * W_KX_STRIDE;
    return loadElem(W_SLOT, W_DTYPE, index);
}

float biasFor(uint oc) { return HAS_BIAS != 0 ? loadElem(B_SLOT, B_DTYPE, B_OFFSET + oc * B_STRIDE) : 0.0; }

// Stores one finished output element (bias and activation already applied).
void storeFinished(uint n, uint oc, uint y, uint x, float v) {
    if (D2S_BLOCK > 1) {
        const uint b = D2S_BLOCK, channels = OUT_C / (b * b);
        uint c, by, bx;
        if (D2S_CRD != 0) {  // oc = (c * b + by) * b + bx
            c = oc / (b * b), by = (oc / b) % b, bx = oc % b;
        } else {  // oc = (by * b + bx) * C + c
            by = oc / (b * channels), bx = (oc / channels) % b, c = oc % channels;
        }
        oc = c, y = y * b + by, x = x * b + bx;
    }
    storeElem(OUT_SLOT, OUT_DTYPE, n * OUT_STRIDE_N + oc * OUT_STRIDE_C + y * OUT_STRIDE_H + x * OUT_STRIDE_W, v);
}

// Adds the bias, applies the fused activation and stores one output element.
void storeOutput(uint n, uint oc, uint y, uint x, float acc) {
    storeFinished(n, oc, y, x, applyActivation(ACT, ACT_ALPHA, ACT_BETA, acc + biasFor(oc)));
}

#endif
