// Slice: output[i] = input[offsets + i * steps] per dim, steps may be negative (ONNX Slice with
// the start index resolved). A strided copy whose input strides are scaled by the steps.
#include "index_util.h"
#include "strided_copy.h"

namespace mlplugin::detail {
namespace {

Status checkSlice(const PlanContext& pc, const SliceDesc& d) {
    std::string op = opLabel("slice", d.name);
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkRank(op, "output", d.output, d.input.rank));
    for (uint32_t k = 0; k < d.input.rank; ++k) {
        std::string dim = op + ": dim " + str(k);
        if (d.steps[k] == 0) return invalidArgument(dim + " step is 0");
        if (d.offsets[k] >= d.input.sizes[k])
            return invalidArgument(dim + " offset " + str(d.offsets[k]) + " is outside the input size " + str(d.input.sizes[k]));
        int64_t last = int64_t(d.offsets[k]) + int64_t(d.output.sizes[k] - 1) * d.steps[k];
        if (last < 0 || last >= int64_t(d.input.sizes[k]))
            return invalidArgument(dim + " reads input index " + std::to_string(last) + " (offset " + str(d.offsets[k]) + " + (" +
                                   str(d.output.sizes[k]) + " - 1) * step " + std::to_string(d.steps[k]) +
                                   "), outside the input size " + str(d.input.sizes[k]));
    }
    return {};
}

}  // namespace

Result<Plan> planSlice(const PlanContext& pc, const SliceDesc& d) {
    MLP_TRY(checkSlice(pc, d));
    CopyView v = boxView(d.output, d.input, d.output);
    for (uint32_t k = 0; k < v.rank; ++k) {
        v.inBase += int64_t(d.offsets[k]) * v.inStrides[k];
        v.inStrides[k] *= d.steps[k];
    }
    Plan plan;
    appendCopy(plan, anyFp16({&d.input, &d.output}), v, {0, d.input.dataType}, {1, d.output.dataType});
    return plan;
}

Result<HostTensors> referenceSlice(const SliceDesc& d, const HostTensors& in) {
    MLP_TRY(checkSlice(referenceContext(), d));
    HostTensor out = makeHostTensor(d.output);
    forEachIndex(d.output, [&](const Index& o) {
        Index i{};
        for (uint32_t k = 0; k < d.input.rank; ++k) i[k] = uint32_t(int64_t(d.offsets[k]) + int64_t(o[k]) * d.steps[k]);
        storeValue(out, offsetOf(d.output, o), in[0].data[offsetOf(d.input, i)]);
    });
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
