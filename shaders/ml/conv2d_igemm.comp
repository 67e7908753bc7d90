#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
// Convolution as an implicit GEMM on tensor cores with both operands staged in shared memory
// (VK_NV_cooperative_matrix 16x16x16 fp16 fragments; fp32 accumulators, fp16 ones in the ACC_F16
// build). M = the output pixels of a TILE_H x (16 FW) tile, N = BN = WG_N x NF x 16 output
// channels of one N block, K = taps x input channels. Groups 1, not transposed; the input is fp16
// channels-last with channel runs of 8 (16-byte loads); fp16 output, any layout.
//
// K is walked in phases. A phase stages, with one barrier pair:
//   A: when it starts a new slice of CC input channels, the input tile plus its halo for those
//      channels, [HALO_H][HALO_W] pixels of CC halves each, padded by 16 bytes per pixel so the
//      fragment loads (16 pixels at a stride of STRIDE_X pixels) hit distinct banks. Every tap's
//      A fragment is then a strided view of it: each input element is loaded from memory once
//      per slice, not once per tap.
//   B: the packed weights of KY_STAGE kernel rows of that slice, [KY_STAGE x K_W x CC][BN],
//      padded by 16 bytes per row.
// While the tensor cores work on a phase, its successor's global loads are already in flight into
// registers (RA, RB), stored to shared memory after the next barrier: a register double buffer,
// since Vulkan offers no asynchronous global-to-shared copy.
// Subgroup s owns the MF x NF accumulators of M fragments (s % WG_M) * MF .. + MF - 1 (fragment f
// covers tile row f / FW, columns (f % FW) * 16 .. + 15) and N fragments (s / WG_M) * NF .. + NF - 1.
//
// Weights: the packed buffer [N_BLOCKS][SLICES][K_H][K_W][CC][BN] fp16 (pack_conv_coopmat.comp,
// mode 3), so every phase reads one contiguous run.
// Epilogue (per accumulator, through a 1 KiB fp32 patch of sA per subgroup): bias, the
// fused activation or per-channel PReLU slope, the depth-to-space remap of the store, a residual
// read at the stored position (nearest- or bilinearly upsampled by RES_SCALE), a clamp, then 8
// channels per 16-byte store
// (VEC_OUT) or strided scalar stores. With FRAG_STORE (the planner sets it where the output is
// fp16 channels-last with OUT_C % 16 == 0, no depth-to-space or pooling, any residual read 1:1, and
// the tile has at most two N fragments per subgroup) every fragment lying wholly inside the image
// skips the patch: bias, activation, PReLU, residual and clamp are applied to the accumulator's own
// elements and it is stored with one cooperative-matrix store (epilogueFragments). With POOL (2x2
// max pooling folded into the store) the subgroup pools its own pairs of rows and stores only the
// pooled tensor. With PROJ_C (a 1x1 convolution of the activated output, fused by the graph
// compiler) each subgroup, holding every channel of its pixels, multiplies its activated
// accumulators by the 1x1 weights in registers and stores only that product
// (epilogueProjected).
#include "conv2d_params.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;  // WG_M * WG_N * 32

