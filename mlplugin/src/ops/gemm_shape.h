#pragma once
// GEMM validation and the derived shape, shared by the planner and the CPU reference.
// Every operand is viewed as 4-D [batch0, batch1, rows, cols] through element strides:
// broadcast and missing dims get stride 0, transposes swap the row and column strides.
#include "kernel.h"

namespace mlplugin::detail {

struct GemmOperand {
    uint32_t batch0 = 0, batch1 = 0, row = 0, col = 0;  // element strides
};

struct GemmGeometry {
    uint32_t batch0 = 1, batch1 = 1, m = 0, n = 0, k = 0;
    GemmOperand a, b, c, out;  // A as (m, k), B as (k, n), C and the output as (m, n)
};

Status validateGemm(const GemmDesc& d, const PlanContext& pc);
// Only meaningful after validateGemm succeeded. Operands are addressed with their descs'
// strides, or packed row-major where `packed(t)` says so (plugin-owned copies).
GemmGeometry gemmGeometry(const GemmDesc& d, bool packOwned);

}  // namespace mlplugin::detail
