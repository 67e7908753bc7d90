#version 450
#extension GL_GOOGLE_include_directive : require
// A chain of 2 or 3 convolutions (stride 1, 'same' padding, ungrouped) in one dispatch, built
// by graph compilation (mlplugin/src/ops/conv_chain.cpp). A workgroup owns a TILE_H x TILE_W
// tile of the last layer's output. It stages its input tile plus the cumulative halo of all
// layers in shared memory, computes layer 0 on the tile grown by the halo the later layers
// need, then layer 1 from that, and so on; the 32-64-channel intermediates never leave shared
// memory. Intermediate pixels outside the image are stored as zeros: they are the next layer's
// zero padding.
//
// Shared memory: two buffers, X (staged input, then layer 1's output) and Y (layer 0's output),
// sized by the planner. fp16 networks keep them in fp16 (SMEM_F16, the _f16 variant only), as
// the unfused layers would round their intermediates to fp16 in memory; accumulation is fp32.
//
// Work per layer: items of P pixels x OCB output channels, one item per invocation per round.
// Per input channel and tap an invocation reads P activations from shared memory and OCB
// weights (two vec4, the same for all invocations of an item row) and does P x OCB FMAs into
// registers. This inner product is the part a cooperative-matrix variant would replace: the
// activations of a layer are an implicit [pixels x (cin * taps)] matrix in shared memory and the
// weights a packed [(cin * taps) x cout] matrix.
//
// Weights: per layer [ceil(cout / OCB)][cin][kH][kW][OCB] (pack_conv_weights.comp with BLOCK =
// OCB), zero-padded channels; biases [cout]; both in the persistent resource, fp16 when
// SMEM_F16. Constant ids mirror ChainConst in conv_chain.cpp.
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;  // THREADS x 1 x 1

#define P 4    // pixels per item
#define OCB 8  // output channels per item (two vec4)
#define OUT_SLOT 7u

layout(constant_id = 3) const uint LAYERS = 2;
layout(constant_id = 4) const uint IMG_H = 1;
layout(constant_id = 5) const uint IMG_W = 1;
layout(constant_id = 6) const uint TILE_W = 8;
layout(constant_id = 7) const uint TILE_H = 8;
layout(constant_id = 8) const uint IN_DTYPE = 0;
layout(constant_id = 9) const uint IN_STRIDE_N = 0;
layout(constant_id = 10) const uint IN_STRIDE_C = 0;
layout(constant_id = 11) const uint IN_STRIDE_H = 0;
layout(constant_id = 12) const uint IN_STRIDE_W = 0;
layout(constant_id = 13) const uint OUT_DTYPE = 0;
layout(constant_id = 14) const uint OUT_STRIDE_N = 0;
layout(constant_id = 15) const uint OUT_STRIDE_C = 0;
layout(constant_id = 16) const uint OUT_STRIDE_H = 0;
layout(constant_id = 17) const uint OUT_STRIDE_W = 0;
layout(constant_id = 18) const uint D2S_BLOCK = 1;  // 1: no depth-to-space
layout(constant_id = 19) const uint D2S_CRD = 0;    // 0: DCR, 1: CRD
layout(constant_id = 20) const bool SMEM_F16 = false;
layout(constant_id = 21) const uint SMEM_X = 1;  // fp32 elements (1 when SMEM_F16)
layout(constant_id = 22) const uint SMEM_Y = 1;
layout(constant_id = 23) const uint SMEM_X16 = 1;  // fp16 elements (1 unless SMEM_F16)
layout(constant_id = 24) const uint SMEM_Y16 = 1;
// Per layer l, ids 25 + 12 l: input/output channels, kernel, weight offset (vec4 units), bias
// (present, element offset), activation, halo of this layer's output region (rows, columns).
layout(constant_id = 25) const uint CIN0 = 1;
layout(constant_id = 26) const uint COUT0 = 1;
layout(constant_id = 27) const uint KH0 = 1;
layout(constant_id = 28) const uint KW0 = 1;
layout(constant_id = 29) const uint WOFF0 = 0;
layout(constant_id = 30) const bool HASB0 = false;
layout(constant_id = 31) const uint BOFF0 = 0;
layout(constant_id = 32) const uint ACT0 = 0;
layout(constant_id = 33) const float ALPHA0 = 0.0;
layout(constant_id = 34) const float BETA0 = 0.0;
layout(constant_id = 35) const uint HY0 = 0;
layout(constant_id = 36) const uint HX0 = 0;
layout(constant_id = 37) const uint CIN1 = 1;
layout(constant_id = 38) const uint COUT1 = 1;
layout(constant_id = 39) const uint KH1 = 1;
layout(constant_id = 40) const uint KW1 = 1;
layout(constant_id = 41) const uint WOFF1 = 0;
layout(constant_id = 42) const bool HASB1 = false;
layout(constant_id = 43) const uint BOFF1 = 0;
layout(constant_id = 44) const uint ACT1 = 0;
layout(constant_id = 45) const float ALPHA1 = 0.0;
layout(constant_id = 46) const float BETA1 = 0.0;
layout(constant_id = 47) const uint HY1 = 0;
layout(constant_id = 48) const uint HX1 = 0;
layout(constant_id = 49) const uint CIN2 = 1;
layout(constant_id = 50) const uint COUT2 = 1;
layout(constant_id = 51) const uint KH2 = 1;
layout(constant_id = 52) const uint KW2 = 1;
layout(constant_id = 53) const uint WOFF2 = 0;
layout(constant_id = 54) const bool HASB2 = false;
layout(constant_id = 55) const uint BOFF2 = 0;
layout(constant_id = 56) const uint ACT2 = 0;
layout(constant_id = 57) const float ALPHA2 = 0.0;
layout(constant_id = 58) const float BETA2 = 0.0;
layout(constant_id = 59) const uint HY2 = 0;
layout(constant_id = 60) const uint HX2 = 0;

