#version 450
#extension GL_GOOGLE_include_directive : require
#ifndef PORTABLE
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#endif
// Winograd F(2x2, 3x3) convolution with the element-wise products as batched GEMMs on tensor cores
// (VK_NV_cooperative_matrix 16x16x16 fp16 fragments; fp32 accumulators, fp16 ones in the ACC_F16
// build). 3x3, stride 1, dilation 1, groups 1, any padding; fp16 input and output, any layout.
// The WINO_F4 builds compute F(4x4, 3x3) instead (described at the end of this comment).
//
// Each 2x2 output block reads a 4x4 input patch d; with U = G g G^T (4x4 per input channel c and
// output channel k, packed at initialization by pack_conv_coopmat.comp mode 4) and
// V = B^T d B, the block's output is Y = A^T M A where M[p] = sum_c V[p](c) U[p](c, k) for each
// of the 16 positions p. So per position one GEMM: [blocks x C] x [C x K], 2.25x fewer
// multiplies than the direct convolution (16 per 4 outputs instead of 36).
//
// A workgroup (SUBGROUPS of 32: 8 or 16) computes T = BLOCKS_Y x BLOCKS_X blocks (a
// 2 BLOCKS_Y x 2 BLOCKS_X output tile) x BN = NF x 16 output channels of one N block. Subgroup s
// owns positions PPS s .. PPS s + PPS - 1 (PPS = 16 / SUBGROUPS): MF = T / 16 M fragments x NF N
// fragments each. Per slice of 16 input channels:
//   - each invocation loads the 4x4 patch of (block, channel pair) items into registers (RA),
//     one slice ahead, and after the MMAs of the current slice writes their V to shared memory
//     as [16 positions][T blocks][16 channels] fp16, pitch 48 bytes per block (16 consecutive
//     blocks of a fragment land in distinct banks); two such buffers alternate, one barrier per
//     slice;
//   - U fragments come straight from the packed buffer ([N_BLOCKS][SLICES][16][NF][16][16]:
//     each fragment 512 contiguous bytes), also one slice ahead: a position's U is used by one
//     subgroup only, so staging it in shared memory would buy no reuse.
// Epilogue, per N fragment (the fp32 M of all positions does not fit 48 KiB at once): the
// accumulators go to shared memory as [16][T][16] fp32, then each invocation applies A^T M A to
// (block, channel) items, adds the bias, the fused activation and per-channel PReLU, and stores
// the 2x2 outputs (partial blocks at the edges are clipped).
//
// PORTABLE: the same kernel with the tensor-core operations replaced by scalar loops over the
// same memory layouts (U read from the packed buffer, V from shared memory, M written to the
// same epilogue layout). It runs on any device (lavapipe in CI): tests check the transforms,
// the packing, edges and the epilogue with it. Never chosen for speed.
//
// Measured (H100, bench/RESULTS.md "Winograd F(2x2,3x3)"): conv 3x3 64->64 at 1080p 1.23-1.29 ms
// against conv2d_igemm's 0.88: the MMAs run at 53 TFLOP/s; patch loads, transforms, barriers and
// the epilogue cost more than the multiplies saved. A tuning candidate only.
//
// WINO_F4: F(4x4, 3x3) (Lavin and Gray 2016): 4x4 output blocks from 6x6 patches, 36 positions,
// 4x fewer multiplies than the direct convolution (36 per 16 outputs instead of 144) and 2.25x
// input patch overlap instead of 4x, at the price of larger transforms (B^T and A^T with entries
// up to 5 and 8) and more fp16 rounding in V and U (relative L2 error about 3e-3 against 5e-4).
// SUBGROUPS divides 36 (9, 12 or 18). Shared memory: one V buffer (36 x 16 blocks x 48 bytes,
// 27 KiB; two would not fit the 32 KiB of lavapipe, where the portable build is tested, and leave
// no second workgroup elsewhere), so each slice takes two barriers; the epilogue stages M in two
// groups of 18 positions (rows 0-2 and 3-5 of the 6x6), each invocation summing its items' A^T M
// over both before the final transform.
#include "conv2d_params.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;  // SUBGROUPS * 32

