#version 450
#extension GL_GOOGLE_include_directive : require
// Tiled direct convolution (groups == 1, not transposed). A workgroup of 8x8 invocations
// computes a 16x8 tile of output pixels for OC_BLOCK output channels; each invocation owns 2
// pixels x 16 channels of fp32 accumulators. Per pass, CI_CHUNK input channels of the input
// tile plus its halo, and their weights, are staged in shared memory (16 KiB in all).
// Any strides, dilation, padding and tensor layout: staging goes through the strided
// accessors, so NHWC costs nothing extra in the inner loop.
#include "conv2d_params.glsl"

// Mirror kTiled* in mlplugin/src/ops/convolution.cpp.
#define TILE_W 16
#define TILE_H 8
#define OC_BLOCK 16
#define PIXELS 2  // per invocation: x = tx and tx + 8
#define INPUT_SMEM 2560
#define WEIGHT_SMEM 1536

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;  // 8 x 8 x 1

shared float sInput[INPUT_SMEM];   // [ci][IN_TILE_H][IN_TILE_W]
shared float sWeight[WEIGHT_SMEM]; // [ci][kH * kW][OC_BLOCK]

void main() {
    const uint threads = 64;
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint tid = ty * 8 + tx;
    uint ox0 = gl_WorkGroupID.x * TILE_W, oy0 = gl_WorkGroupID.y * TILE_H;
    uint n = gl_WorkGroupID.z / OC_BLOCKS;
    uint oc0 = (gl_WorkGroupID.z % OC_BLOCKS) * OC_BLOCK;
    int ix0 = int(ox0 * STRIDE_X) - int(PAD_L);
    int iy0 = int(oy0 * STRIDE_Y) - int(PAD_T);
    const uint inTile = IN_TILE_H * IN_TILE_W;
    const uint taps = K_H * K_W;

    float acc[PIXELS][OC_BLOCK];
    [[unroll]] for (uint p = 0; p < PIXELS; ++p)
        [[unroll]] for (uint o = 0; o < OC_BLOCK; ++o) acc[p][o] = 0.0;

    for (uint c0 = 0; c0 < IN_C; c0 += CI_CHUNK) {
        uint cn = min(CI_CHUNK, IN_C - c0);
        barrier();  // the previous pass is done reading shared memory
        for (uint i = tid; i < cn * inTile; i += threads) {
            uint r = i % inTile;
            int y = iy0 + int(r / IN_TILE_W), x = ix0 + int(r % IN_TILE_W);
            bool inside = y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
            sInput[i] = inside ? loadInput(n, c0 + i / inTile, y, x) : 0.0;
        }
        for (uint i = tid; i < cn * taps * OC_BLOCK; i += threads) {
            uint oc = oc0 + i % OC_BLOCK;
            uint k = i / OC_BLOCK;
            uint tap = k % taps;
            sWeight[i] = oc < OUT_C ? loadWeight(oc, c0 + k / taps, tap / K_W, tap % K_W) : 0.0;
        }
        barrier();
        for (uint ci = 0; ci < cn; ++ci) {
            for (uint ky = 0; ky < K_H; ++ky) {
                uint row = (ci * IN_TILE_H + ty * STRIDE_Y + ky * DIL_Y) * IN_TILE_W;
                for (uint kx = 0; kx < K_W; ++kx) {
                    float a[PIXELS];
                    [[unroll]] for (uint p = 0; p < PIXELS; ++p) a[p] = sInput[row + (tx + p * 8) * STRIDE_X + kx * DIL_X];
                    uint wBase = (ci * taps + ky * K_W + kx) * OC_BLOCK;
                    [[unroll]] for (uint o = 0; o < OC_BLOCK; ++o) {
                        float w = sWeight[wBase + o];
                        [[unroll]] for (uint p = 0; p < PIXELS; ++p) acc[p][o] += a[p] * w;
                    }
                }
            }
        }
    }

    uint oy = oy0 + ty;
    if (oy >= OUT_H) return;
    [[unroll]] for (uint p = 0; p < PIXELS; ++p) {
        uint ox = ox0 + tx + p * 8;
        if (ox >= OUT_W) continue;
        [[unroll]] for (uint o = 0; o < OC_BLOCK; ++o)
            if (oc0 + o < OUT_C) storeOutput(n, oc0 + o, oy, ox, acc[p][o]);
    }
}
