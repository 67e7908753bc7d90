#version 460
// Strided copy whose fast dims differ between the tensors (NCHW <-> NHWC, 2-D transposes): a
// 32 x 32 tile goes through shared memory so reads run along Q (contiguous in the input) and
// writes along R (contiguous in the output). The remaining dims are a batch of up to 6
// (an 8-D copy without its Q and R dims; detail::kMaxCopyRank).
// The plain strided_copy.comp would read with a stride of one whole plane per invocation.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(constant_id = 3) const uint BATCH_RANK = 0;
layout(constant_id = 4) const uint IN_DTYPE = DTYPE_F32;
layout(constant_id = 5) const uint OUT_DTYPE = DTYPE_F32;

#define TILE 32u
#define ROWS 8u  // local size (TILE, ROWS): each invocation moves TILE / ROWS elements
#define MAX_BATCH 6

layout(push_constant, scalar) uniform Push {
    uint tiles;  // batch * tilesQ * tilesR
    uint inSlot;
    uint outSlot;
    uint inBase;
    uint outBase;
    uint sizeQ;       // input stride 1
    uint sizeR;       // output stride 1
    uint tilesQ;
    uint tilesR;
    uint inStrideR;
    uint outStrideQ;
    uint batchSizes[MAX_BATCH];
    uint batchInStrides[MAX_BATCH];
    uint batchOutStrides[MAX_BATCH];
} pc;

shared float tile[TILE][TILE + 1];  // +1: column reads hit distinct banks

void main() {
    // Uniform per workgroup, so the barrier below is reached by all or none.
    uint t = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    if (t >= pc.tiles) return;
    uint tr = t % pc.tilesR;
    t /= pc.tilesR;
    uint tq = t % pc.tilesQ;
    uint b = t / pc.tilesQ;
    uint inBase = pc.inBase, outBase = pc.outBase;
    [[unroll]] for (int d = int(BATCH_RANK) - 1; d >= 0; --d) {
        uint i = d == 0 ? b : b % pc.batchSizes[d];
        b /= pc.batchSizes[d];
        inBase += i * pc.batchInStrides[d];
        outBase += i * pc.batchOutStrides[d];
    }

    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint q = tq * TILE + lx;
    [[unroll]] for (uint j = 0; j < TILE; j += ROWS) {
        uint r = tr * TILE + ly + j;
        if (q < pc.sizeQ && r < pc.sizeR) tile[ly + j][lx] = loadElem(pc.inSlot, IN_DTYPE, inBase + q + r * pc.inStrideR);
    }
    barrier();
    uint r = tr * TILE + lx;
    [[unroll]] for (uint j = 0; j < TILE; j += ROWS) {
        uint qq = tq * TILE + ly + j;
        if (qq < pc.sizeQ && r < pc.sizeR) storeElem(pc.outSlot, OUT_DTYPE, outBase + r + qq * pc.outStrideQ, tile[lx][ly + j]);
    }
}
