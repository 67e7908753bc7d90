#version 450
#extension GL_GOOGLE_include_directive : require
// Tiled GEMM: out = act(ALPHA * op(A) op(B) + BETA * C) over up to two batch dims.
// A workgroup of 16x16 invocations computes a 64x64 output tile, each invocation 4x4 outputs
// (rows ty + 16 i, columns tx + 16 j) with fp32 accumulators; K advances in steps of 16 staged
// in shared memory. Transposes, broadcasting and layouts are folded into the strides, so one
// kernel covers all of them. Constant ids mirror GemmConst in mlplugin/src/ops/gemm.cpp.
#include "common.glsl"

// Mirror kGemmTile in gemm.cpp.
#define TILE 64
#define KT 16
#define PER_THREAD 4

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;  // 16 x 16 x 1

layout(constant_id = 3) const uint M = 1;
layout(constant_id = 4) const uint N = 1;
layout(constant_id = 5) const uint K = 1;
layout(constant_id = 6) const uint BATCH1 = 1;  // size of the inner batch dim
layout(constant_id = 7) const uint A_SLOT = 0;
layout(constant_id = 8) const uint A_TYPE = 0;
layout(constant_id = 9) const uint A_OFFSET = 0;
layout(constant_id = 10) const uint A_STRIDE_B0 = 0;
layout(constant_id = 11) const uint A_STRIDE_B1 = 0;
layout(constant_id = 12) const uint A_STRIDE_M = 0;
layout(constant_id = 13) const uint A_STRIDE_K = 0;
layout(constant_id = 14) const uint B_SLOT = 1;
layout(constant_id = 15) const uint B_TYPE = 0;
layout(constant_id = 16) const uint B_OFFSET = 0;
layout(constant_id = 17) const uint B_STRIDE_B0 = 0;
layout(constant_id = 18) const uint B_STRIDE_B1 = 0;
layout(constant_id = 19) const uint B_STRIDE_K = 0;
layout(constant_id = 20) const uint B_STRIDE_N = 0;
layout(constant_id = 21) const uint HAS_C = 0;
layout(constant_id = 22) const uint C_SLOT = 2;
layout(constant_id = 23) const uint C_TYPE = 0;
layout(constant_id = 24) const uint C_OFFSET = 0;
layout(constant_id = 25) const uint C_STRIDE_B0 = 0;
layout(constant_id = 26) const uint C_STRIDE_B1 = 0;
layout(constant_id = 27) const uint C_STRIDE_M = 0;
layout(constant_id = 28) const uint C_STRIDE_N = 0;
layout(constant_id = 29) const uint OUT_TYPE = 0;
layout(constant_id = 30) const uint OUT_STRIDE_B0 = 0;
layout(constant_id = 31) const uint OUT_STRIDE_B1 = 0;
layout(constant_id = 32) const uint OUT_STRIDE_M = 0;
layout(constant_id = 33) const uint OUT_STRIDE_N = 0;
layout(constant_id = 34) const float ALPHA = 1.0;
layout(constant_id = 35) const float BETA = 1.0;
layout(constant_id = 36) const uint ACT = 0;
layout(constant_id = 37) const float ACT_ALPHA = 0.0;
layout(constant_id = 38) const float ACT_BETA = 0.0;

#define OUT_SLOT 3u

// Row tiles beyond 65535 workgroups are covered by several launches.
layout(push_constant) uniform Push { uint rowTileBase; } pc;

shared float sA[KT][TILE + 1];  // [k][m], padded against bank conflicts
shared float sB[KT][TILE + 1];  // [k][n]

void main() {
    const uint threads = 256;
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint tid = ty * 16 + tx;
    uint n0 = gl_WorkGroupID.x * TILE;
    uint m0 = (gl_WorkGroupID.y + pc.rowTileBase) * TILE;
    uint b0 = gl_WorkGroupID.z / BATCH1, b1 = gl_WorkGroupID.z % BATCH1;
    uint aBase = A_OFFSET + b0 * A_STRIDE_B0 + b1 * A_STRIDE_B1;
    uint bBase = B_OFFSET + b0 * B_STRIDE_B0 + b1 * B_STRIDE_B1;

    float acc[PER_THREAD][PER_THREAD];
    [[unroll]] for (uint i = 0; i < PER_THREAD; ++i)
        [[unroll]] for (uint j = 0; j < PER_THREAD; ++j) acc[i][j] = 0.0;

    for (uint k0 = 0; k0 < K; k0 += KT) {
        barrier();  // the previous step is done reading shared memory
        // All staging loads first (unconditional, from clamped coordinates), then the selects and
        // stores: loads behind branches would not overlap their latencies.
        const uint perThread = KT * TILE / threads;
        float va[perThread], vb[perThread];
        [[unroll]] for (uint j = 0; j < perThread; ++j) {
            uint e = tid + j * threads;
            uint m = min(m0 + e / KT, M - 1), k = min(k0 + e % KT, K - 1);  // A: consecutive invocations walk k
            va[j] = loadElem(A_SLOT, A_TYPE, aBase + m * A_STRIDE_M + k * A_STRIDE_K);
            uint n = min(n0 + e % TILE, N - 1), kb = min(k0 + e / TILE, K - 1);  // B: consecutive invocations walk n
            vb[j] = loadElem(B_SLOT, B_TYPE, bBase + kb * B_STRIDE_K + n * B_STRIDE_N);
        }
        [[unroll]] for (uint j = 0; j < perThread; ++j) {
            uint e = tid + j * threads;
            uint row = e / KT, kk = e % KT, col = e % TILE, kb = e / TILE;
            sA[kk][row] = (m0 + row < M && k0 + kk < K) ? va[j] : 0.0;
            sB[kb][col] = (n0 + col < N && k0 + kb < K) ? vb[j] : 0.0;
        }
        barrier();
        for (uint kk = 0; kk < KT; ++kk) {
            float a[PER_THREAD], b[PER_THREAD];
            [[unroll]] for (uint i = 0; i < PER_THREAD; ++i) a[i] = sA[kk][ty + 16 * i];
            [[unroll]] for (uint j = 0; j < PER_THREAD; ++j) b[j] = sB[kk][tx + 16 * j];
            [[unroll]] for (uint i = 0; i < PER_THREAD; ++i)
                [[unroll]] for (uint j = 0; j < PER_THREAD; ++j) acc[i][j] += a[i] * b[j];
        }
    }

    [[unroll]] for (uint i = 0; i < PER_THREAD; ++i) {
        uint m = m0 + ty + 16 * i;
        if (m >= M) continue;
        [[unroll]] for (uint j = 0; j < PER_THREAD; ++j) {
            uint n = n0 + tx + 16 * j;
            if (n >= N) continue;
            float v = ALPHA * acc[i][j];
            if (HAS_C != 0)
                v += BETA * loadElem(C_SLOT, C_TYPE, C_OFFSET + b0 * C_STRIDE_B0 + b1 * C_STRIDE_B1 + m * C_STRIDE_M + n * C_STRIDE_N);
            v = applyActivation(ACT, ACT_ALPHA, ACT_BETA, v);
            storeElem(OUT_SLOT, OUT_TYPE, b0 * OUT_STRIDE_B0 + b1 * OUT_STRIDE_B1 + m * OUT_STRIDE_M + n * OUT_STRIDE_N, v);
        }
    }
}
