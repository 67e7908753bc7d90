#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
// Convolution as an implicit GEMM on tensor cores (VK_NV_cooperative_matrix, 16x16x16 fp16
// fragments, fp32 accumulators, fp16 ones in the ACC_F16 build): M = output pixels of a TILE_H x TILE_W tile, N = output
// channels, K = taps x input channels. Groups == 1, not transposed, fp16 input and output;
// built with HAS_F16 only.
//
// Workgroup: SUBGROUPS subgroups; subgroup s owns M fragments s*MF .. s*MF+MF-1 (16 consecutive
// pixels of one tile row each) for all NF N fragments of its N block, MF x NF <= 16 accumulators,
// 32 with fp16 accumulators (ACC_F16) (narrow N gets more M fragments, so each B fragment feeds
// more MMAs).
// B fragments (weights) are read straight from the packed buffer [K_PAD][N_PAD] fp16 (small,
// L1-resident); A fragments come from shared memory in one of three modes:
//   MODE_DIRECT: the input tile + halo, 16 channels per pass, is staged channels-last as
//     [D_TILE_H * D_TILE_W][16] fp16; the A fragment of tap (ky, kx) for 16 pixels is then a
//     plain strided load (row stride STRIDE_X * 16), no im2col copy. K order: tap, channel
//     (channels padded to IC_PAD, a multiple of 16). Software pipelining (the next pass's loads
//     in registers, a double buffer) measured slower on the H100 (ESPCN x2 1080p 3.20 vs 2.99
//     ms, the upscaler 2.55 vs 2.28 ms, before the benchmarks waited out the GPU's clock ramp, so
//     indicative): the extra registers cost more occupancy than it hid.
//   MODE_IM2COL: for few input channels where direct staging's per-tap padding would cost more
//     than 1.5x (3x3 with 17 channels: 9 x 32 = 288 vs 153 -> 160) and unfold-x cannot take them,
//     the im2col matrix [pixels][K_CHUNK] is built in shared memory, K order channel, tap, padded
//     only once to K_PAD. When the raw tile (all channels + halo) fits
//     (RAW_SMEM > 8) it is staged once and im2col gathers from shared memory; otherwise from
//     global memory. The planner sends such shapes to the portable tiled kernel when it can take
//     them (measured faster), so this mode runs when forced or when nothing else fits.
//   MODE_UNFOLD_X: few input channels with kW x IN_C <= 16 (3 -> 64 5x5: 15; 3x3 RGB: 9): the
//     input tile is staged once, unfolded along x only, as
//     [D_TILE_H rows][TILE_W output columns][IC_PAD] fp16 where slot kx * IN_C + c of column x holds
//     input channel c at x * STRIDE_X + kx * DIL_X. One kernel row ky is then a plain strided
//     fragment load, as in direct mode: K = kH x IC_PAD (5x5 3 -> 64: 80, like im2col, without the
//     per-pass gather; direct mode would need 400). The loop takes any IC_PAD multiple of 16; the
//     planner uses 16 (coopConfig says why).
// Channels-last fp16 tensors whose channel runs are 8-aligned (VEC_IN / VEC_OUT) move 8
// channels per 16-byte access instead of one element per access.
// Epilogue: each accumulator goes through shared memory, bias and activation per vec4, then the
// strided store helpers (NCHW, NHWC, slices of larger tensors). Needs a subgroup size of 32.
// Tried on the H100 and dropped (3x3 64->64 at 1080p, fp32 accumulators, 2026-11-23 with the
// clock-ramp-free harness, against 1.75 ms for the same build without them):
//   - each pass's weights staged in shared memory, B fragments loaded from there: 2.83 ms;
//   - the staged pixels padded from 16 to 24 halves (conflict-free fragment loads): 1.67 ms here,
//     but 3x3 64->32 (8 M fragments) 1.45 vs 0.96 ms and the networks 30% slower;
//   - 32 channels per pass (half the barriers): 2.51 ms.
// Every one of them adds shared memory, and the driver then leaves less L1 for the B fragments
// that all workgroups re-read; that is the likeliest common cause.
#include "conv2d_params.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;  // SUBGROUPS * subgroup size

