#version 450
#extension GL_GOOGLE_include_directive : require
// Softmax / log-softmax over the reduced dims of each row (see reduce_rows.glsl), numerically
// stable: the row maximum is subtracted before exp.
//   softmax:     y = exp(x - max) / sum(exp(x - max))
//   log-softmax: y = (x - max) - log(sum(exp(x - max)))
#include "reduce_rows.glsl"

layout(constant_id = 5) const uint DTYPE_IN = DTYPE_F32;
layout(constant_id = 6) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 7) const uint OUT_SLOT = 1u;
layout(constant_id = 8) const bool LOG_SOFTMAX = false;

void main() {
    uint row = currentRow();
    if (row >= pc.rows) return;  // uniform per workgroup in ROW_PER_WORKGROUP mode
    uint inRow = rowOffset(T_INPUT, row);

    float rowMaximum = uintBitsToFloat(0xff800000u);
    for (uint i = rowLane(); i < pc.rowLength; i += rowStep())
        rowMaximum = max(rowMaximum, loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i)));
    rowMaximum = rowMax(rowMaximum);

    float sum = 0.0;
    for (uint i = rowLane(); i < pc.rowLength; i += rowStep())
        sum += exp(loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i)) - rowMaximum);
    sum = rowSum(sum);
    float logSum = log(sum);
    float invSum = 1.0 / sum;

    uint outRow = rowOffset(T_OUTPUT, row);
    for (uint i = rowLane(); i < pc.rowLength; i += rowStep()) {
        float shifted = loadElem(0u, DTYPE_IN, inRow + elementOffset(T_INPUT, i)) - rowMaximum;
        float y = LOG_SOFTMAX ? shifted - logSum : exp(shifted) * invSum;
        storeElem(OUT_SLOT, DTYPE_OUT, outRow + elementOffset(T_OUTPUT, i), y);
    }
}
