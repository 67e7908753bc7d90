// Transpose: output dim k = input dim permutation[k] (ONNX Transpose). A strided copy over the
// output's sizes reading with permuted input strides.
#include "index_util.h"
#include "strided_copy.h"

namespace mlplugin::detail {
namespace {

Status checkTranspose(const PlanContext& pc, const TransposeDesc& d) {
    std::string op = opLabel("transpose", d.name);
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    uint32_t rank = d.input.rank;
    std::array<bool, kMaxTensorRank> seen{};
    std::string perm = sizesString(d.permutation.data(), rank);
    for (uint32_t k = 0; k < rank; ++k) {
        uint32_t p = d.permutation[k];
        if (p >= rank || seen[p])
            return invalidArgument(op + ": permutation " + perm + " is not a permutation of 0.." + str(rank - 1));
        seen[p] = true;
    }
    Index expected{};
    for (uint32_t k = 0; k < rank; ++k) expected[k] = d.input.sizes[d.permutation[k]];
    return checkSizes(op, "output", d.output, expected, rank);
}

}  // namespace

Result<Plan> planTranspose(const PlanContext& pc, const TransposeDesc& d) {
    MLP_TRY(checkTranspose(pc, d));
    auto inStrides = d.input.effectiveStrides();
    auto outStrides = d.output.effectiveStrides();
    CopyView v;
    for (uint32_t k = 0; k < d.output.rank; ++k) v.addDim(d.output.sizes[k], inStrides[d.permutation[k]], outStrides[k]);
    Plan plan;
    appendCopy(plan, anyFp16({&d.input, &d.output}), v, {0, d.input.dataType}, {1, d.output.dataType});
    return plan;
}

Result<HostTensors> referenceTranspose(const TransposeDesc& d, const HostTensors& in) {
    MLP_TRY(checkTranspose(referenceContext(), d));
    HostTensor out = makeHostTensor(d.output);
    forEachIndex(d.output, [&](const Index& o) {
        Index i{};
        for (uint32_t k = 0; k < d.output.rank; ++k) i[d.permutation[k]] = o[k];
        storeValue(out, offsetOf(d.output, o), in[0].data[offsetOf(d.input, i)]);
    });
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