// Mirror WinogradConst in mlplugin/src/ops/convolution.cpp (after conv2d_params.glsl's ids).
layout(constant_id = 75) const uint BLOCKS_Y = 4;  // 2x2 blocks per tile column
layout(constant_id = 76) const uint BLOCKS_X = 8;  // and row (BLOCKS_Y * BLOCKS_X a multiple of 16)
layout(constant_id = 77) const uint NF = 2;        // N fragments per workgroup
layout(constant_id = 78) const uint N_BLOCKS = 1;
layout(constant_id = 79) const uint SLICES = 1;    // ceil(IN_C / 16)
layout(constant_id = 80) const uint PRELU_OFFSET = 0xffffffffu;  // fp32 element of the slopes in the persistent slot; ~0: none
layout(constant_id = 81) const uint VEC2_IN = 0;   // 1: input channels-last fp16, IN_C and every stride even: 32-bit channel-pair loads
layout(constant_id = 82) const uint SUBGROUPS = 8; // 8 or 16 (F(4x4): 9, 12 or 18)

#ifdef ACC_F16
#define ACC_BITS 16
#else
#define ACC_BITS 32
#endif
#define F 16u

layout(set = 0, binding = 0) buffer HeapU32 { uint v[]; } heapU32[MLP_SLOTS];

#ifdef WINO_F4
const uint OB = 4;                         // output block edge
const uint V_BUFFERS = 1;
const uint M_GROUPS = 2;                   // the epilogue stages M in 2 groups of positions
#else
const uint OB = 2;
const uint V_BUFFERS = 2;
const uint M_GROUPS = 1;
#endif
const uint PITCH = 3;                      // uvec4 per staged block row of V (16 halves + 16 bytes)
const uint PATCH = OB + 2;                 // input patch edge
const uint THREADS = SUBGROUPS * 32;
const uint POS = PATCH * PATCH;            // Winograd positions
const uint PPS = POS / SUBGROUPS;          // positions per subgroup
const uint T = BLOCKS_Y * BLOCKS_X;        // blocks per tile
const uint MF = T / F;
const uint BN = NF * F;
const uint GROUP_POS = POS / M_GROUPS;     // positions of M staged at once
const uint V_VECS = POS * T * PITCH;       // one V buffer
const uint ITEMS = T * 8;                  // (block, channel pair) items per slice
const uint ITEMS_PT = (ITEMS + THREADS - 1) / THREADS;
const uint OUT_ITEMS = T * F;              // (block, channel) items per N fragment
const uint OUT_PT = (OUT_ITEMS + THREADS - 1) / THREADS;

// V_BUFFERS V buffers; after the loop the epilogue's fp32 M of one N fragment and position group
// ([GROUP_POS][T][16] floats, 4 GROUP_POS T uvec4, at most the V_BUFFERS PITCH POS T of the buffers).
shared uvec4 sm[V_BUFFERS * V_VECS];

uint RA[ITEMS_PT][POS];  // the raw PATCH x PATCH patches of this invocation's items, channel pairs as packed halves

#ifdef PORTABLE
float acc[PPS][NF][T / 2];  // lane l: entries l + 32 q (block (l + 32 q) / 16, channel % 16) of each fragment
#else
fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> acc[PPS][MF][NF];
fcoopmatNV<16, gl_ScopeSubgroup, F, F> bCur[PPS][NF], bNext[PPS][NF];
#endif

// Channels c, c + 1 of input pixel (y, x) as packed halves, zero outside the image and past IN_C.
uint load2(uint n, uint c, int y, int x) {
    bool inside = y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
    uint cy = uint(clamp(y, 0, int(IN_H) - 1)), cx = uint(clamp(x, 0, int(IN_W) - 1));
    uint base = n * IN_STRIDE_N + cy * IN_STRIDE_H + cx * IN_STRIDE_W;
    if (VEC2_IN != 0) {
        uint v = heapU32[INPUT_SLOT].v[(base + min(c, IN_C - 2)) / 2];
        return inside && c < IN_C ? v : 0u;
    }
    float a = loadElem(INPUT_SLOT, IN_DTYPE, base + min(c, IN_C - 1) * IN_STRIDE_C);
    float b = loadElem(INPUT_SLOT, IN_DTYPE, base + min(c + 1, IN_C - 1) * IN_STRIDE_C);
    return packHalf2x16(vec2(inside && c < IN_C ? a : 0.0, inside && c + 1 < IN_C ? b : 0.0));
}

