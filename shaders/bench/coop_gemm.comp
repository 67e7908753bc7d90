#version 450
#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable
// Tensor-core ceiling: C[M][N] (fp32) = A[M][K] * B[K][N] (fp16, row-major) with
// VK_NV_cooperative_matrix 16x16x16 fragments. A plain kernel, no tricks beyond what a
// convolution kernel can use too: a 128 x 256 tile per workgroup of 8 subgroups
// (each 64 x 64: 4 x 4 accumulators), K staged in shared memory 32 at a time, the next chunk's
// global loads issued before the current chunk's MMAs. M, N multiples of the tile, K of 32.
layout(local_size_x = 256) in;

layout(set = 0, binding = 0) readonly buffer BufA { uvec4 a[]; };
layout(set = 0, binding = 1) readonly buffer BufB { uvec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer BufC { float c[]; };
layout(push_constant) uniform Push { uint M, N, K; };

#define TM 128
#define TN 256
#define TK 32
#define AP (TK + 8)  // shared row pitches in halves, padded against bank conflicts
#define BP (TN + 8)
#define A_VECS (TM * TK / 8 / 256)  // uvec4 (8 halves) staged per invocation
#define B_VECS (TK * TN / 8 / 256)

shared float16_t sA[TM * AP];
shared float16_t sB[TK * BP];

void main() {
    uint tid = gl_LocalInvocationID.x, sg = gl_SubgroupID;
    uint tileM = gl_WorkGroupID.y * TM, tileN = gl_WorkGroupID.x * TN;
    uint sgM = (sg / 4) * 64, sgN = (sg % 4) * 64;

    fcoopmatNV<32, gl_ScopeSubgroup, 16, 16> acc[4][4];
    [[unroll]] for (uint i = 0; i < 4; ++i)
        [[unroll]] for (uint j = 0; j < 4; ++j) acc[i][j] = fcoopmatNV<32, gl_ScopeSubgroup, 16, 16>(0.0);
    fcoopmatNV<16, gl_ScopeSubgroup, 16, 16> fa[4], fb;

    uvec4 ra[A_VECS], rb[B_VECS];
    [[unroll]] for (uint r = 0; r < A_VECS; ++r) {
        uint idx = tid + r * 256, row = idx / (TK / 8), col = idx % (TK / 8);
        ra[r] = a[((tileM + row) * K) / 8 + col];
    }
    [[unroll]] for (uint r = 0; r < B_VECS; ++r) {
        uint idx = tid + r * 256, row = idx / (TN / 8), col = idx % (TN / 8);
        rb[r] = b[(row * N + tileN) / 8 + col];
    }
    for (uint k0 = 0; k0 < K; k0 += TK) {
        barrier();
        [[unroll]] for (uint r = 0; r < A_VECS; ++r) {
            uint idx = tid + r * 256, at = (idx / (TK / 8)) * AP + (idx % (TK / 8)) * 8;
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                f16vec2 h = unpackFloat2x16(ra[r][q]);
                sA[at + 2 * q] = h.x;
                sA[at + 2 * q + 1] = h.y;
            }
        }
        [[unroll]] for (uint r = 0; r < B_VECS; ++r) {
            uint idx = tid + r * 256, at = (idx / (TN / 8)) * BP + (idx % (TN / 8)) * 8;
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                f16vec2 h = unpackFloat2x16(rb[r][q]);
                sB[at + 2 * q] = h.x;
                sB[at + 2 * q + 1] = h.y;
            }
        }
        barrier();
        if (k0 + TK < K) {
            [[unroll]] for (uint r = 0; r < A_VECS; ++r) {
                uint idx = tid + r * 256, row = idx / (TK / 8), col = idx % (TK / 8);
                ra[r] = a[((tileM + row) * K + k0 + TK) / 8 + col];
            }
            [[unroll]] for (uint r = 0; r < B_VECS; ++r) {
                uint idx = tid + r * 256, row = idx / (TN / 8), col = idx % (TN / 8);
                rb[r] = b[((k0 + TK + row) * N + tileN) / 8 + col];
            }
        }
        [[unroll]] for (uint kk = 0; kk < TK; kk += 16) {
            [[unroll]] for (uint i = 0; i < 4; ++i) coopMatLoadNV(fa[i], sA, (sgM + i * 16) * AP + kk, AP, false);
            [[unroll]] for (uint j = 0; j < 4; ++j) {
                coopMatLoadNV(fb, sB, kk * BP + sgN + j * 16, BP, false);
                [[unroll]] for (uint i = 0; i < 4; ++i) acc[i][j] = coopMatMulAddNV(fa[i], fb, acc[i][j]);
            }
        }
    }
    [[unroll]] for (uint i = 0; i < 4; ++i)
        [[unroll]] for (uint j = 0; j < 4; ++j)
            coopMatStoreNV(acc[i][j], c, (tileM + sgM + i * 16) * N + tileN + sgN + j * 16, N, false);
}