// Mirror IgemmConst in mlplugin/src/ops/convolution.cpp (after conv2d_params.glsl's D2S ids).
layout(constant_id = 75) const uint TILE_H = 16;
layout(constant_id = 76) const uint FW = 1;         // M fragments per tile row
layout(constant_id = 77) const uint WG_M = 4;       // subgroups along M
layout(constant_id = 78) const uint WG_N = 2;       // subgroups along N
layout(constant_id = 79) const uint MF = 4;         // M fragments per subgroup (WG_M * MF == TILE_H * FW)
layout(constant_id = 80) const uint NF = 2;         // N fragments per subgroup
layout(constant_id = 81) const uint N_BLOCKS = 1;
layout(constant_id = 82) const uint CC = 16;        // input channels per slice (a multiple of 16)
layout(constant_id = 83) const uint SLICES = 1;     // ceil(IN_C / CC)
layout(constant_id = 84) const uint KY_STAGE = 3;   // kernel rows per B stage: 1 or K_H
layout(constant_id = 85) const uint HALO_H = 18;
layout(constant_id = 86) const uint HALO_W = 18;
layout(constant_id = 87) const uint A_SMEM = 8;     // uvec4 of sA (>= staged tile, >= 64 per subgroup)
layout(constant_id = 88) const uint VEC_IN = 0;     // 1: input 0 (or the source) fp16 channels-last, channel runs of 8, 16-byte aligned
layout(constant_id = 89) const uint VEC_OUT = 0;    // 1: likewise for the output (and the residual, if any)
layout(constant_id = 90) const uint PRELU_OFFSET = 0xffffffffu;  // fp32 element of the slopes in the persistent slot; ~0: none
layout(constant_id = 91) const uint RES_SLOT = 0xffffffffu;      // residual added last; ~0: none
layout(constant_id = 92) const uint RES_DTYPE = 0;
layout(constant_id = 93) const uint RES_STRIDE_N = 0;
layout(constant_id = 94) const uint RES_STRIDE_C = 0;
layout(constant_id = 95) const uint RES_STRIDE_H = 0;
layout(constant_id = 96) const uint RES_STRIDE_W = 0;
layout(constant_id = 97) const uint RES_SCALE = 1;  // residual read at (y / RES_SCALE, x / RES_SCALE)
layout(constant_id = 98) const uint POOL = 0;       // 1: store the 2x2 stride-2 max pooling of the output
layout(constant_id = 99) const uint IN2_SLOT = 0xffffffffu;      // concat: channels >= IN1_C from this slot (IN_STRIDE_*)
layout(constant_id = 100) const uint IN1_C = 0;     // channels of input 0 when it is a source (concat or upsampled)
layout(constant_id = 101) const uint IN1_SCALE = 1; // input 0 nearest-upsampled by this factor
layout(constant_id = 102) const uint IN1_STRIDE_N = 0;
layout(constant_id = 103) const uint IN1_STRIDE_C = 0;
layout(constant_id = 104) const uint IN1_STRIDE_H = 0;
layout(constant_id = 105) const uint IN1_STRIDE_W = 0;
layout(constant_id = 106) const uint IN1_H = 1;     // input 0's own size
layout(constant_id = 107) const uint IN1_W = 1;
layout(constant_id = 108) const uint VEC_IN2 = 0;   // 1: the concat part is vectorizable too (IN1_C % 8 == 0)
layout(constant_id = 109) const uint RES_LINEAR = 0;  // 1: the residual bilinearly upsampled by RES_SCALE (half-pixel, edges clamped)
layout(constant_id = 110) const uint RES_H = 1;     // the residual's own size
layout(constant_id = 111) const uint RES_W = 1;
layout(constant_id = 112) const uint CLAMP = 0;     // 1: clamp to [CLAMP_MIN, CLAMP_MAX] after the residual
layout(constant_id = 113) const float CLAMP_MIN = 0.0;
layout(constant_id = 114) const float CLAMP_MAX = 0.0;
layout(constant_id = 115) const uint FRAG_STORE = 0;  // 1: whole fragments stored from the accumulators (epilogueFragments)
// A fused 1x1 projection (epilogueProjected): what is stored is PROJ_C channels of
// PROJ_ACT(W2 x + b2) per pixel, x the activated output. OUT_* describe the stored tensor
// except OUT_C, OUT_H, OUT_W (this convolution's; the projection keeps H and W).
layout(constant_id = 116) const uint PROJ_C = 0;                   // 0: none
layout(constant_id = 117) const uint PROJ_W_OFFSET = 0;            // uvec4 offset in the persistent slot of W2^T: [OUT_C][PROJ_FRAGS * 16] fp16
layout(constant_id = 118) const uint PROJ_B_OFFSET = 0xffffffffu;  // fp32 element offset of b2 in the persistent slot; ~0: none
layout(constant_id = 119) const uint PROJ_ACT = 0;
layout(constant_id = 120) const float PROJ_ALPHA = 0.0;
layout(constant_id = 121) const float PROJ_BETA = 0.0;

#ifdef ACC_F16
#define ACC_BITS 16
#define ACC_T float16_t
#else
#define ACC_BITS 32
#define ACC_T float
#endif
#define F 16u

layout(set = 0, binding = 0) buffer HeapU4 { uvec4 v[]; } heapU4[MLP_SLOTS];

const uint SUBGROUPS = WG_M * WG_N;
const uint THREADS = SUBGROUPS * 32;
const uint BN = WG_N * NF * F;
const uint CV = CC / 8;                    // uvec4 per pixel per slice
const uint PP = CV + 1;                    // staged pixel pitch (uvec4)
const uint BV = BN / 8;                    // uvec4 per B row
const uint BP = BV + 1;                    // staged B row pitch (uvec4)
const uint KY_GROUPS = K_H / KY_STAGE;
const uint PHASES = SLICES * KY_GROUPS;
const uint A_VECS = HALO_H * HALO_W * CV;
const uint B_VECS = KY_STAGE * K_W * CC * BV;
const uint A_PT = (A_VECS + THREADS - 1) / THREADS;
const uint B_PT = (B_VECS + THREADS - 1) / THREADS;

shared uvec4 sA[A_SMEM];
shared uvec4 sB[KY_STAGE * K_W * CC * BP];

fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> acc[MF][NF];
uvec4 RA[A_PT];
uvec4 RB[B_PT];

const bool SOURCES = IN2_SLOT != 0xffffffffu || IN1_SCALE != 1;  // input 0 is a source of a virtual input

// Element offset of channel c (< IN_C) of input pixel (y, x) (inside the image), and its slot.
uint inputOffset(uint n, uint c, uint y, uint x, out uint slot) {
    slot = INPUT_SLOT;
    if (IN2_SLOT != 0xffffffffu && c >= IN1_C) {
        slot = IN2_SLOT;
        return n * IN_STRIDE_N + (c - IN1_C) * IN_STRIDE_C + y * IN_STRIDE_H + x * IN_STRIDE_W;
    }
    if (SOURCES) {
        uint sy = min(y / IN1_SCALE, IN1_H - 1), sx = min(x / IN1_SCALE, IN1_W - 1);
        return n * IN1_STRIDE_N + c * IN1_STRIDE_C + sy * IN1_STRIDE_H + sx * IN1_STRIDE_W;
    }
    return n * IN_STRIDE_N + c * IN_STRIDE_C + y * IN_STRIDE_H + x * IN_STRIDE_W;
}