// Item i (< ITEMS) of the tile: block i / 8, channel pair i % 8.
void fetchInput(uint s, uint n, int iy0, int ix0) {
    [[unroll]] for (uint j = 0; j < ITEMS_PT; ++j) {
        uint i = gl_LocalInvocationID.x + j * THREADS;
        if (i >= ITEMS) break;
        uint b = i / 8, c = s * F + (i % 8) * 2;
        int y = iy0 + int(OB * (b / BLOCKS_X)), x = ix0 + int(OB * (b % BLOCKS_X));
        [[unroll]] for (uint r = 0; r < PATCH; ++r)
            [[unroll]] for (uint k = 0; k < PATCH; ++k) RA[j][r * PATCH + k] = load2(n, c, y + int(r), x + int(k));
    }
}

#ifdef WINO_F4
// One column (or row) of B^T d for F(4x4, 3x3).
void inputTransform6(in vec2 d[6], out vec2 t[6]) {
    t[0] = 4.0 * d[0] - 5.0 * d[2] + d[4];
    t[1] = d[3] + d[4] - 4.0 * (d[1] + d[2]);
    t[2] = d[4] - d[3] + 4.0 * (d[1] - d[2]);
    t[3] = d[4] - d[2] + 2.0 * (d[3] - d[1]);
    t[4] = d[4] - d[2] + 2.0 * (d[1] - d[3]);
    t[5] = 4.0 * d[1] - 5.0 * d[3] + d[5];
}

// V = B^T d B of the fetched 6x6 patches into V buffer `buf`, rounded to fp16.
void transformStore(uint buf) {
    [[unroll]] for (uint j = 0; j < ITEMS_PT; ++j) {
        uint i = gl_LocalInvocationID.x + j * THREADS;
        if (i >= ITEMS) break;
        vec2 t[6][6];
        [[unroll]] for (uint k = 0; k < 6; ++k) {  // B^T d, column k
            vec2 d[6], col[6];
            [[unroll]] for (uint r = 0; r < 6; ++r) d[r] = unpackHalf2x16(RA[j][r * 6 + k]);
            inputTransform6(d, col);
            [[unroll]] for (uint r = 0; r < 6; ++r) t[r][k] = col[r];
        }
        uint word = (buf * V_VECS + (i / 8) * PITCH) * 4 + i % 8;  // 32-bit word of position 0
        [[unroll]] for (uint r = 0; r < 6; ++r) {  // (B^T d) B, row r
            vec2 v[6];
            inputTransform6(t[r], v);
            [[unroll]] for (uint k = 0; k < 6; ++k) {
                uint w = word + (r * 6 + k) * T * PITCH * 4;
                sm[w / 4][w % 4] = packHalf2x16(v[k]);
            }
        }
    }
}
#else
// V = B^T d B of the fetched patches into V buffer `buf`, rounded to fp16.
void transformStore(uint buf) {
    [[unroll]] for (uint j = 0; j < ITEMS_PT; ++j) {
        uint i = gl_LocalInvocationID.x + j * THREADS;
        if (i >= ITEMS) break;
        vec2 d[4][4], t[4][4];
        [[unroll]] for (uint r = 0; r < 4; ++r)
            [[unroll]] for (uint k = 0; k < 4; ++k) d[r][k] = unpackHalf2x16(RA[j][r * 4 + k]);
        [[unroll]] for (uint k = 0; k < 4; ++k) {  // B^T d: rows
            t[0][k] = d[0][k] - d[2][k];
            t[1][k] = d[1][k] + d[2][k];
            t[2][k] = d[2][k] - d[1][k];
            t[3][k] = d[1][k] - d[3][k];
        }
        uint word = (buf * V_VECS + (i / 8) * PITCH) * 4 + i % 8;  // 32-bit word of position 0
        [[unroll]] for (uint r = 0; r < 4; ++r) {  // (B^T d) B: columns
            vec2 v[4] = {t[r][0] - t[r][2], t[r][1] + t[r][2], t[r][2] - t[r][1], t[r][1] - t[r][3]};
            [[unroll]] for (uint k = 0; k < 4; ++k) {
                uint w = word + (r * 4 + k) * T * PITCH * 4;
                sm[w / 4][w % 4] = packHalf2x16(v[k]);
            }
        }
    }
}