shared float sX[SMEM_X];
shared float sY[SMEM_Y];
#ifdef HAS_F16
shared float16_t sX16[SMEM_X16];
shared float16_t sY16[SMEM_Y16];
#endif

float readBuf(bool y, uint i) {
#ifdef HAS_F16
    if (SMEM_F16) return y ? float(sY16[i]) : float(sX16[i]);
#endif
    return y ? sY[i] : sX[i];
}

void writeBuf(bool y, uint i, float v) {
#ifdef HAS_F16
    if (SMEM_F16) {
        if (y) sY16[i] = float16_t(v); else sX16[i] = float16_t(v);
        return;
    }
#endif
    if (y) sY[i] = v; else sX[i] = v;
}

vec4 weight4(uint i) {
#ifdef HAS_F16
    if (SMEM_F16) return vec4(heapF16x4[PERSISTENT_SLOT].v[i]);
#endif
    return heapVec4[PERSISTENT_SLOT].v[i];
}

float bias(bool has, uint offset, uint oc, uint cout) {
    return has && oc < cout ? loadElem(PERSISTENT_SLOT, SMEM_F16 ? DTYPE_F16 : DTYPE_F32, offset + oc) : 0.0;
}

// The last layer's channel oc at low-resolution pixel (y, x), through the depth-to-space remap.
void storeOutput(uint n, uint oc, uint y, uint x, uint cout, float v) {
    if (D2S_BLOCK > 1) {
        const uint b = D2S_BLOCK;
        uint c, by, bx;
        if (D2S_CRD != 0) {  // oc = (c * b + by) * b + bx
            c = oc / (b * b), by = (oc / b) % b, bx = oc % b;
        } else {  // oc = (by * b + bx) * C + c
            uint channels = cout / (b * b);
            by = oc / (b * channels), bx = (oc / channels) % b, c = oc % channels;
        }
        oc = c, y = y * b + by, x = x * b + bx;
    }
    storeElem(OUT_SLOT, OUT_DTYPE, n * OUT_STRIDE_N + oc * OUT_STRIDE_C + y * OUT_STRIDE_H + x * OUT_STRIDE_W, v);
}

// Input tile plus the whole chain's halo (hy, hx) into buffer X, zeros outside the image.
void stageInput(uint n, uint cin, uint hy, uint hx) {
    uint rh = TILE_H + 2 * hy, rw = TILE_W + 2 * hx;
    int y0 = int(gl_WorkGroupID.y * TILE_H) - int(hy), x0 = int(gl_WorkGroupID.x * TILE_W) - int(hx);
    uint count = cin * rh * rw;
    for (uint i = gl_LocalInvocationIndex; i < count; i += gl_WorkGroupSize.x) {
        uint c = i / (rh * rw), r = i % (rh * rw);
        int y = y0 + int(r / rw), x = x0 + int(r % rw);
        bool inside = y >= 0 && y < int(IMG_H) && x >= 0 && x < int(IMG_W);
        float v = inside ? loadElem(0u, IN_DTYPE, n * IN_STRIDE_N + c * IN_STRIDE_C + uint(y) * IN_STRIDE_H + uint(x) * IN_STRIDE_W) : 0.0;
        writeBuf(false, i, v);
    }
}