// 8 channels c .. c + 7 (c a multiple of 8) of input pixel (y, x) as packed halves, zero outside
// the image and past IN_C: one 16-byte load where the 8 channels lie in one vectorizable source
// (VEC_IN: input 0; VEC_IN2: the concat part, IN1_C % 8 == 0), else one fp16 load per channel.
uvec4 load8(uint n, uint c, int y, int x) {
    bool inside = y >= 0 && y < int(IN_H) && x >= 0 && x < int(IN_W);
    uint cy = uint(clamp(y, 0, int(IN_H) - 1)), cx = uint(clamp(x, 0, int(IN_W) - 1));
    uint slot;
    bool second = IN2_SLOT != 0xffffffffu && c >= IN1_C;
    bool vector = second ? VEC_IN2 != 0 : VEC_IN != 0 && (IN2_SLOT == 0xffffffffu || c + 8 <= IN1_C);
    if (vector) {
        uint q = inputOffset(n, min(c, IN_C - 8), cy, cx, slot);
        uvec4 v = heapU4[slot].v[q / 8];
        return inside && c < IN_C ? v : uvec4(0);
    }
    float16_t h[8];
    [[unroll]] for (uint j = 0; j < 8; ++j) {
        uint q = inputOffset(n, min(c + j, IN_C - 1), cy, cx, slot);
        float16_t v = heapF16[slot].v[q];
        h[j] = inside && c + j < IN_C ? v : float16_t(0.0);
    }
    return uvec4(packFloat2x16(f16vec2(h[0], h[1])), packFloat2x16(f16vec2(h[2], h[3])), packFloat2x16(f16vec2(h[4], h[5])),
                 packFloat2x16(f16vec2(h[6], h[7])));
}

// Global loads of phase p into RA (when it starts a slice) and RB.
void fetchPhase(uint p, uint n, int iy0, int ix0, uint wBase) {
    uint s = p / KY_GROUPS, g = p % KY_GROUPS, tid = gl_LocalInvocationID.x;
    if (g == 0) {
        [[unroll]] for (uint j = 0; j < A_PT; ++j) {
            uint i = tid + j * THREADS;
            uint px = i / CV, part = i % CV;
            if (i < A_VECS) RA[j] = load8(n, s * CC + part * 8, iy0 + int(px / HALO_W), ix0 + int(px % HALO_W));
        }
    }
    uint base = wBase + (s * KY_GROUPS + g) * B_VECS;
    [[unroll]] for (uint j = 0; j < B_PT; ++j) {
        uint i = tid + j * THREADS;
        if (i < B_VECS) RB[j] = heapU4[W_SLOT].v[base + i];
    }
}

void storePhase(uint p) {
    uint tid = gl_LocalInvocationID.x;
    if (p % KY_GROUPS == 0) {
        [[unroll]] for (uint j = 0; j < A_PT; ++j) {
            uint i = tid + j * THREADS;
            if (i < A_VECS) sA[(i / CV) * PP + i % CV] = RA[j];
        }
    }
    [[unroll]] for (uint j = 0; j < B_PT; ++j) {
        uint i = tid + j * THREADS;
        if (i < B_VECS) sB[(i / BV) * BP + i % BV] = RB[j];
    }
}

void mmaPhase(uint p, uint wm, uint wn) {
    uint g = p % KY_GROUPS;
    fcoopmatNV<16, gl_ScopeSubgroup, F, F> a, b[NF];
    [[unroll]] for (uint kyl = 0; kyl < KY_STAGE; ++kyl) {
        uint ky = g * KY_STAGE + kyl;
        [[unroll]] for (uint kx = 0; kx < K_W; ++kx) {
            [[unroll]] for (uint kk = 0; kk < CC / F; ++kk) {
                uint krow = (kyl * K_W + kx) * CC + kk * F;
                [[unroll]] for (uint j = 0; j < NF; ++j) coopMatLoadNV(b[j], sB, krow * BP + (wn * NF + j) * 2, BP, false);
                [[unroll]] for (uint i = 0; i < MF; ++i) {
                    uint f = wm * MF + i;
                    uint hy = (f / FW) * STRIDE_Y + ky * DIL_Y;
                    uint hx = (f % FW) * F * STRIDE_X + kx * DIL_X;
                    coopMatLoadNV(a, sA, (hy * HALO_W + hx) * PP + kk * 2, STRIDE_X * PP, false);
                    [[unroll]] for (uint j = 0; j < NF; ++j) acc[i][j] = coopMatMulAddNV(a, b[j], acc[i][j]);
                }
            }
        }
    }
}

float preluSlope(uint oc) { return heapF32[PERSISTENT_SLOT].v[PRELU_OFFSET + oc]; }  // packed as fp32

// The bias and PReLU slope (1 without PReLU) of channels c + q * step, q = 0 .. 3. Padding
// channels (>= OUT_C) read the last channel's: their results are never stored.
struct ChannelParams4 {
    vec4 bias, slope;
};
ChannelParams4 channelParams4(uint c, uint step) {
    ChannelParams4 p;
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        uint oc = min(c + q * step, OUT_C - 1);
        p.bias[q] = biasFor(oc);
        p.slope[q] = PRELU_OFFSET != 0xffffffffu ? preluSlope(oc) : 1.0;
    }
    return p;
}