#endif

// Element offset of U fragment (position p, N fragment j) of slice s in N block nb.
uint uFragment(uint nb, uint s, uint p, uint j) { return W_OFFSET + (((nb * SLICES + s) * POS + p) * NF + j) * F * F; }

#ifdef PORTABLE
void mmaSlice(uint s, uint buf, uint nb, uint sg, uint lane) {
    [[unroll]] for (uint pp = 0; pp < PPS; ++pp) {
        uint p = sg * PPS + pp;
        for (uint j = 0; j < NF; ++j) {
            uint u = uFragment(nb, s, p, j);
            for (uint q = 0; q < T / 2; ++q) {
                uint e = lane + 32 * q, b = e / F, n = e % F;
                float sum = 0.0;
                for (uint c = 0; c < F; ++c) {
                    uint w = (buf * V_VECS + (p * T + b) * PITCH) * 4 + c / 2;
                    float v = unpackHalf2x16(sm[w / 4][w % 4])[c % 2];
                    sum += v * float(heapF16[W_SLOT].v[u + c * F + n]);
                }
                acc[pp][j][q] += sum;
            }
        }
    }
}
#else
void loadU(uint s, uint nb, uint sg) {
    [[unroll]] for (uint pp = 0; pp < PPS; ++pp)
        [[unroll]] for (uint j = 0; j < NF; ++j) coopMatLoadNV(bNext[pp][j], heapF16[W_SLOT].v, uFragment(nb, s, sg * PPS + pp, j), F, false);
}

void mmaSlice(uint buf, uint sg) {
    fcoopmatNV<16, gl_ScopeSubgroup, F, F> a;
    [[unroll]] for (uint pp = 0; pp < PPS; ++pp) {
        uint p = sg * PPS + pp;
        [[unroll]] for (uint i = 0; i < MF; ++i) {
            coopMatLoadNV(a, sm, buf * V_VECS + (p * T + i * F) * PITCH, PITCH, false);
            [[unroll]] for (uint j = 0; j < NF; ++j) acc[pp][i][j] = coopMatMulAddNV(a, bCur[pp][j], acc[pp][i][j]);
        }
    }
}
#endif

// M of position p of the staged group, block b, channel c (of the N fragment in shared memory).
float mAt(uint p, uint b, uint c) {
    uint e = (p * T + b) * F + c;
    return uintBitsToFloat(sm[e / 4][e % 4]);
}

// Writes the accumulators of N fragment j for the positions of group g to shared memory as
// [GROUP_POS][T][16] fp32. Whether a position is in the group depends on the subgroup only, so
// the cooperative stores stay in uniform control flow.
void stageFragment(uint j, uint g, uint sg, uint lane) {
    [[unroll]] for (uint pp = 0; pp < PPS; ++pp) {
        uint p = sg * PPS + pp;
        if (p / GROUP_POS != g) continue;
        p -= g * GROUP_POS;
#ifdef PORTABLE
        for (uint q = 0; q < T / 2; ++q) {
            uint e = (p * T) * F + lane + 32 * q;
            sm[e / 4][e % 4] = floatBitsToUint(acc[pp][j][q]);
        }
#else
        [[unroll]] for (uint i = 0; i < MF; ++i) {
#ifdef ACC_F16
            coopMatStoreNV(fcoopmatNV<32, gl_ScopeSubgroup, F, F>(acc[pp][i][j]), sm, (p * T + i * F) * F / 4, F / 4, false);
#else
            coopMatStoreNV(acc[pp][i][j], sm, (p * T + i * F) * F / 4, F / 4, false);
#endif
        }
#endif
    }
}