// Mirror CoopConst in mlplugin/src/ops/convolution.cpp.
layout(constant_id = 55) const uint MODE = 0;
layout(constant_id = 56) const uint TILE_H = 8;
layout(constant_id = 57) const uint TILE_W = 32;      // multiple of 16
layout(constant_id = 58) const uint MF = 4;           // M fragments per subgroup (<= MAX_MF, MF * NF <= 16, 32 with ACC_F16)
layout(constant_id = 59) const uint NF = 4;           // N fragments per workgroup (<= MAX_NF)
layout(constant_id = 60) const uint N_BLOCKS = 1;     // workgroups along N: ceil(OUT_C / (NF * 16))
layout(constant_id = 61) const uint N_PAD = 16;       // row length of the packed weights
layout(constant_id = 62) const uint IC_PAD = 16;      // direct: channels per tap in K
layout(constant_id = 63) const uint K_CHUNK = 16;     // im2col: K columns staged per pass
layout(constant_id = 64) const uint K_PAD = 16;       // im2col: padded K
layout(constant_id = 65) const uint D_TILE_H = 1;     // staged input rows (tile + halo): direct, and im2col from RAW
layout(constant_id = 66) const uint D_TILE_W = 1;
layout(constant_id = 67) const uint A_PITCH = 24;     // im2col: shared row pitch (K_CHUNK + 8: fewer bank conflicts)
layout(constant_id = 68) const uint A_SMEM = 8;       // halves of sA (multiple of 8)
layout(constant_id = 69) const uint SUBGROUPS = 4;
layout(constant_id = 70) const uint RAW_SMEM = 8;     // im2col: halves of sRaw (multiple of 8), 8 = gather from global memory
layout(constant_id = 71) const uint VEC_IN = 0;       // 1: input channels-last fp16, 8-aligned channel runs
layout(constant_id = 72) const uint VEC_OUT = 0;      // 1: output channels-last fp16, 8-aligned channel runs

#define MODE_DIRECT 0u
#define MODE_IM2COL 1u
#define MODE_UNFOLD_X 2u
// MAX_MF: built twice, 4 (conv2d_coopmat_f16) and 8 (conv2d_coopmat_mf8_f16), so the MF 4 shapes
// keep exactly the accumulator array they were tuned with (a single MAX_MF 8 build measured up to
// 3.5x slower on them, in runs not yet clear of the GPU's clock ramp).
#ifndef MAX_MF
#define MAX_MF 4
#endif
#define MAX_NF 4
// ACC_F16 (conv2d_coopmat_acc16_f16, AllowHalfPrecisionComputation only): fp16 accumulators take
// half the registers, so a subgroup holds 8 M x 4 N fragments (32 accumulators) and each B
// fragment feeds twice the MMAs. H100, 3x3 64->64 at 1080p: 1.30 ms vs 1.75 ms for the same
// kernel with fp32 accumulators (both measured with an extra per-pass branch that cost ~25%).
// The planner pairs them with 8 M fragments only: MF 4 in this MAX_MF 8 build ran 2x slower
// (the same effect as in the note on MAX_MF above).
#ifdef ACC_F16
#define ACC_BITS 16
#else
#define ACC_BITS 32
#endif
#define F 16u  // fragment edge
#define STAGE_BATCH 8

// sOut first and every size a multiple of 8 halves: cooperative-matrix loads and stores need
// 16-byte aligned addresses, and the arrays are laid out in declaration order (a 1-element sRaw
// before sOut broke every store on the H100).
shared float sOut[SUBGROUPS * F * F];
shared float16_t sA[A_SMEM];
shared float16_t sRaw[RAW_SMEM];