// Bias, activation / PReLU of four channels of one pixel.
vec4 finish4(vec4 v, ChannelParams4 p) {
    v = applyActivation4(ACT, ACT_ALPHA, ACT_BETA, v + p.bias);
    if (PRELU_OFFSET != 0xffffffffu) v = mix(v * p.slope, v, greaterThanEqual(v, vec4(0.0)));
    return v;
}

// The eight channels a lane finishes of one N fragment starting at channel oc0 in the patch
// epilogue (storeThroughPatch): 8g .. 8g + 7 for 16-byte stores (VEC_OUT), else g, g + 2, ...,
// g + 14. The epilogues read them once per N fragment, before the first store: a read after a
// store to another heap slot waits for the store (the two may alias), so reads per accumulator
// each waited out the memory latency (bench/RESULTS.md, "Fifteenth session").
struct LaneParams {
    ChannelParams4 lo, hi;
};
LaneParams laneParams(uint oc0) {
    const uint g = gl_SubgroupInvocationID / F;
    LaneParams p;
    if (VEC_OUT != 0) {
        p.lo = channelParams4(oc0 + 8 * g, 1);
        p.hi = channelParams4(oc0 + 8 * g + 4, 1);
    } else {
        p.lo = channelParams4(oc0 + g, 2);
        p.hi = channelParams4(oc0 + g + 8, 2);
    }
    return p;
}

// Where the convolution's output element (oc, y, x) is stored (depth-to-space remap).
void storePosition(inout uint oc, inout uint y, inout uint x) {
    if (D2S_BLOCK > 1) {
        const uint b = D2S_BLOCK, channels = OUT_C / (b * b);
        uint c, by, bx;
        if (D2S_CRD != 0) {
            c = oc / (b * b), by = (oc / b) % b, bx = oc % b;
        } else {
            by = oc / (b * channels), bx = (oc / channels) % b, c = oc % channels;
        }
        oc = c, y = y * b + by, x = x * b + bx;
    }
}

float residualAt(uint base, uint y, uint x) { return loadElem(RES_SLOT, RES_DTYPE, base + y * RES_STRIDE_H + x * RES_STRIDE_W); }

// The residual at stored position (y, x) of channel oc: nearest (y / RES_SCALE, x / RES_SCALE),
// or bilinear around ((y + 0.5) / RES_SCALE - 0.5, ...) clamped to the residual (the resample
// kernel's linear mode).
float residual(uint n, uint oc, uint y, uint x) {
    const uint base = n * RES_STRIDE_N + oc * RES_STRIDE_C;
    if (RES_LINEAR == 0) return residualAt(base, y / RES_SCALE, x / RES_SCALE);
    const float sy = clamp((float(y) + 0.5) / float(RES_SCALE) - 0.5, 0.0, float(RES_H - 1));
    const float sx = clamp((float(x) + 0.5) / float(RES_SCALE) - 0.5, 0.0, float(RES_W - 1));
    const uint y0 = uint(sy), x0 = uint(sx), y1 = min(y0 + 1, RES_H - 1), x1 = min(x0 + 1, RES_W - 1);
    const float ty = sy - float(y0), tx = sx - float(x0);
    const float top = mix(residualAt(base, y0, x0), residualAt(base, y0, x1), tx);
    const float bottom = mix(residualAt(base, y1, x0), residualAt(base, y1, x1), tx);
    return mix(top, bottom, ty);
}

// The residual that output element (oc, y, x) adds at its stored position (0 without one).
float residualFor(uint n, uint oc, uint y, uint x) {
    if (RES_SLOT == 0xffffffffu || oc >= OUT_C) return 0.0;
    storePosition(oc, y, x);
    return residual(n, oc, y, x);
}

// Stores one finished element (after remapping) plus its residual (residualFor), clamped.
void storeOne(uint n, uint oc, uint y, uint x, float v, float res) {
    storePosition(oc, y, x);
    v += res;
    if (CLAMP != 0) v = clamp(v, CLAMP_MIN, CLAMP_MAX);
    storeElem(OUT_SLOT, OUT_DTYPE, n * OUT_STRIDE_N + oc * OUT_STRIDE_C + y * OUT_STRIDE_H + x * OUT_STRIDE_W, v);
}

// Element (m, c) of the subgroup's patch (column-major fp32, 64 uvec4).
float patchAt(uint pat, uint c, uint m) { return uintBitsToFloat(sA[pat + (c * F + m) / 4][m % 4]); }

// 8 channels c .. c + 7 of pixel m, finished.
void finished8(uint pat, uint m, uint c, LaneParams params, out vec4 lo, out vec4 hi) {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        lo[q] = patchAt(pat, c + q, m);
        hi[q] = patchAt(pat, c + 4 + q, m);
    }
    lo = finish4(lo, params.lo);
    hi = finish4(hi, params.hi);
}

void storeAccumulator(fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> m, uint pat) {
#ifdef ACC_F16
    coopMatStoreNV(fcoopmatNV<32, gl_ScopeSubgroup, F, F>(m), sA, pat, F / 4, true);
#else
    coopMatStoreNV(m, sA, pat, F / 4, true);
#endif
    subgroupMemoryBarrierShared();
    subgroupBarrier();
}

