#include "ops/gemm_shape.h"
#include "ops/fused_activation.h"
#include "ops/index_util.h"

#include <algorithm>

namespace mlplugin::detail {

namespace {

// Sizes right-aligned into 4-D, missing leading dims 1.
std::array<uint32_t, 4> sizes4(const TensorDesc& t) {
    std::array<uint32_t, 4> s{1, 1, 1, 1};
    for (uint32_t i = 0; i < t.rank; ++i) s[4 - t.rank + i] = t.sizes[i];
    return s;
}

// Strides right-aligned into 4-D; size-1 and missing dims get 0 so they broadcast.
std::array<uint32_t, 4> strides4(const TensorDesc& t, bool packed) {
    TensorDesc view = t;
    view.hasStrides = view.hasStrides && !packed;
    auto e = view.effectiveStrides();
    std::array<uint32_t, 4> s{0, 0, 0, 0};
    for (uint32_t i = 0; i < t.rank; ++i) s[4 - t.rank + i] = t.sizes[i] == 1 ? 0 : e[i];
    return s;
}

GemmOperand operand(const TensorDesc& t, bool packed, bool transpose) {
    auto s = strides4(t, packed);
    return transpose ? GemmOperand{s[0], s[1], s[3], s[2]} : GemmOperand{s[0], s[1], s[2], s[3]};
}

Status checkTensors(const GemmDesc& d, const PlanContext& pc, const std::string& op) {
    MLP_TRY(checkTensor(d.a, op, "A", false, pc));
    MLP_TRY(checkTensor(d.b, op, "B", false, pc));
    if (d.c) MLP_TRY(checkTensor(*d.c, op, "C", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    const std::pair<const TensorDesc*, const char*> matrices[] = {{&d.a, "A"}, {&d.b, "B"}, {&d.output, "output"}};
    for (auto [t, field] : matrices)
        if (t->rank < 2 || t->rank > 4)
            return invalidArgument(op + ": " + field + " must be 2-D to 4-D ([batch..., rows, cols]), got rank " +
                                   std::to_string(t->rank) + " " + sizesText(*t));
    if (d.c && d.c->rank > d.output.rank)
        return invalidArgument(op + ": C " + sizesText(*d.c) + " has more dims than the output " + sizesText(d.output));
    return {};
}

Status checkShapes(const GemmDesc& d, const std::string& op) {
    auto n = [](uint32_t v) { return std::to_string(v); };
    auto a = sizes4(d.a), b = sizes4(d.b), out = sizes4(d.output);
    uint32_t m = d.transposeA ? a[3] : a[2], ka = d.transposeA ? a[2] : a[3];
    uint32_t kb = d.transposeB ? b[3] : b[2], nn = d.transposeB ? b[2] : b[3];
    if (ka != kb)
        return invalidArgument(op + ": inner dimensions differ: op(A) is [" + n(m) + ", " + n(ka) + "] (A " + sizesText(d.a) +
                               (d.transposeA ? " transposed" : "") + "), op(B) is [" + n(kb) + ", " + n(nn) + "] (B " + sizesText(d.b) +
                               (d.transposeB ? " transposed" : "") + ")");
    uint32_t rank = std::max(d.a.rank, d.b.rank);
    if (d.output.rank != rank)
        return invalidArgument(op + ": output " + sizesText(d.output) + " must have rank " + n(rank) + " like the larger of A and B");
    for (int i = 0; i < 2; ++i) {
        if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
            return invalidArgument(op + ": batch sizes of A " + sizesText(d.a) + " and B " + sizesText(d.b) + " do not broadcast");
        uint32_t batch = std::max(a[i], b[i]);
        if (out[i] != batch)
            return invalidArgument(op + ": output " + sizesText(d.output) + " batch size " + n(out[i]) + " does not match the " +
                                   n(batch) + " implied by A and B");
    }
    if (out[2] != m || out[3] != nn)
        return invalidArgument(op + ": output " + sizesText(d.output) + " does not end in [M, N] = [" + n(m) + ", " + n(nn) +
                               "] implied by A and B");
    if (d.c) {
        auto c = sizes4(*d.c);
        for (int i = 0; i < 4; ++i)
            if (c[i] != 1 && c[i] != out[i])
                return invalidArgument(op + ": C " + sizesText(*d.c) + " does not broadcast to the output " + sizesText(d.output));
    }
    if (uint64_t(out[0]) * out[1] > 65535)
        return unsupported(op + ": " + n(out[0] * out[1]) + " batched matrices, at most 65535 supported");
    if (nn > 65535u * 64u) return unsupported(op + ": N = " + n(nn) + " exceeds the supported " + n(65535u * 64u));
    return {};
}

}  // namespace

Status validateGemm(const GemmDesc& d, const PlanContext& pc) {
    std::string op = describe("gemm", d.name);
    MLP_TRY(checkTensors(d, pc, op));
    MLP_TRY(checkFusedActivation(d.activation, op));
    return checkShapes(d, op);
}

GemmGeometry gemmGeometry(const GemmDesc& d, bool packOwned) {
    auto out = sizes4(d.output);
    auto a = sizes4(d.a);
    GemmGeometry g;
    g.batch0 = out[0];
    g.batch1 = out[1];
    g.m = out[2];
    g.n = out[3];
    g.k = d.transposeA ? a[2] : a[3];
    g.a = operand(d.a, packOwned && d.a.ownedByPlugin(), d.transposeA);
    g.b = operand(d.b, packOwned && d.b.ownedByPlugin(), d.transposeB);
    if (d.c) g.c = operand(*d.c, packOwned && d.c->ownedByPlugin(), false);
    g.out = operand(d.output, false, false);
    return g;
}

}  // namespace mlplugin::detail