// 8 consecutive channels c .. c + 7 of pixel (y, x), zero outside the image and past IN_C.
f16mat2x4 load8(uint n, uint c, int y, int x) {
    bool inside = y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
    int cy = clamp(y, 0, int(IN_H) - 1), cx = clamp(x, 0, int(IN_W) - 1);
    if (VEC_IN != 0) {
        // IN_C % 8 == 0 here, so the 8 channels are all valid or all padding.
        uint q = (n * IN_STRIDE_N + uint(cy) * IN_STRIDE_H + uint(cx) * IN_STRIDE_W + min(c, IN_C - 8)) / 4;
        f16mat2x4 v = f16mat2x4(heapF16x4[INPUT_SLOT].v[q], heapF16x4[INPUT_SLOT].v[q + 1]);
        return inside && c < IN_C ? v : f16mat2x4(0.0);
    }
    f16mat2x4 v;
    [[unroll]] for (uint j = 0; j < 8; ++j) {
        float value = loadInput(n, min(c + j, IN_C - 1), cy, cx);
        v[j / 4][j % 4] = float16_t(inside && c + j < IN_C ? value : 0.0);
    }
    return v;
}

// Direct mode: item i of a pass = (pixel p, channel half h); consecutive invocations take
// consecutive pixels, so each load is coalesced for NCHW and each item's stores are contiguous.
void stageDirect(uint n, int iy0, int ix0, uint c0) {
    const uint pixels = D_TILE_H * D_TILE_W;
    for (uint i = gl_LocalInvocationID.x; i < 2 * pixels; i += gl_WorkGroupSize.x) {
        uint p = i % pixels, h = i / pixels;
        f16mat2x4 v = load8(n, c0 + h * 8, iy0 + int(p / D_TILE_W), ix0 + int(p % D_TILE_W));
        [[unroll]] for (uint j = 0; j < 8; ++j) sA[p * 16 + h * 8 + j] = v[j / 4][j % 4];
    }
}

// im2col from global memory. Loads are issued STAGE_BATCH at a time before any is stored, so
// their latencies overlap.
void gatherIm2colGlobal(uint n, uint oy0, uint ox0, uint k0) {
    const uint taps = K_H * K_W, pixels = TILE_H * TILE_W, count = pixels * K_CHUNK;
    for (uint base = gl_LocalInvocationID.x; base < count; base += gl_WorkGroupSize.x * STAGE_BATCH) {
        float16_t v[STAGE_BATCH];
        [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j) {
            uint i = base + j * gl_WorkGroupSize.x;
            uint m = i % pixels, k = k0 + i / pixels;
            uint ic = k / taps, tap = k % taps;
            int y = int((oy0 + m / TILE_W) * STRIDE_Y + (tap / K_W) * DIL_Y) - int(PAD_T);
            int x = int((ox0 + m % TILE_W) * STRIDE_X + (tap % K_W) * DIL_X) - int(PAD_L);
            bool inside = i < count && ic < IN_C && y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
            float value = loadInput(n, min(ic, IN_C - 1), clamp(y, 0, int(IN_H) - 1), clamp(x, 0, int(IN_W) - 1));
            v[j] = float16_t(inside ? value : 0.0);
        }
        [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j) {
            uint i = base + j * gl_WorkGroupSize.x;
            if (i < count) sA[(i % pixels) * A_PITCH + i / pixels] = v[j];
        }
    }
}