// Accumulator (i, j) through the subgroup's patch: lane l takes pixel m = l % 16 and channel half
// g = l / 16 of the 16 x 16 accumulator of output pixels (oy, ox0f .. + 15), channels oc0 .. + 15
// (params: laneParams(oc0)).
void storeThroughPatch(uint i, uint j, uint n, uint oy, uint ox0f, uint oc0, uint pat, LaneParams params) {
    uint l = gl_SubgroupInvocationID, m = l % F, g = l / F;
    uint ox = ox0f + m;
    if (VEC_OUT != 0) {
        uint oc = oc0 + 8 * g;
        const bool inside = oy < OUT_H && ox < OUT_W && oc < OUT_C;  // OUT_C % 8 == 0: all 8 channels or none
        uvec4 r = uvec4(0);  // the residual, read before the patch and the store (see below)
        if (RES_SLOT != 0xffffffffu && inside)  // VEC_OUT: the residual is vectorizable too
            r = heapU4[RES_SLOT].v[(n * RES_STRIDE_N + (oy / RES_SCALE) * RES_STRIDE_H + (ox / RES_SCALE) * RES_STRIDE_W + oc) / 8];
        storeAccumulator(acc[i][j], pat);
        vec4 lo, hi;
        finished8(pat, m, 8 * g, params, lo, hi);
        subgroupBarrier();  // read before the next accumulator overwrites the pat
        if (inside) {
            uint q = (n * OUT_STRIDE_N + oy * OUT_STRIDE_H + ox * OUT_STRIDE_W + oc) / 8;
            if (RES_SLOT != 0xffffffffu) {
                lo += vec4(unpackHalf2x16(r.x), unpackHalf2x16(r.y));
                hi += vec4(unpackHalf2x16(r.z), unpackHalf2x16(r.w));
            }
            if (CLAMP != 0) {
                lo = clamp(lo, vec4(CLAMP_MIN), vec4(CLAMP_MAX));
                hi = clamp(hi, vec4(CLAMP_MIN), vec4(CLAMP_MAX));
            }
            heapU4[OUT_SLOT].v[q] = uvec4(packHalf2x16(lo.xy), packHalf2x16(lo.zw), packHalf2x16(hi.xy), packHalf2x16(hi.zw));
        }
    } else {
        // Channels g, g + 2, ..., g + 14: each store instruction writes 16 consecutive
        // pixels of two channels (whole sectors for NCHW). The lane's residual reads are all
        // issued first, before the patch: the compiler cannot move a load above a store to
        // another heap slot (they may alias), so reads interleaved with the stores each waited
        // out the memory latency (the shipped x2 upscaler's tail, bilinear residual: 0.175 ms of
        // its 1.29 ms at 1080p on the H100; bench/RESULTS.md, "Fifteenth session").
        const bool inside = oy < OUT_H && ox < OUT_W;
        vec4 rlo = vec4(0.0), rhi = vec4(0.0);
        if (RES_SLOT != 0xffffffffu && inside) {
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                rlo[q] = residualFor(n, oc0 + g + 2 * q, oy, ox);
                rhi[q] = residualFor(n, oc0 + g + 8 + 2 * q, oy, ox);
            }
        }
        storeAccumulator(acc[i][j], pat);
        vec4 lo, hi;
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            lo[q] = patchAt(pat, g + 2 * q, m);
            hi[q] = patchAt(pat, g + 8 + 2 * q, m);
        }
        subgroupBarrier();
        lo = finish4(lo, params.lo);
        hi = finish4(hi, params.hi);
        if (inside) {
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                if (oc0 + g + 2 * q < OUT_C) storeOne(n, oc0 + g + 2 * q, oy, ox, lo[q], rlo[q]);
                if (oc0 + g + 8 + 2 * q < OUT_C) storeOne(n, oc0 + g + 8 + 2 * q, oy, ox, hi[q], rhi[q]);
            }
        }
    }
}

void epilogue(uint n, uint oy0, uint ox0, uint nBase, uint wm, uint wn, uint sg) {
    LaneParams params[NF];
    [[unroll]] for (uint j = 0; j < NF; ++j) params[j] = laneParams(nBase + (wn * NF + j) * F);
    [[unroll]] for (uint i = 0; i < MF; ++i) {
        uint f = wm * MF + i;
        [[unroll]] for (uint j = 0; j < NF; ++j)
            storeThroughPatch(i, j, n, oy0 + f / FW, ox0 + (f % FW) * F, nBase + (wn * NF + j) * F, sg * 64, params[j]);
    }
}

float projectionBias(uint oc) { return PROJ_B_OFFSET == 0xffffffffu ? 0.0 : heapF32[PERSISTENT_SLOT].v[PROJ_B_OFFSET + oc]; }

const uint CHANNEL_BIAS = 0, CHANNEL_SLOPE = 1, CHANNEL_PROJECTION_BIAS = 2;

