#version 450
#extension GL_GOOGLE_include_directive : require
// Reductions over the reduced dims of each row (see reduce_rows.glsl): sum, mean, max, min, L2,
// sum of squares, and argmax / argmin (index within the row, row-major over the reduced dims,
// first occurrence on ties, written as a float). fp32 accumulation.
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

layout(constant_id = 5) const uint OP = OP_SUM;
layout(constant_id = 6) const uint DTYPE_IN = DTYPE_F32;
layout(constant_id = 7) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 8) const uint OUT_SLOT = 1u;

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

uint rowArg(float v, uint i) {
    if (!ROW_PER_WORKGROUP) return i;
    uint lane = gl_LocalInvocationID.x;
    sharedValue[lane] = v;
    sharedIndex[lane] = i;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lane < s && betterArg(sharedValue[lane + s], sharedIndex[lane + s], sharedValue[lane], sharedIndex[lane])) {
            sharedValue[lane] = sharedValue[lane + s];
            sharedIndex[lane] = sharedIndex[lane + s];
        }
        barrier();
    }
    return sharedIndex[0];
}

void main() {
    uint row = currentRow();
    if (row >= pc.rows) return;  // uniform per workgroup in ROW_PER_WORKGROUP mode
    uint inRow = rowOffset(T_INPUT, row);
    float result;
    if (OP == OP_ARGMAX || OP == OP_ARGMIN) {
        float best = OP == OP_ARGMAX ? NEG_INF : POS_INF;
        uint bestIndex = NO_INDEX;
        for (uint i = rowLane(); i < pc.rowLength; i += rowStep()) {
            float v = loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i));
            if (betterArg(v, i, best, bestIndex)) { best = v; bestIndex = i; }
        }
        result = float(rowArg(best, bestIndex));
    } else if (OP == OP_MAX || OP == OP_MIN) {
        float acc = OP == OP_MAX ? NEG_INF : POS_INF;
        for (uint i = rowLane(); i < pc.rowLength; i += rowStep()) {
            float v = loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i));
            acc = OP == OP_MAX ? max(acc, v) : min(acc, v);
        }
        result = OP == OP_MAX ? rowMax(acc) : rowMin(acc);
    } else {
        bool squares = OP == OP_L2 || OP == OP_SUM_SQUARE;
        float acc = 0.0;
        for (uint i = rowLane(); i < pc.rowLength; i += rowStep()) {
            float v = loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i));
            acc += squares ? v * v : v;
        }
        result = rowSum(acc);
        if (OP == OP_MEAN) result /= float(pc.rowLength);
        if (OP == OP_L2) result = sqrt(result);
    }
    if (rowLane() == 0u) storeElem(OUT_SLOT, DTYPE_OUT, rowOffset(T_OUTPUT, row), result);
}