// Unfold-x mode: each input element of the tile's span (row r, channel ic, column xi; columns
// fastest, so loads are coalesced for NCHW) is loaded once and stored into the K_W slots that use
// it, sA[(r * TILE_W + c) * IC_PAD + kx * IN_C + ic] for xi = c * STRIDE_X + kx * DIL_X. Loading
// every slot's element instead read each input element K_W times: H100, 1080p, 5x5 3->64 0.44 ->
// 0.40 ms, 3x3 3->64 0.30 -> 0.27 ms. The padding slots past K_W * IN_C are zeroed separately.
void stageUnfolded(uint n, int iy0, uint ox0) {
    const uint spanW = (TILE_W - 1) * STRIDE_X + (K_W - 1) * DIL_X + 1, count = D_TILE_H * IN_C * spanW;
    const int ix0 = int(ox0 * STRIDE_X) - int(PAD_L);
    for (uint base = gl_LocalInvocationID.x; base < count; base += gl_WorkGroupSize.x * STAGE_BATCH) {
        float16_t v[STAGE_BATCH];
        [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j) {
            uint i = base + j * gl_WorkGroupSize.x;
            uint xi = i % spanW, ic = (i / spanW) % IN_C, r = i / (spanW * IN_C);
            int y = iy0 + int(r), x = ix0 + int(xi);
            bool inside = i < count && y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
            float value = loadInput(n, ic, clamp(y, 0, int(IN_H) - 1), clamp(x, 0, int(IN_W) - 1));
            v[j] = float16_t(inside ? value : 0.0);
        }
        [[unroll]] for (uint j = 0; j < STAGE_BATCH; ++j) {
            uint i = base + j * gl_WorkGroupSize.x;
            if (i >= count) continue;
            uint xi = i % spanW, ic = (i / spanW) % IN_C, r = i / (spanW * IN_C);
            for (uint kx = 0; kx < K_W; ++kx) {
                int d = int(xi) - int(kx * DIL_X);
                if (d < 0 || uint(d) % STRIDE_X != 0 || uint(d) / STRIDE_X >= TILE_W) continue;
                sA[(r * TILE_W + uint(d) / STRIDE_X) * IC_PAD + kx * IN_C + ic] = v[j];
            }
        }
    }
    const uint used = K_W * IN_C, padSlots = IC_PAD - used;
    for (uint i = gl_LocalInvocationID.x; i < D_TILE_H * TILE_W * padSlots; i += gl_WorkGroupSize.x)
        sA[(i / padSlots) * IC_PAD + used + i % padSlots] = float16_t(0.0);
}

// The raw input tile [IN_C][D_TILE_H][D_TILE_W], zero-padded, once per workgroup.
void stageRaw(uint n, int iy0, int ix0) {
    const uint plane = D_TILE_H * D_TILE_W;
    for (uint i = gl_LocalInvocationID.x; i < IN_C * plane; i += gl_WorkGroupSize.x) {
        uint c = i / plane, p = i % plane;
        int y = iy0 + int(p / D_TILE_W), x = ix0 + int(p % D_TILE_W);
        bool inside = y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
        float value = loadInput(n, c, clamp(y, 0, int(IN_H) - 1), clamp(x, 0, int(IN_W) - 1));
        sRaw[i] = float16_t(inside ? value : 0.0);
    }
}

// im2col from the staged raw tile: item i = (pixel m, column k - k0), columns fastest, so a
// subgroup writes one contiguous run of a row (pixels fastest wrote 144 bytes apart: 8-way bank
// conflicts) and reads neighbouring taps of one row.
void gatherIm2colShared(uint k0) {
    const uint taps = K_H * K_W, pixels = TILE_H * TILE_W, plane = D_TILE_H * D_TILE_W;
    for (uint i = gl_LocalInvocationID.x; i < pixels * K_CHUNK; i += gl_WorkGroupSize.x) {
        uint m = i / K_CHUNK, kc = i % K_CHUNK, k = k0 + kc;
        uint ic = k / taps, tap = k % taps;
        uint y = (m / TILE_W) * STRIDE_Y + (tap / K_W) * DIL_Y, x = (m % TILE_W) * STRIDE_X + (tap % K_W) * DIL_X;
        sA[m * A_PITCH + kc] = ic < IN_C ? sRaw[ic * plane + y * D_TILE_W + x] : float16_t(0.0);
    }
}