// FRAG_STORE: a 16 x 16 matrix of the accumulators' type whose column c holds channel oc0 + c's
// bias, PReLU slope or projection bias (`what`), built in the subgroup's patch (pat: 64 uvec4 of
// sA). Elements at the same index of two cooperative matrices of one type sit at the same row
// and column, so it combines with an accumulator element by element without knowing the mapping.
fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> channelMatrix(uint pat, uint oc0, uint what) {
    [[unroll]] for (uint u = gl_SubgroupInvocationID; u < 64; u += 32) {  // uvec4 u of the column-major patch: column u / 4
        uint oc = min(oc0 + u / 4, (what == CHANNEL_PROJECTION_BIAS ? PROJ_C : OUT_C) - 1);
        float v = what == CHANNEL_BIAS ? biasFor(oc) : what == CHANNEL_SLOPE ? preluSlope(oc) : projectionBias(oc);
        sA[pat + u] = uvec4(floatBitsToUint(v));
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    fcoopmatNV<32, gl_ScopeSubgroup, F, F> m;
    coopMatLoadNV(m, sA, pat, F / 4, true);
    subgroupBarrier();  // loaded before the patch is written again
#ifdef ACC_F16
    return fcoopmatNV<16, gl_ScopeSubgroup, F, F>(m);
#else
    return m;  // (glslang 12 cannot translate a same-type matrix conversion: "unknown glslang unary")
#endif
}

// FRAG_STORE (the planner's rule: at most two N fragments per subgroup): fragments wholly inside
// the output take bias, activation, PReLU, residual and clamp on their own elements (in fp32) and
// go out in one cooperative-matrix store of 16 pixels x 16 channels; the ones the image's right
// edge cuts go through the patch as above. The bias and slope matrices of the subgroup's N
// fragments are built once, before the fragment loop (M outer, N inner, as in epilogue()).
// Measured on the H100 (bench/RESULTS.md, "Thirteenth session"): the temporal network 1.26 ->
// 1.11 ms, the denoiser 1.17 -> 1.09 ms at 1920x1080. Variants that lost: a bias matrix built per
// N fragment inside an N-outer loop (3x3 64->64 5.7x slower), the accumulators starting from the
// bias (built per accumulator: SRVGG 15% slower with a slope matrix per accumulator), and the same
// store in conv2d_coopmat (ESPCN's 5x5 3->64, 16 accumulators per subgroup: 0.48 -> 0.89 ms).
void epilogueFragments(uint n, uint oy0, uint ox0, uint nBase, uint wm, uint wn, uint sg) {
    const bool prelu = PRELU_OFFSET != 0xffffffffu;
    uint pat = sg * 64;
    fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> bias[NF], slope[NF];
    [[unroll]] for (uint j = 0; j < NF; ++j) {
        uint oc0 = nBase + (wn * NF + j) * F;
        bias[j] = channelMatrix(pat, oc0, CHANNEL_BIAS);
        slope[j] = prelu ? channelMatrix(pat, oc0, CHANNEL_SLOPE) : bias[j];
    }
    // The residual's fragments (MF x NF <= 8 here), read before the first store (laneParams says
    // why); the ones the patch stores read their own.
    fcoopmatNV<16, gl_ScopeSubgroup, F, F> res[MF][NF];
    if (RES_SLOT != 0xffffffffu) {
        [[unroll]] for (uint i = 0; i < MF; ++i) {
            uint f = wm * MF + i;
            uint oy = oy0 + f / FW, ox = ox0 + (f % FW) * F;
            [[unroll]] for (uint j = 0; j < NF; ++j) {
                uint oc0 = nBase + (wn * NF + j) * F;
                if (oy < OUT_H && oc0 < OUT_C && ox + F <= OUT_W)  // uniform across the subgroup
                    coopMatLoadNV(res[i][j], heapU4[RES_SLOT].v, (n * RES_STRIDE_N + oy * RES_STRIDE_H + ox * RES_STRIDE_W + oc0) / 8,
                                  RES_STRIDE_W / 8, false);
            }
        }
    }
    [[unroll]] for (uint i = 0; i < MF; ++i) {
        uint f = wm * MF + i;
        uint oy = oy0 + f / FW, ox = ox0 + (f % FW) * F;
        [[unroll]] for (uint j = 0; j < NF; ++j) {
            uint oc0 = nBase + (wn * NF + j) * F;
            // Uniform across the subgroup. OUT_C % 16 == 0: a fragment's channels are all real or all padding.
            if (oy >= OUT_H || oc0 >= OUT_C) continue;
            if (ox + F > OUT_W) {
                storeThroughPatch(i, j, n, oy, ox, oc0, pat, laneParams(oc0));  // the right edge only
                continue;
            }
            fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> v = acc[i][j], r = v;
            if (RES_SLOT != 0xffffffffu) {
#ifdef ACC_F16
                r = res[i][j];
#else
                r = fcoopmatNV<32, gl_ScopeSubgroup, F, F>(res[i][j]);
#endif
            }
            for (uint e = 0; e < v.length(); ++e) {
                float x = applyActivation(ACT, ACT_ALPHA, ACT_BETA, float(v[e]) + float(bias[j][e]));
                if (prelu && x < 0.0) x *= float(slope[j][e]);
                if (RES_SLOT != 0xffffffffu) x += float(r[e]);
                if (CLAMP != 0) x = clamp(x, CLAMP_MIN, CLAMP_MAX);
                v[e] = ACC_T(x);
            }
            uint q = (n * OUT_STRIDE_N + oy * OUT_STRIDE_H + ox * OUT_STRIDE_W + oc0) / 8;
#ifdef ACC_F16
            coopMatStoreNV(v, heapU4[OUT_SLOT].v, q, OUT_STRIDE_W / 8, false);
#else
            coopMatStoreNV(fcoopmatNV<16, gl_ScopeSubgroup, F, F>(v), heapU4[OUT_SLOT].v, q, OUT_STRIDE_W / 8, false);
#endif
        }
    }
}

// PROJ_C > 0 (the planner's rule: one subgroup along N, WG_N == 1, holding all of OUT_C, a
// multiple of 16, in NF <= 2 fragments; PROJ_C <= 64). Each subgroup holds every channel of its
// pixels, so the projection needs neither shared memory nor a barrier: the activated
// accumulators of M fragment i, converted to fp16, are the A operands of the K = OUT_C product
// with W2^T (read from the persistent slot: 2 KiB for 32 x 32, it stays in the L1). Stored like
// the fragment stores: whole fragments straight from the accumulator (FRAG_STORE), the others
// through the subgroup's patch. The intermediate never reaches memory (the temporal upscaler's
// 3x3 32->32 -> 1x1 32->32 at 1920x1080: 133 MB written and read again).
const uint PROJ_FRAGS = PROJ_C == 0 ? 1 : (PROJ_C + F - 1) / F;  // 1 without a projection: no array has length 0
const uint PROJ_NV = PROJ_FRAGS * 2;  // uvec4 per row of W2^T

// Fragment r (16 pixels from (oy, ox0), projection channels oc0 .. + 15) through the patch.
void storeProjectedThroughPatch(fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> r, uint pat, uint n, uint oy, uint ox0, uint oc0) {
    storeAccumulator(r, pat);
    uint l = gl_SubgroupInvocationID, m = l % F, g = l / F, ox = ox0 + m;
    float v[8];
    [[unroll]] for (uint q = 0; q < 8; ++q) v[q] = patchAt(pat, g + 2 * q, m);
    subgroupBarrier();  // read before the patch is written again
    if (ox >= OUT_W) return;
    [[unroll]] for (uint q = 0; q < 8; ++q) {
        uint oc = oc0 + g + 2 * q;
        if (oc < PROJ_C) storeElem(OUT_SLOT, OUT_DTYPE, n * OUT_STRIDE_N + oc * OUT_STRIDE_C + oy * OUT_STRIDE_H + ox * OUT_STRIDE_W, v[q]);
    }
}

void epilogueProjected(uint n, uint oy0, uint ox0, uint wm, uint sg) {
    const bool prelu = PRELU_OFFSET != 0xffffffffu;
    const uint pat = sg * 64;
    fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> bias[NF], slope[NF], pbias[PROJ_FRAGS];
    [[unroll]] for (uint k = 0; k < NF; ++k) {
        bias[k] = channelMatrix(pat, k * F, CHANNEL_BIAS);
        slope[k] = prelu ? channelMatrix(pat, k * F, CHANNEL_SLOPE) : bias[k];
    }
    [[unroll]] for (uint j = 0; j < PROJ_FRAGS; ++j) pbias[j] = channelMatrix(pat, j * F, CHANNEL_PROJECTION_BIAS);
    // W2^T's fragments, read once before the first store (laneParams says why).
    fcoopmatNV<16, gl_ScopeSubgroup, F, F> w2[NF][PROJ_FRAGS];
    [[unroll]] for (uint k = 0; k < NF; ++k)
        [[unroll]] for (uint j = 0; j < PROJ_FRAGS; ++j)
            if (k * F < OUT_C) coopMatLoadNV(w2[k][j], heapU4[PERSISTENT_SLOT].v, PROJ_W_OFFSET + k * F * PROJ_NV + j * 2, PROJ_NV, false);
    [[unroll]] for (uint i = 0; i < MF; ++i) {
        uint f = wm * MF + i;
        uint oy = oy0 + f / FW, ox = ox0 + (f % FW) * F;
        if (oy >= OUT_H || ox >= OUT_W) continue;  // uniform across the subgroup
        fcoopmatNV<16, gl_ScopeSubgroup, F, F> a[NF];
        [[unroll]] for (uint k = 0; k < NF; ++k) {
            fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> v = acc[i][k];
            for (uint e = 0; e < v.length(); ++e) {
                float x = applyActivation(ACT, ACT_ALPHA, ACT_BETA, float(v[e]) + float(bias[k][e]));
                if (prelu && x < 0.0) x *= float(slope[k][e]);
                v[e] = ACC_T(x);
            }
#ifdef ACC_F16
            a[k] = v;
#else
            a[k] = fcoopmatNV<16, gl_ScopeSubgroup, F, F>(v);
#endif
        }
        [[unroll]] for (uint j = 0; j < PROJ_FRAGS; ++j) {
            fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F> r = pbias[j];
            [[unroll]] for (uint k = 0; k < NF; ++k) {
                if (k * F >= OUT_C) break;  // padding channels of the N block
                r = coopMatMulAddNV(a[k], w2[k][j], r);
            }
            for (uint e = 0; e < r.length(); ++e) r[e] = ACC_T(applyActivation(PROJ_ACT, PROJ_ALPHA, PROJ_BETA, float(r[e])));
            if (FRAG_STORE != 0 && ox + F <= OUT_W) {
                uint q = (n * OUT_STRIDE_N + oy * OUT_STRIDE_H + ox * OUT_STRIDE_W + j * F) / 8;
#ifdef ACC_F16
                coopMatStoreNV(r, heapU4[OUT_SLOT].v, q, OUT_STRIDE_W / 8, false);
#else
                coopMatStoreNV(fcoopmatNV<16, gl_ScopeSubgroup, F, F>(r), heapU4[OUT_SLOT].v, q, OUT_STRIDE_W / 8, false);
#endif
            } else {
                storeProjectedThroughPatch(r, pat, n, oy, ox, j * F);
            }
        }
    }
}

// POOL: the subgroup's fragments pair up as rows (2r, 2r + 1) of the tile (FW == 1, MF even,
// TILE_H even, so a pair never straddles subgroups or tiles). Lane l takes pooled column l % 8
// and channels 4 (l / 8) .. + 3 of each 16 x 16 accumulator pair, finishes the four elements of
// its 2 x 2 window and keeps their maximum in registers (the two rows pass through the patch one
// after the other). Floor mode: windows reaching past the output are not stored.
void epiloguePooled(uint n, uint oy0, uint ox0, uint nBase, uint wm, uint wn, uint sg) {
    uint pat = sg * 64, l = gl_SubgroupInvocationID;
    uint px = l % 8, cq = l / 8;  // pooled column, channel quarter (4 channels each)
    ChannelParams4 params[NF];  // read before any store (laneParams says why)
    [[unroll]] for (uint j = 0; j < NF; ++j) params[j] = channelParams4(nBase + (wn * NF + j) * F + 4 * cq, 1);
    [[unroll]] for (uint i = 0; i < MF; i += 2) {
        uint f = wm * MF + i;
        uint oy = oy0 + f, ox = ox0 + 2 * px;  // top-left of the 2 x 2 window
        [[unroll]] for (uint j = 0; j < NF; ++j) {
            uint oc0 = nBase + (wn * NF + j) * F;
            vec4 best = vec4(-3.0e38);
            [[unroll]] for (uint r = 0; r < 2; ++r) {
                storeAccumulator(acc[i + r][j], pat);
                [[unroll]] for (uint dx = 0; dx < 2; ++dx) {
                    vec4 v;
                    [[unroll]] for (uint q = 0; q < 4; ++q) v[q] = patchAt(pat, 4 * cq + q, 2 * px + dx);
                    v = finish4(v, params[j]);
                    // Outside the convolution's output: never part of a pooled window (floor mode).
                    bool inside = oy + r < OUT_H && ox + dx < OUT_W;
                    best = inside ? max(best, v) : best;
                }
                subgroupBarrier();
            }
            uint poolH = OUT_H / 2, poolW = OUT_W / 2, py = oy / 2, pxo = ox / 2;
            if (py < poolH && pxo < poolW) {
                [[unroll]] for (uint q = 0; q < 4; ++q) {
                    uint oc = oc0 + 4 * cq + q;
                    if (oc < OUT_C) storeElem(OUT_SLOT, OUT_DTYPE, n * OUT_STRIDE_N + oc * OUT_STRIDE_C + py * OUT_STRIDE_H + pxo * OUT_STRIDE_W, best[q]);
                }
            }
        }
    }
}

void main() {
    uint sg = gl_SubgroupID, wm = sg % WG_M, wn = sg / WG_M;
    uint ox0 = gl_WorkGroupID.x * FW * F, oy0 = gl_WorkGroupID.y * TILE_H;
    uint n = gl_WorkGroupID.z / N_BLOCKS, nb = gl_WorkGroupID.z % N_BLOCKS;
    int iy0 = int(oy0 * STRIDE_Y) - int(PAD_T), ix0 = int(ox0 * STRIDE_X) - int(PAD_L);
    uint wBase = W_OFFSET / 8 + nb * PHASES * B_VECS;

    [[unroll]] for (uint i = 0; i < MF; ++i)
        [[unroll]] for (uint j = 0; j < NF; ++j) acc[i][j] = fcoopmatNV<ACC_BITS, gl_ScopeSubgroup, F, F>(0.0);

    fetchPhase(0, n, iy0, ix0, wBase);
    for (uint p = 0; p < PHASES; ++p) {
        barrier();  // every subgroup is done reading the previous phase
        storePhase(p);
        barrier();
        if (p + 1 < PHASES) fetchPhase(p + 1, n, iy0, ix0, wBase);
        mmaPhase(p, wm, wn);
    }
    barrier();  // sA becomes the epilogue's patches
    if (PROJ_C != 0) epilogueProjected(n, oy0, ox0, wm, sg);
    else if (POOL != 0) epiloguePooled(n, oy0, ox0, nb * BN, wm, wn, sg);
    else if (FRAG_STORE != 0) epilogueFragments(n, oy0, ox0, nb * BN, wm, wn, sg);
    else epilogue(n, oy0, ox0, nb * BN, wm, wn, sg);
}
