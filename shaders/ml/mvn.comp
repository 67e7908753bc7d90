#version 450
#extension GL_GOOGLE_include_directive : require
// Mean-variance normalization over the reduced dims of each row, also instance normalization
// (rows = (n, c), reduced = spatial dims):
//   y = activation((x - mean) / sqrt(variance + epsilon) * scale + bias)
// Two passes over the row for mean, then variance (stable, fp32 accumulation), a third writes.
// Scale and bias are optional; each is read from its input slot or, when the plugin owns it,
// from the persistent resource at an element offset (copied there by the initializer).
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

void main() {
    uint row = currentRow();
    if (row >= pc.rows) return;  // uniform per workgroup in ROW_PER_WORKGROUP mode
    uint inRow = rowOffset(T_INPUT, row);

    float sum = 0.0;
    for (uint i = rowLane(); i < pc.rowLength; i += rowStep()) sum += loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i));
    float mean = rowSum(sum) / float(pc.rowLength);

    float invStd = 1.0;
    if (NORMALIZE_VARIANCE) {
        float squares = 0.0;
        for (uint i = rowLane(); i < pc.rowLength; i += rowStep()) {
            float d = loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i)) - mean;
            squares += d * d;
        }
        invStd = inversesqrt(rowSum(squares) / float(pc.rowLength) + EPSILON);
    }

    uint outRow = rowOffset(T_OUTPUT, row);
    uint scaleRow = SCALE_BASE + rowOffset(T_SCALE, row);
    uint biasRow = BIAS_BASE + rowOffset(T_BIAS, row);
    for (uint i = rowLane(); i < pc.rowLength; i += rowStep()) {
        float y = (loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i)) - mean) * invStd;
        if (SCALE_SLOT != NO_SLOT) y *= loadElem(SCALE_SLOT, SCALE_DTYPE, scaleRow + elementOffset(T_SCALE, i));
        if (BIAS_SLOT != NO_SLOT) y += loadElem(BIAS_SLOT, BIAS_DTYPE, biasRow + elementOffset(T_BIAS, i));
        storeElem(OUT_SLOT, DTYPE_OUT, outRow + elementOffset(T_OUTPUT, i), applyActivation(ACT_TYPE, ACT_ALPHA, ACT_BETA, y));
    }
}