// Bias, activation and PReLU of output channel oc; stores the OB x OB block y at (oy, ox),
// clipped to the output.
void storeBlock(float y[OB][OB], uint n, uint oc, uint oy, uint ox) {
    float bias = biasFor(oc), slope = PRELU_OFFSET != 0xffffffffu ? heapF32[PERSISTENT_SLOT].v[PRELU_OFFSET + oc] : 1.0;
    [[unroll]] for (uint dy = 0; dy < OB; ++dy)
        [[unroll]] for (uint dx = 0; dx < OB; ++dx)
            if (oy + dy < OUT_H && ox + dx < OUT_W) {
                float v = applyActivation(ACT, ACT_ALPHA, ACT_BETA, y[dy][dx] + bias);
                storeElem(OUT_SLOT, OUT_DTYPE, n * OUT_STRIDE_N + oc * OUT_STRIDE_C + (oy + dy) * OUT_STRIDE_H + (ox + dx) * OUT_STRIDE_W,
                          v < 0.0 ? v * slope : v);  // PReLU after the activation (slope 1: none)
            }
}

#ifdef WINO_F4
// One column (or row) of A^T M for F(4x4, 3x3).
vec4 outputTransform6(float m0, float m1, float m2, float m3, float m4, float m5) {
    float s12 = m1 + m2, d12 = m1 - m2, s34 = m3 + m4, d34 = m3 - m4;
    return vec4(m0 + s12 + s34, d12 + 2.0 * d34, s12 + 4.0 * s34, d12 + 8.0 * d34 + m5);
}

vec4 zAcc[OUT_PT][6];  // A^T M of this invocation's items: zAcc[k][q][r] is row r, column q

// Adds the staged rows 3g .. 3g + 2 of M (group g) to A^T M: columns 3g .. 3g + 2 of A^T.
void accumulateGroup(uint g) {
    const vec4 a0 = g == 0 ? vec4(1, 0, 0, 0) : vec4(1, 2, 4, 8);
    const vec4 a1 = g == 0 ? vec4(1, 1, 1, 1) : vec4(1, -2, 4, -8);
    const vec4 a2 = g == 0 ? vec4(1, -1, 1, -1) : vec4(0, 0, 0, 1);
    [[unroll]] for (uint k = 0; k < OUT_PT; ++k) {
        uint i = gl_LocalInvocationID.x + k * THREADS;
        if (i >= OUT_ITEMS) break;
        uint b = i / F, c = i % F;
        [[unroll]] for (uint q = 0; q < 6; ++q) {
            vec4 z = a0 * mAt(q, b, c) + a1 * mAt(6 + q, b, c) + a2 * mAt(12 + q, b, c);
            zAcc[k][q] = g == 0 ? z : zAcc[k][q] + z;
        }
    }
}

// Y = (A^T M) A for N fragment j; stores inside the output.
void outputFragment(uint j, uint n, uint oy0, uint ox0, uint nBase) {
    [[unroll]] for (uint k = 0; k < OUT_PT; ++k) {
        uint i = gl_LocalInvocationID.x + k * THREADS;
        if (i >= OUT_ITEMS) break;
        uint b = i / F, c = i % F, oc = nBase + j * F + c;
        if (oc >= OUT_C) continue;
        float y[4][4];
        [[unroll]] for (uint r = 0; r < 4; ++r) {
            vec4 row = outputTransform6(zAcc[k][0][r], zAcc[k][1][r], zAcc[k][2][r], zAcc[k][3][r], zAcc[k][4][r], zAcc[k][5][r]);
            [[unroll]] for (uint q = 0; q < 4; ++q) y[r][q] = row[q];
        }
        storeBlock(y, n, oc, oy0 + OB * (b / BLOCKS_X), ox0 + OB * (b % BLOCKS_X));
    }
}
#else
void accumulateGroup(uint g) {}

