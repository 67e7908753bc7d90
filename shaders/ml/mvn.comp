#version 450
#extension GL_GOOGLE_include_directive : require
// Mean-variance normalization over the reduced dims of each row, also instance normalization
// (rows = (n, c), reduced = spatial dims):
//   y = activation((x - mean) / sqrt(variance + epsilon) * scale + bias)
// fp32 accumulation; mean first, then the sum of squared deviations (stable two-pass).
// Scale and bias are optional; each is read from its input slot or, when the plugin owns it,
// from the persistent resource at an element offset (copied there by the initializer).
//
// PHASE 0: one workgroup (or invocation) per row does everything.
// Long rows (a 4K image's H*W) are split so more than N*C workgroups share the work:
// PHASE 1: one workgroup per chunk writes the chunk's (mean, M2) to the temporary resource;
// PHASE 2: one workgroup per chunk merges its row's chunk statistics (Chan et al.'s parallel
//          variance) and normalizes its chunk.
#include "reduce_rows.glsl"

#define NO_SLOT 0xFFFFu

layout(constant_id = 5) const uint DTYPE_IN = DTYPE_F32;
layout(constant_id = 6) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 7) const uint OUT_SLOT = 3u;
layout(constant_id = 8) const bool NORMALIZE_VARIANCE = true;
layout(constant_id = 9) const float EPSILON = 1e-5;
layout(constant_id = 10) const uint ACT_TYPE = ACT_NONE;
layout(constant_id = 11) const float ACT_ALPHA = 0.0;
layout(constant_id = 12) const float ACT_BETA = 0.0;
layout(constant_id = 13) const uint SCALE_SLOT = NO_SLOT;
layout(constant_id = 14) const uint SCALE_DTYPE = DTYPE_F32;
layout(constant_id = 15) const uint SCALE_BASE = 0u;
layout(constant_id = 16) const uint BIAS_SLOT = NO_SLOT;
layout(constant_id = 17) const uint BIAS_DTYPE = DTYPE_F32;
layout(constant_id = 18) const uint BIAS_BASE = 0u;
layout(constant_id = 19) const uint PHASE = 0u;

shared float sharedMean[MAX_LOCAL];

float loadInput(uint inRow, uint i) { return loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i)); }

// (mean, M2) of elements [begin, end) of the row: M2 = sum of squared deviations from the mean.
vec2 chunkStatistics(uint inRow, uint begin, uint end, bool needM2) {
    float sum = 0.0;
    for (uint i = begin + rowLane(); i < end; i += rowStep()) sum += loadInput(inRow, i);
    float mean = rowSum(sum) / float(end - begin);
    if (!needM2) return vec2(mean, 0.0);
    float squares = 0.0;
    for (uint i = begin + rowLane(); i < end; i += rowStep()) {
        float d = loadInput(inRow, i) - mean;
        squares += d * d;
    }
    return vec2(mean, rowSum(squares));
}

// PHASE 2: merges the (count, mean, M2) of the row's chunks across the workgroup (chunks <= local size).
vec2 mergeChunkStatistics(uint row) {
    uint lane = gl_LocalInvocationID.x;
    float count = 0.0, mean = 0.0, m2 = 0.0;
    if (lane < pc.chunks) {
        count = float(min(pc.chunkLength, pc.rowLength - lane * pc.chunkLength));
        uint at = (row * pc.chunks + lane) * 2u;
        mean = heapF32[TEMPORARY_SLOT].v[at];
        m2 = heapF32[TEMPORARY_SLOT].v[at + 1u];
    }
    sharedValue[lane] = m2;
    sharedMean[lane] = mean;
    sharedIndex[lane] = floatBitsToUint(count);
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lane < s) {
            float na = uintBitsToFloat(sharedIndex[lane]), nb = uintBitsToFloat(sharedIndex[lane + s]);
            if (nb > 0.0) {
                float n = na + nb;
                float delta = sharedMean[lane + s] - sharedMean[lane];
                sharedMean[lane] += delta * (nb / n);
                sharedValue[lane] += sharedValue[lane + s] + delta * delta * (na * nb / n);
                sharedIndex[lane] = floatBitsToUint(n);
            }
        }
        barrier();
    }
    return vec2(sharedMean[0], sharedValue[0]);
}

void main() {
    uint row = currentRow();
    if (row >= pc.rows) return;  // uniform per workgroup in ROW_PER_WORKGROUP mode
    uint inRow = rowOffset(T_INPUT, row);
    uint begin = chunkBegin(), end = chunkEnd();

    vec2 stats;  // (mean, M2) of the whole row
    if (PHASE == 2u) {
        stats = mergeChunkStatistics(row);
    } else {
        stats = chunkStatistics(inRow, begin, end, NORMALIZE_VARIANCE || PHASE == 1u);
        if (PHASE == 1u) {
            if (rowLane() == 0u) {
                uint at = (row * pc.chunks + currentChunk()) * 2u;
                heapF32[TEMPORARY_SLOT].v[at] = stats.x;
                heapF32[TEMPORARY_SLOT].v[at + 1u] = stats.y;
            }
            return;
        }
    }
    float mean = stats.x;
    float invStd = NORMALIZE_VARIANCE ? inversesqrt(stats.y / float(pc.rowLength) + EPSILON) : 1.0;

    uint outRow = rowOffset(T_OUTPUT, row);
    uint scaleRow = SCALE_BASE + rowOffset(T_SCALE, row);
    uint biasRow = BIAS_BASE + rowOffset(T_BIAS, row);
    for (uint i = begin + rowLane(); i < end; i += rowStep()) {
        float y = (loadInput(inRow, i) - mean) * invStd;
        if (SCALE_SLOT != NO_SLOT) y *= loadElem(SCALE_SLOT, SCALE_DTYPE, scaleRow + elementOffset(T_SCALE, i));
        if (BIAS_SLOT != NO_SLOT) y += loadElem(BIAS_SLOT, BIAS_DTYPE, biasRow + elementOffset(T_BIAS, i));
        storeElem(OUT_SLOT, DTYPE_OUT, outRow + elementOffset(T_OUTPUT, i), applyActivation(ACT_TYPE, ACT_ALPHA, ACT_BETA, y));
    }
}
