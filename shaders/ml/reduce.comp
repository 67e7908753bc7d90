#version 450
#extension GL_GOOGLE_include_directive : require
// Reductions over the reduced dims of each row (see reduce_rows.glsl): sum, mean, max, min, L2,
// sum of squares, product, and argmax / argmin (index within the row, row-major over the
// reduced dims, first occurrence on ties, written as a float). fp32 accumulation. Every op is a merge of
// partial results (Partial), so a row can be split over lanes, workgroups and launches alike.
#include "reduce_rows.glsl"

// Op ids match mlplugin::ReduceOp.
#define OP_SUM 0u
#define OP_MEAN 1u
#define OP_MAX 2u
#define OP_MIN 3u
#define OP_L2 4u
#define OP_SUM_SQUARE 5u
#define OP_ARGMAX 6u
#define OP_ARGMIN 7u
#define OP_PROD 8u

layout(constant_id = 5) const uint OP = OP_SUM;
layout(constant_id = 6) const uint DTYPE_IN = DTYPE_F32;
layout(constant_id = 7) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 8) const uint OUT_SLOT = 1u;
// 0: whole rows. Long rows: 1, a workgroup per chunk writes its partial result to the temporary
// resource; 2, a workgroup per row merges the partials and writes the result.
layout(constant_id = 9) const uint PHASE = 0u;

#define NEG_INF uintBitsToFloat(0xff800000u)
#define POS_INF uintBitsToFloat(0x7f800000u)
const uint NO_INDEX = 0xFFFFFFFFu;

// Is (v, i) a better arg-candidate than (best, bestIndex)? Ties go to the lower index, so the
// result is the first occurrence however the row was split across lanes.
bool betterArg(float v, uint i, float best, uint bestIndex) {
    if (i == NO_INDEX) return false;
    if (bestIndex == NO_INDEX) return true;
    if (v == best) return i < bestIndex;
    return OP == OP_ARGMAX ? v > best : v < best;
}

struct Partial {
    float value;  // sum, sum of squares, max or min so far; the best value for arg ops
    uint index;   // arg ops: index of `value` within the row (NO_INDEX: none yet)
};

bool isArg() { return OP == OP_ARGMAX || OP == OP_ARGMIN; }

Partial identity() {
    if (OP == OP_MAX || OP == OP_ARGMAX) return Partial(NEG_INF, NO_INDEX);
    if (OP == OP_MIN || OP == OP_ARGMIN) return Partial(POS_INF, NO_INDEX);
    if (OP == OP_PROD) return Partial(1.0, NO_INDEX);
    return Partial(0.0, NO_INDEX);
}

Partial merge(Partial a, Partial b) {
    if (isArg()) return betterArg(b.value, b.index, a.value, a.index) ? b : a;
    if (OP == OP_MAX) return Partial(max(a.value, b.value), NO_INDEX);
    if (OP == OP_MIN) return Partial(min(a.value, b.value), NO_INDEX);
    if (OP == OP_PROD) return Partial(a.value * b.value, NO_INDEX);
    return Partial(a.value + b.value, NO_INDEX);
}

// This lane's share of elements [begin, end) of the row.
Partial accumulate(uint inRow, uint begin, uint end) {
    bool squares = OP == OP_L2 || OP == OP_SUM_SQUARE;
    Partial p = identity();
    for (uint i = begin + rowLane(); i < end; i += rowStep()) {
        float v = loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i));
        p = merge(p, Partial(squares ? v * v : v, i));
    }
    return p;
}

// Combines the partials of the workgroup's lanes (every lane calls it; all get the result).
Partial combine(Partial p) {
    if (!ROW_PER_WORKGROUP) return p;
    if (OP == OP_MAX) return Partial(rowMax(p.value), NO_INDEX);
    if (OP == OP_MIN) return Partial(rowMin(p.value), NO_INDEX);
    if (OP == OP_PROD) return Partial(rowProduct(p.value), NO_INDEX);
    if (!isArg()) return Partial(rowSum(p.value), NO_INDEX);
    uint lane = gl_LocalInvocationID.x;
    sharedValue[lane] = p.value;
    sharedIndex[lane] = p.index;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lane < s && betterArg(sharedValue[lane + s], sharedIndex[lane + s], sharedValue[lane], sharedIndex[lane])) {
            sharedValue[lane] = sharedValue[lane + s];
            sharedIndex[lane] = sharedIndex[lane + s];
        }
        barrier();
    }
    Partial r = Partial(sharedValue[0], sharedIndex[0]);
    barrier();
    return r;
}

float finish(Partial p) {
    if (isArg()) return float(p.index);
    if (OP == OP_MEAN) return p.value / float(pc.rowLength);
    if (OP == OP_L2) return sqrt(p.value);
    return p.value;
}

void main() {
    if (PHASE == 2u) {
        // One workgroup per row: merge the row's chunk partials (chunks <= local size).
        uint row = workgroupIndex();
        if (row >= pc.rows) return;
        uint lane = gl_LocalInvocationID.x;
        Partial p = identity();
        if (lane < pc.chunks) {
            uint at = (row * pc.chunks + lane) * 2u;
            p = Partial(heapF32[TEMPORARY_SLOT].v[at], uint(heapF32[TEMPORARY_SLOT].v[at + 1u]));
        }
        p = combine(p);
        if (lane == 0u) storeElem(OUT_SLOT, DTYPE_OUT, rowOffset(T_OUTPUT, row), finish(p));
        return;
    }
    uint row = currentRow();
    if (row >= pc.rows) return;  // uniform per workgroup in ROW_PER_WORKGROUP mode
    Partial p = combine(accumulate(rowOffset(T_INPUT, row), chunkBegin(), chunkEnd()));
    if (rowLane() != 0u) return;
    if (PHASE == 1u) {
        uint at = (row * pc.chunks + currentChunk()) * 2u;
        heapF32[TEMPORARY_SLOT].v[at] = p.value;
        // Indices as floats (exact: the planner keeps rows under 2^24 for arg ops); every
        // chunk has elements, so an arg op's index is always set.
        heapF32[TEMPORARY_SLOT].v[at + 1u] = isArg() ? float(p.index) : 0.0;
        return;
    }
    storeElem(OUT_SLOT, DTYPE_OUT, rowOffset(T_OUTPUT, row), finish(p));
}
