#version 450
#extension GL_GOOGLE_include_directive : require
// Tiled direct convolution (groups == 1, not transposed). A workgroup of 8x8 invocations
// computes a 32x8 tile of output pixels for OC_BLOCK output channels; each invocation owns 4
// pixels (x = tx + 8 p) x 16 channels of fp32 accumulators. Per pass, CI_CHUNK input channels
// of the input tile plus its halo, and their weights, are staged in shared memory (16 KiB in
// all). Weights are read as vec4 broadcasts: per tap an invocation does 4 scalar and 4 vec4
// shared loads for 64 FMAs. Any strides, dilation, padding and tensor layout: staging goes
// through the strided accessors, so NHWC costs nothing extra in the inner loop.
#include "conv2d_params.glsl"

// Mirror kTiled* in mlplugin/src/ops/convolution.cpp.
#define TILE_W 32
#define TILE_H 8
#define OC_BLOCK 16
#define OC_VEC (OC_BLOCK / 4)
#define PIXELS 4  // per invocation: x = tx + 8 p
#define INPUT_SMEM 2560
#define WEIGHT_SMEM 1536
#define STAGE_BATCH 8

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;  // 8 x 8 x 1

// F16_ARITH (AllowHalfPrecisionComputation): staging and accumulators in fp16, so the inner loop
// is packed half FMAs on shared memory of half the size; bias and activation stay fp32.
#ifdef F16_ARITH
#define SCALAR float16_t
#define VEC4 f16vec4
#else
#define SCALAR float
#define VEC4 vec4
#endif

shared SCALAR sInput[INPUT_SMEM];           // [ci][IN_TILE_H][IN_TILE_W]
shared VEC4 sWeight[WEIGHT_SMEM / 4];       // [ci][kH * kW][OC_BLOCK / 4]

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

    VEC4 acc[PIXELS][OC_VEC];
    [[unroll]] for (uint p = 0; p < PIXELS; ++p)
        [[unroll]] for (uint q = 0; q < OC_VEC; ++q) acc[p][q] = VEC4(0.0);

    for (uint c0 = 0; c0 < IN_C; c0 += CI_CHUNK) {
        uint cn = min(CI_CHUNK, IN_C - c0);
        barrier();  // the previous pass is done reading shared memory
        // Staging loads are issued in batches of STAGE_BATCH before any is stored, so their
        // global-memory latencies overlap instead of adding up.
        uint inCount = cn * inTile;
        for (uint base = tid; base < inCount; base += threads * STAGE_BATCH) {
            float v[STAGE_BATCH];
            [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j) {
                uint i = base + j * threads;
                uint r = i % inTile;
                int y = iy0 + int(r / IN_TILE_W), x = ix0 + int(r % IN_TILE_W);
                bool inside = i < inCount && y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
                // Unconditional load from clamped coordinates, then a select: a load behind a
                // branch would not be batched by some compilers.
                float value = loadInput(n, min(c0 + i / inTile, IN_C - 1), clamp(y, 0, int(IN_H) - 1), clamp(x, 0, int(IN_W) - 1));
                v[j] = inside ? value : 0.0;
            }
            [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j)
                if (base + j * threads < inCount) sInput[base + j * threads] = SCALAR(v[j]);
        }
        uint wCount = cn * taps * OC_VEC;
        for (uint base = tid; base < wCount; base += threads * STAGE_BATCH) {
            vec4 w[STAGE_BATCH];
            [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j) {
                uint i = base + j * threads;
                uint oc = oc0 + (i % OC_VEC) * 4;
                uint k = i / OC_VEC;
                uint ic = min(c0 + k / taps, IN_C - 1), ky = (k % taps) / K_W, kx = (k % taps) % K_W;
                [[unroll]] for (uint c = 0; c < 4; ++c) {
                    float value = loadWeight(min(oc + c, OUT_C - 1), ic, ky, kx);
                    w[j][c] = (i < wCount && oc + c < OUT_C) ? value : 0.0;
                }
            }
            [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j)
                if (base + j * threads < wCount) sWeight[base + j * threads] = VEC4(w[j]);
        }
        barrier();
        for (uint ci = 0; ci < cn; ++ci) {
            for (uint ky = 0; ky < K_H; ++ky) {
                uint row = (ci * IN_TILE_H + ty * STRIDE_Y + ky * DIL_Y) * IN_TILE_W;
                for (uint kx = 0; kx < K_W; ++kx) {
                    SCALAR a[PIXELS];
                    [[unroll]] for (uint p = 0; p < PIXELS; ++p) a[p] = sInput[row + (tx + p * 8) * STRIDE_X + kx * DIL_X];
                    uint wBase = (ci * taps + ky * K_W + kx) * OC_VEC;
                    [[unroll]] for (uint q = 0; q < OC_VEC; ++q) {
                        VEC4 w = sWeight[wBase + q];
                        [[unroll]] for (uint p = 0; p < PIXELS; ++p) acc[p][q] += a[p] * w;
                    }
                }
            }
        }
    }

    uint oy = oy0 + ty;
    if (oy >= OUT_H) return;
    // Bias and activation once per vec4 of accumulators: applying them per stored element
    // inflated this kernel ~10x on NVIDIA (64 inlined copies of the activation switch).
    vec4 result[PIXELS][OC_VEC];
    [[unroll]] for (uint q = 0; q < OC_VEC; ++q) {
        uint oc = oc0 + q * 4;
        vec4 bias = vec4(oc < OUT_C ? biasFor(oc) : 0.0, oc + 1 < OUT_C ? biasFor(oc + 1) : 0.0,
                         oc + 2 < OUT_C ? biasFor(oc + 2) : 0.0, oc + 3 < OUT_C ? biasFor(oc + 3) : 0.0);
        [[unroll]] for (uint p = 0; p < PIXELS; ++p) result[p][q] = applyActivation4(ACT, ACT_ALPHA, ACT_BETA, vec4(acc[p][q]) + bias);
    }
    [[unroll]] for (uint p = 0; p < PIXELS; ++p) {
        uint ox = ox0 + tx + p * 8;
        if (ox >= OUT_W) continue;
        [[unroll]] for (uint o = 0; o < OC_BLOCK; ++o)
            if (oc0 + o < OUT_C) storeFinished(n, oc0 + o, oy, ox, result[p][o / 4][o % 4]);
    }
}