// One layer: reads its input region from buffer `srcY`, writes its output region (the tile
// grown by hy, hx) to the other buffer, or to the output tensor when `last`.
void layer(uint n, bool srcY, bool last, uint cin, uint cout, uint kh, uint kw, uint wOff, bool hasBias, uint bOff, uint act,
           float alpha, float beta, uint hy, uint hx) {
    const uint rh = TILE_H + 2 * hy, rw = TILE_W + 2 * hx;
    const uint sh = rh + kh - 1, sw = rw + kw - 1;
    const uint np = rh * rw, npg = (np + P - 1) / P, nb = (cout + OCB - 1) / OCB;
    const uint taps = kh * kw;
    int y0 = int(gl_WorkGroupID.y * TILE_H) - int(hy), x0 = int(gl_WorkGroupID.x * TILE_W) - int(hx);
    for (uint item = gl_LocalInvocationIndex; item < nb * npg; item += gl_WorkGroupSize.x) {
        uint ob = item / npg, g = item % npg;
        // Pixels g, g + npg, ...: neighbouring invocations read neighbouring shared words.
        uint base[P];
        [[unroll]] for (uint j = 0; j < P; ++j) {
            uint p = min(g + j * npg, np - 1);
            base[j] = (p / rw) * sw + p % rw;
        }
        vec4 acc[P][2];
        [[unroll]] for (uint j = 0; j < P; ++j) acc[j][0] = acc[j][1] = vec4(0.0);
        uint wi = wOff + ob * cin * taps * 2;
        for (uint ic = 0; ic < cin; ++ic) {
            uint cbase = ic * sh * sw;
            for (uint ky = 0; ky < kh; ++ky) {
                for (uint kx = 0; kx < kw; ++kx) {
                    uint o = cbase + ky * sw + kx;
                    vec4 w0 = weight4(wi), w1 = weight4(wi + 1);
                    wi += 2;
                    [[unroll]] for (uint j = 0; j < P; ++j) {
                        float a = readBuf(srcY, base[j] + o);
                        acc[j][0] += a * w0;
                        acc[j][1] += a * w1;
                    }
                }
            }
        }
        uint oc0 = ob * OCB;
        vec4 b0 = vec4(bias(hasBias, bOff, oc0, cout), bias(hasBias, bOff, oc0 + 1, cout), bias(hasBias, bOff, oc0 + 2, cout),
                       bias(hasBias, bOff, oc0 + 3, cout));
        vec4 b1 = vec4(bias(hasBias, bOff, oc0 + 4, cout), bias(hasBias, bOff, oc0 + 5, cout), bias(hasBias, bOff, oc0 + 6, cout),
                       bias(hasBias, bOff, oc0 + 7, cout));
        [[unroll]] for (uint j = 0; j < P; ++j) {
            acc[j][0] = applyActivation4(act, alpha, beta, acc[j][0] + b0);
            acc[j][1] = applyActivation4(act, alpha, beta, acc[j][1] + b1);
        }
        [[unroll]] for (uint j = 0; j < P; ++j) {
            uint p = g + j * npg;
            if (p >= np) continue;
            uint ry = p / rw, rx = p % rw;
            int y = y0 + int(ry), x = x0 + int(rx);
            bool inside = y >= 0 && y < int(IMG_H) && x >= 0 && x < int(IMG_W);
            [[unroll]] for (uint o = 0; o < OCB; ++o) {
                if (oc0 + o >= cout) continue;
                float v = o < 4 ? acc[j][0][o] : acc[j][1][o - 4];
                if (last) {
                    if (inside) storeOutput(n, oc0 + o, uint(y), uint(x), cout, v);
                } else {
                    writeBuf(!srcY, (oc0 + o) * np + p, inside ? v : 0.0);
                }
            }
        }
    }
}

void main() {
    uint n = gl_WorkGroupID.z;
    // The staged input carries layer 0's input halo: its output halo plus its kernel radius.
    stageInput(n, CIN0, HY0 + (KH0 - 1) / 2, HX0 + (KW0 - 1) / 2);
    barrier();
    layer(n, false, false, CIN0, COUT0, KH0, KW0, WOFF0, HASB0, BOFF0, ACT0, ALPHA0, BETA0, HY0, HX0);
    barrier();
    layer(n, true, LAYERS == 2, CIN1, COUT1, KH1, KW1, WOFF1, HASB1, BOFF1, ACT1, ALPHA1, BETA1, HY1, HX1);
    if (LAYERS > 2) {
        barrier();
        layer(n, false, true, CIN2, COUT2, KH2, KW2, WOFF2, HASB2, BOFF2, ACT2, ALPHA2, BETA2, HY2, HX2);
    }
}