void main() {
    const uint fragsPerRow = TILE_W / F;
    uint sg = gl_SubgroupID;
    uint ox0 = gl_WorkGroupID.x * TILE_W, oy0 = gl_WorkGroupID.y * TILE_H;
    uint n = gl_WorkGroupID.z / N_BLOCKS;
    uint nBase = (gl_WorkGroupID.z % N_BLOCKS) * NF * F;
    uint wBase = W_OFFSET + nBase;
    int iy0 = int(oy0 * STRIDE_Y) - int(PAD_T), ix0 = int(ox0 * STRIDE_X) - int(PAD_L);

    fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> acc[MAX_MF][MAX_NF];
    [[unroll]] for (uint i = 0; i < MAX_MF; ++i)
        [[unroll]] for (uint j = 0; j < MAX_NF; ++j) acc[i][j] = fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F>(0.0);
    fcoopmatNV<16, gl_ScopeSubgroup, F, F> a, b[MAX_NF];

    if (MODE == MODE_DIRECT) {
        for (uint c0 = 0; c0 < IN_C; c0 += 16) {
            barrier();  // the previous pass is done reading sA
            stageDirect(n, iy0, ix0, c0);
            barrier();
            for (uint ky = 0; ky < K_H; ++ky)
                for (uint kx = 0; kx < K_W; ++kx) {
                    uint k = (ky * K_W + kx) * IC_PAD + c0;
                    [[unroll]] for (uint j = 0; j < MAX_NF; ++j)
                        if (j < NF) coopMatLoadNV(b[j], heapF16[W_SLOT].v, wBase + k * N_PAD + j * F, N_PAD, false);
                    [[unroll]] for (uint i = 0; i < MAX_MF; ++i) {
                        if (i >= MF) continue;
                        uint f = sg * MF + i;
                        uint row = (f / fragsPerRow) * STRIDE_Y + ky * DIL_Y;
                        uint col = (f % fragsPerRow) * F * STRIDE_X + kx * DIL_X;
                        coopMatLoadNV(a, sA, (row * D_TILE_W + col) * 16, STRIDE_X * 16, false);
                        [[unroll]] for (uint j = 0; j < MAX_NF; ++j)
                            if (j < NF) acc[i][j] = coopMatMulAddNV(a, b[j], acc[i][j]);
                    }
                }
        }
    } else if (MODE == MODE_UNFOLD_X) {
        stageUnfolded(n, iy0, ox0);
        barrier();
        for (uint ky = 0; ky < K_H; ++ky)
            for (uint s = 0; s < IC_PAD; s += F) {
                uint k = ky * IC_PAD + s;
                [[unroll]] for (uint j = 0; j < MAX_NF; ++j)
                    if (j < NF) coopMatLoadNV(b[j], heapF16[W_SLOT].v, wBase + k * N_PAD + j * F, N_PAD, false);
                [[unroll]] for (uint i = 0; i < MAX_MF; ++i) {
                    if (i >= MF) continue;
                    uint f = sg * MF + i;
                    uint row = (f / fragsPerRow) * STRIDE_Y + ky * DIL_Y;
                    coopMatLoadNV(a, sA, (row * TILE_W + (f % fragsPerRow) * F) * IC_PAD + s, IC_PAD, false);
                    [[unroll]] for (uint j = 0; j < MAX_NF; ++j)
                        if (j < NF) acc[i][j] = coopMatMulAddNV(a, b[j], acc[i][j]);
                }
            }
    } else {
        if (RAW_SMEM > 8) stageRaw(n, iy0, ix0);
        for (uint k0 = 0; k0 < K_PAD; k0 += K_CHUNK) {
            barrier();  // sRaw is staged, and the previous chunk is done reading sA
            if (RAW_SMEM > 8) gatherIm2colShared(k0);
            else gatherIm2colGlobal(n, oy0, ox0, k0);
            barrier();
            uint steps = min(K_CHUNK, K_PAD - k0) / F;
            for (uint s = 0; s < steps; ++s) {
                uint k = k0 + s * F;
                [[unroll]] for (uint j = 0; j < MAX_NF; ++j)
                    if (j < NF) coopMatLoadNV(b[j], heapF16[W_SLOT].v, wBase + k * N_PAD + j * F, N_PAD, false);
                [[unroll]] for (uint i = 0; i < MAX_MF; ++i) {
                    if (i >= MF) continue;
                    coopMatLoadNV(a, sA, (sg * MF + i) * F * A_PITCH + s * F, A_PITCH, false);
                    [[unroll]] for (uint j = 0; j < MAX_NF; ++j)
                        if (j < NF) acc[i][j] = coopMatMulAddNV(a, b[j], acc[i][j]);
                }
            }
        }
    }

    // Epilogue through this subgroup's 16x16 patch of sOut, stored column-major (element (pixel
    // m, channel c) at c * 16 + m). Lane l takes pixel m = l % 16 and half g = l / 16 of the
    // channels: for strided outputs channels g, g + 2, ..., g + 14, so each store instruction
    // writes 16 consecutive pixels of two channels, whole 32-byte sectors for NCHW (lanes owning
    // 8 pixels of one channel instead made every store touch 32 sectors: ~4x slower at 64
    // channels); for VEC_OUT channels 8g .. 8g + 7, one 16-byte store.
    uint patch0 = sg * F * F;
    uint l = gl_SubgroupInvocationID, m = l % F, g = l / F;
    uint cStep = VEC_OUT != 0 ? 1 : 2, cFirst = VEC_OUT != 0 ? 8 * g : g;
    // The lane's biases of every N fragment, read before the first store: a read after a store
    // to another heap slot waits for it (the two may alias), so reading them per accumulator
    // waited out the memory latency once per accumulator (bench/RESULTS.md, "Fifteenth session").
    vec4 biasLo[MAX_NF], biasHi[MAX_NF];
    [[unroll]] for (uint j = 0; j < MAX_NF; ++j) {
        if (j >= NF) continue;
        uint oc0 = nBase + j * F + cFirst;
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            biasLo[j][q] = oc0 + q * cStep < OUT_C ? biasFor(oc0 + q * cStep) : 0.0;
            biasHi[j][q] = oc0 + (q + 4) * cStep < OUT_C ? biasFor(oc0 + (q + 4) * cStep) : 0.0;
        }
    }
    [[unroll]] for (uint i = 0; i < MAX_MF; ++i) {
        if (i >= MF) continue;
        uint f = sg * MF + i;
        uint oy = oy0 + f / fragsPerRow, ox = ox0 + (f % fragsPerRow) * F + m;
        [[unroll]] for (uint j = 0; j < MAX_NF; ++j) {
            if (j >= NF) continue;
#ifdef ACC_F16
            coopMatStoreNV(fcoopmatNV<32, gl_ScopeSubgroup, F, F>(acc[i][j]), sOut, patch0, F, true);
#else
            coopMatStoreNV(acc[i][j], sOut, patch0, F, true);
#endif
            subgroupMemoryBarrierShared();
            subgroupBarrier();
            vec4 lo, hi;
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                lo[q] = sOut[patch0 + (cFirst + q * cStep) * F + m];
                hi[q] = sOut[patch0 + (cFirst + (q + 4) * cStep) * F + m];
            }
            subgroupBarrier();  // read before the next accumulator overwrites the patch
            uint oc0 = nBase + j * F + cFirst;
            // Bias and activation once per vec4 (applyActivation4): a per-element activation
            // switch made conv2d_tiled ~10x slower on NVIDIA.
            lo = applyActivation4(ACT, ACT_ALPHA, ACT_BETA, lo + biasLo[j]);
            hi = applyActivation4(ACT, ACT_ALPHA, ACT_BETA, hi + biasHi[j]);
            if (oy >= OUT_H || ox >= OUT_W) {
            } else if (VEC_OUT != 0) {
                if (oc0 < OUT_C) {  // OUT_C % 8 == 0: all 8 channels or none
                    uint q = (n * OUT_STRIDE_N + oy * OUT_STRIDE_H + ox * OUT_STRIDE_W + oc0) / 4;
                    heapF16x4[OUT_SLOT].v[q] = f16vec4(lo);
                    heapF16x4[OUT_SLOT].v[q + 1] = f16vec4(hi);
                }
            } else {
                [[unroll]] for (uint q = 0; q < 4; ++q) {
                    if (oc0 + q * 2 < OUT_C) storeFinished(n, oc0 + q * 2, oy, ox, lo[q]);
                    if (oc0 + (q + 4) * 2 < OUT_C) storeFinished(n, oc0 + (q + 4) * 2, oy, ox, hi[q]);
                }
            }
        }
    }
}