// Y = A^T M A for the staged N fragment j; stores inside the output.
void outputFragment(uint j, uint n, uint oy0, uint ox0, uint nBase) {
    [[unroll]] for (uint k = 0; k < OUT_PT; ++k) {
        uint i = gl_LocalInvocationID.x + k * THREADS;
        if (i >= OUT_ITEMS) break;
        uint b = i / F, c = i % F, oc = nBase + j * F + c;
        if (oc >= OUT_C) continue;
        float m[4][4];
        [[unroll]] for (uint p = 0; p < POS; ++p) m[p / 4][p % 4] = mAt(p, b, c);
        vec4 z0, z1;  // A^T M: rows 0 and 1
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            z0[q] = m[0][q] + m[1][q] + m[2][q];
            z1[q] = m[1][q] - m[2][q] - m[3][q];
        }
        float y[2][2] = {{z0[0] + z0[1] + z0[2], z0[1] - z0[2] - z0[3]}, {z1[0] + z1[1] + z1[2], z1[1] - z1[2] - z1[3]}};
        storeBlock(y, n, oc, oy0 + OB * (b / BLOCKS_X), ox0 + OB * (b % BLOCKS_X));
    }
}
#endif

void main() {
    // The portable build runs on any subgroup size: its "subgroups" are 32 invocations in order.
    // The tensor-core build needs the hardware's (the planner requires subgroups of 32).
    uint tid = gl_LocalInvocationID.x, lane = tid % 32;
#ifdef PORTABLE
    uint sg = tid / 32;
#else
    uint sg = gl_SubgroupID;
#endif
    uint nb = gl_WorkGroupID.x % N_BLOCKS, tx = gl_WorkGroupID.x / N_BLOCKS;  // N blocks of one tile adjacent: the input is read from L2 once
    uint ox0 = tx * OB * BLOCKS_X, oy0 = gl_WorkGroupID.y * OB * BLOCKS_Y, n = gl_WorkGroupID.z;
    int iy0 = int(oy0) - int(PAD_T), ix0 = int(ox0) - int(PAD_L);

#ifdef PORTABLE
    [[unroll]] for (uint pp = 0; pp < PPS; ++pp)
        for (uint j = 0; j < NF; ++j)
            for (uint q = 0; q < T / 2; ++q) acc[pp][j][q] = 0.0;
#else
    [[unroll]] for (uint pp = 0; pp < PPS; ++pp)
        [[unroll]] for (uint i = 0; i < MF; ++i)
            [[unroll]] for (uint j = 0; j < NF; ++j) acc[pp][i][j] = fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F>(0.0);
    loadU(0, nb, sg);
#endif
    fetchInput(0, n, iy0, ix0);
    transformStore(0);
    barrier();
    for (uint s = 0; s < SLICES; ++s) {
        // Slice s + 1 is loaded into registers before the MMAs of slice s and written to the other
        // V buffer after them; the barrier ending slice s - 1 guarantees every subgroup finished
        // reading that buffer. With one buffer, a barrier between the MMAs and the write.
        uint buf = V_BUFFERS == 1 ? 0 : s % 2, next = V_BUFFERS == 1 ? 0 : (s + 1) % 2;
#ifndef PORTABLE
        [[unroll]] for (uint pp = 0; pp < PPS; ++pp)
            [[unroll]] for (uint j = 0; j < NF; ++j) bCur[pp][j] = bNext[pp][j];
        if (s + 1 < SLICES) loadU(s + 1, nb, sg);
#endif
        if (s + 1 < SLICES) fetchInput(s + 1, n, iy0, ix0);
#ifdef PORTABLE
        mmaSlice(s, buf, nb, sg, lane);
#else
        mmaSlice(buf, sg);
#endif
        if (s + 1 < SLICES) {
            if (V_BUFFERS == 1) barrier();
            transformStore(next);
        }
        barrier();
    }
    // The last barrier above: every subgroup is done with the V buffers, which become the
    // epilogue's M staging.
    [[unroll]] for (uint j = 0; j < NF; ++j) {
        [[unroll]] for (uint g = 0; g < M_GROUPS; ++g) {
            if (j > 0 || g > 0) barrier();  // the previous group's M was read
            stageFragment(j, g, sg, lane);
            barrier();
            accumulateGroup(g);
        }
        outputFragment(j, n, oy0, ox0, nb * BN);
    }
}
