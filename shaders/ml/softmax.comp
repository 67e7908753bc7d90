#version 450
#extension GL_GOOGLE_include_directive : require
// Softmax / log-softmax over the reduced dims of each row (see reduce_rows.glsl), numerically
// stable: the row maximum is subtracted before exp.
//   softmax:     y = exp(x - max) / sum(exp(x - max))
//   log-softmax: y = (x - max) - log(sum(exp(x - max)))
// PHASE 0: one workgroup (or invocation) per row does everything.
// Long rows are split into chunks:
// PHASE 1: one workgroup per chunk writes the chunk's (max, sum of exp(x - chunk max));
// PHASE 2: one workgroup per chunk merges its row's chunk pairs (rescaling each sum to the row
//          maximum) and writes its chunk.
#include "reduce_rows.glsl"

layout(constant_id = 5) const uint DTYPE_IN = DTYPE_F32;
layout(constant_id = 6) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 7) const uint OUT_SLOT = 1u;
layout(constant_id = 8) const bool LOG_SOFTMAX = false;
layout(constant_id = 9) const uint PHASE = 0u;

#define NEG_INF uintBitsToFloat(0xff800000u)

float loadInput(uint inRow, uint i) { return loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i)); }

// (max, sum of exp(x - max)) over elements [begin, end) of the row.
vec2 chunkStatistics(uint inRow, uint begin, uint end) {
    float maximum = NEG_INF;
    for (uint i = begin + rowLane(); i < end; i += rowStep()) maximum = max(maximum, loadInput(inRow, i));
    maximum = rowMax(maximum);
    float sum = 0.0;
    for (uint i = begin + rowLane(); i < end; i += rowStep()) sum += exp(loadInput(inRow, i) - maximum);
    return vec2(maximum, rowSum(sum));
}

// PHASE 2: the row's (max, sum) from its chunks' pairs (chunks <= local size).
vec2 mergeChunkStatistics(uint row) {
    uint lane = gl_LocalInvocationID.x;
    float chunkMax = NEG_INF, chunkSum = 0.0;
    if (lane < pc.chunks) {
        uint at = (row * pc.chunks + lane) * 2u;
        chunkMax = heapF32[TEMPORARY_SLOT].v[at];
        chunkSum = heapF32[TEMPORARY_SLOT].v[at + 1u];
    }
    float maximum = rowMax(chunkMax);
    float scaled = lane < pc.chunks ? chunkSum * exp(chunkMax - maximum) : 0.0;
    return vec2(maximum, rowSum(scaled));
}

void main() {
    uint row = currentRow();
    if (row >= pc.rows) return;  // uniform per workgroup in ROW_PER_WORKGROUP mode
    uint inRow = rowOffset(T_INPUT, row);
    uint begin = chunkBegin(), end = chunkEnd();

    vec2 stats;  // (max, sum of exp(x - max)) of the whole row
    if (PHASE == 2u) {
        stats = mergeChunkStatistics(row);
    } else {
        stats = chunkStatistics(inRow, begin, end);
        if (PHASE == 1u) {
            if (rowLane() == 0u) {
                uint at = (row * pc.chunks + currentChunk()) * 2u;
                heapF32[TEMPORARY_SLOT].v[at] = stats.x;
                heapF32[TEMPORARY_SLOT].v[at + 1u] = stats.y;
            }
            return;
        }
    }
    float logSum = log(stats.y);
    float invSum = 1.0 / stats.y;
    uint outRow = rowOffset(T_OUTPUT, row);
    for (uint i = begin + rowLane(); i < end; i += rowStep()) {
        float shifted = loadInput(inRow, i) - stats.x;
        float y = LOG_SOFTMAX ? shifted - logSum : exp(shifted) * invSum;
        storeElem(OUT_SLOT, DTYPE_OUT, outRow + elementOffset(T_OUTPUT, i), y);
    }
}
