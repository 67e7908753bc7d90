// CPU reference for GEMM: direct loops in double over the same strided 4-D operand views the
// kernel uses (gemm_shape.h), with the descs' own strides.
#include "ops/gemm_shape.h"

namespace mlplugin::detail {

Result<HostTensors> referenceGemm(const GemmDesc& d, const HostTensors& in) {
    PlanContext anyDevice;
    anyDevice.fp16Storage = true;
    MLP_TRY(validateGemm(d, anyDevice));
    GemmGeometry g = gemmGeometry(d, false);
    const std::vector<double>&a = in[0].data, &b = in[1].data;
    HostTensor out{d.output, std::vector<double>(d.output.requiredBytes() / byteSize(d.output.dataType), 0.0)};
    for (uint64_t b0 = 0; b0 < g.batch0; ++b0)
    for (uint64_t b1 = 0; b1 < g.batch1; ++b1)
    for (uint64_t m = 0; m < g.m; ++m)
    for (uint64_t n = 0; n < g.n; ++n) {
        double acc = 0;
        for (uint64_t k = 0; k < g.k; ++k)
            acc += a[b0 * g.a.batch0 + b1 * g.a.batch1 + m * g.a.row + k * g.a.col] *
                   b[b0 * g.b.batch0 + b1 * g.b.batch1 + k * g.b.row + n * g.b.col];
        double v = double(d.alpha) * acc;
        if (d.c) v += double(d.beta) * in[2].data[b0 * g.c.batch0 + b1 * g.c.batch1 + m * g.c.row + n * g.c.col];
        out.data[b0 * g.out.batch0 + b1 * g.out.batch1 + m * g.out.row + n * g.out.col] = applyActivation(d.activation, v);
    }
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
