// Row machinery shared by the reductions, softmax and the instance / mean-variance
// normalizations. The planner splits the (collapsed) dims into kept dims, which enumerate rows,
// and reduced dims (REDUCED_MASK, bit d = loop dim d of 8, right-aligned: the inner 5 in push
// constants, the outer 3 as specialization constants, loop_dims.glsl), which enumerate the
// elements of a row. Every tensor (input, output and up to two per-row constants) is
// addressed with its own strides, 0 where it broadcasts.
//
// Two modes, chosen by the planner from the row length:
//   ROW_PER_WORKGROUP: the workgroup strides over the row and combines partial results in
//                      shared memory (long rows: instance norm over H*W, softmax over C*H*W);
//   otherwise:         each invocation walks one short row alone (reductions over C of a
//                      large image: millions of rows of a few elements).
// Either way a kernel is written once: accumulate over i = chunkBegin() + rowLane();
// i < chunkEnd(); i += rowStep(), then combine with rowSum / rowMax / rowMin (no-ops in
// per-invocation mode). Very long rows may additionally be split into chunks, a workgroup each
// (pc.chunks > 1); kernels that allow it merge the chunks' partial results in a second launch.
#ifndef MLP_REDUCE_ROWS_GLSL
#define MLP_REDUCE_ROWS_GLSL

#include "common.glsl"
#include "loop_dims.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const uint REDUCED_MASK = 0u;
layout(constant_id = 4) const bool ROW_PER_WORKGROUP = true;
// Kernels use ids 5..19; the outer loop dims (detail::kRowOuterSpecId) follow.
OUTER_ARRAY(OUTER_SIZE, 20, 21, 22, 1u)
OUTER_ARRAY(OUTER_STRIDE_INPUT, 23, 24, 25, 0u)
OUTER_ARRAY(OUTER_STRIDE_OUTPUT, 26, 27, 28, 0u)
OUTER_ARRAY(OUTER_STRIDE_SCALE, 29, 30, 31, 0u)
OUTER_ARRAY(OUTER_STRIDE_BIAS, 32, 33, 34, 0u)

#define MAX_LOCAL 256
#define T_INPUT 0
#define T_OUTPUT 1
#define T_SCALE 2
#define T_BIAS 3

layout(push_constant) uniform Push {
    uint rows;
    uint rowLength;
    uint sizes[PUSH_DIMS];
    uint strides[4 * PUSH_DIMS];  // [tensor * PUSH_DIMS + dim]
    // Long rows may be split into chunks, one workgroup each (kernels that support it combine
    // per-chunk partial results in a second launch); otherwise chunks = 1, chunkLength = rowLength.
    uint chunks;
    uint chunkLength;
} pc;

shared float sharedValue[MAX_LOCAL];
shared uint sharedIndex[MAX_LOCAL];

bool isReduced(int d) { return ((REDUCED_MASK >> uint(d)) & 1u) != 0u; }

uint workgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }

// Row index of this invocation / workgroup (may be >= pc.rows: then it has nothing to do).
uint currentRow() {
    if (ROW_PER_WORKGROUP) return workgroupIndex() / pc.chunks;
    return linearInvocation();
}
// The chunk of the row this workgroup covers: elements [chunkBegin(), chunkEnd()).
uint currentChunk() { return ROW_PER_WORKGROUP ? workgroupIndex() % pc.chunks : 0u; }
uint chunkBegin() { return currentChunk() * pc.chunkLength; }
uint chunkEnd() { return min(chunkBegin() + pc.chunkLength, pc.rowLength); }
uint rowLane() { return ROW_PER_WORKGROUP ? gl_LocalInvocationID.x : 0u; }
uint rowStep() { return ROW_PER_WORKGROUP ? gl_WorkGroupSize.x : 1u; }

uint outerStride(int t, int d) {
    if (t == T_INPUT) return OUTER_STRIDE_INPUT(d);
    if (t == T_OUTPUT) return OUTER_STRIDE_OUTPUT(d);
    if (t == T_SCALE) return OUTER_STRIDE_SCALE(d);
    return OUTER_STRIDE_BIAS(d);
}

// Offset in tensor t of the coordinates that `index` enumerates over the loop dims whose
// reduced bit equals `reduced` (kept dims: a row's first element; reduced dims: element i of a
// row). Unused outer dims have size 1 and stride 0: constant after specialization.
uint loopOffset(int t, uint index, bool reduced) {
    uint offset = 0u;
    [[unroll]] for (int d = PUSH_DIMS - 1; d >= 0; --d) {
        if (isReduced(d + OUTER_DIMS) != reduced) continue;
        offset += (index % pc.sizes[d]) * pc.strides[t * PUSH_DIMS + d];
        index /= pc.sizes[d];
    }
    [[unroll]] for (int d = OUTER_DIMS - 1; d >= 0; --d) {
        if (isReduced(d) != reduced) continue;
        offset += (index % OUTER_SIZE(d)) * outerStride(t, d);
        index /= OUTER_SIZE(d);
    }
    return offset;
}

// Offsets of a row's first element, and of element i within a row, in tensor t.
uint rowOffset(int t, uint row) { return loopOffset(t, row, false); }
uint elementOffset(int t, uint i) { return loopOffset(t, i, true); }

// Workgroup combines: every invocation of the workgroup calls them (uniform control flow) and
// gets the combined value. The local size is a power of two.
#define ROW_COMBINE(name, op)                                                  \
    float name(float v) {                                                      \
        if (!ROW_PER_WORKGROUP) return v;                                      \
        uint lane = gl_LocalInvocationID.x;                                    \
        sharedValue[lane] = v;                                                 \
        barrier();                                                             \
        for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {             \
            if (lane < s) sharedValue[lane] = op(sharedValue[lane], sharedValue[lane + s]); \
            barrier();                                                         \
        }                                                                      \
        float r = sharedValue[0];                                              \
        barrier(); /* sharedValue is reused by the next combine */             \
        return r;                                                              \
    }

float addOp(float a, float b) { return a + b; }
float mulOp(float a, float b) { return a * b; }
ROW_COMBINE(rowSum, addOp)
ROW_COMBINE(rowProduct, mulOp)
ROW_COMBINE(rowMax, max)
ROW_COMBINE(rowMin, min)

#endif
