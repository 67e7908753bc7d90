// Concat and split along any axis: one strided copy per piece, each into (or out of) its
// window of the joined tensor. The pieces are disjoint, so the launches need no barriers.
#include "index_util.h"
#include "strided_copy.h"

#include <vector>

namespace mlplugin::detail {
namespace {

// `joined` is concat's output / split's input; `pieces` the other side. `pieceName` is
// "input" or "output".
Status checkJoin(const PlanContext& pc, const std::string& op, const TensorDesc& joined, const std::vector<TensorDesc>& pieces,
                 uint32_t axis, bool piecesAreInputs) {
    const char* pieceName = piecesAreInputs ? "input" : "output";
    if (pieces.empty()) return invalidArgument(op + ": no " + pieceName + "s");
    if (pieces.size() + 1 > kMaxTensorSlots)
        return invalidArgument(op + ": " + str(pieces.size()) + " " + pieceName + "s and 1 " + (piecesAreInputs ? "output" : "input") +
                               " exceed the limit of " + str(kMaxTensorSlots) + " tensors per operator");
    MLP_TRY(checkTensor(joined, op, piecesAreInputs ? "output" : "input", !piecesAreInputs, pc));
    for (size_t i = 0; i < pieces.size(); ++i) {
        std::string field = std::string(pieceName) + " " + str(i);
        MLP_TRY(checkTensor(pieces[i], op, field.c_str(), !piecesAreInputs, pc));
    }
    if (axis >= joined.rank) return invalidArgument(op + ": axis " + str(axis) + " is out of range for rank " + str(joined.rank));
    uint64_t total = 0;
    for (size_t i = 0; i < pieces.size(); ++i) {
        const TensorDesc& p = pieces[i];
        if (p.rank != joined.rank)
            return invalidArgument(op + ": " + pieceName + " " + str(i) + " rank is " + str(p.rank) + ", expected " + str(joined.rank));
        for (uint32_t d = 0; d < joined.rank; ++d)
            if (d != axis && p.sizes[d] != joined.sizes[d])
                return invalidArgument(op + ": " + pieceName + " " + str(i) + " size of dim " + str(d) + " is " + str(p.sizes[d]) +
                                       ", expected " + str(joined.sizes[d]));
        total += p.sizes[axis];
    }
    if (total != joined.sizes[axis])
        return invalidArgument(op + ": " + pieceName + " sizes along axis " + str(axis) + " sum to " + str(total) + ", but the " +
                               (piecesAreInputs ? "output" : "input") + " size is " + str(joined.sizes[axis]));
    return {};
}

// Piece i's window in the joined tensor starts at this element.
int64_t windowBase(const TensorDesc& joined, uint32_t axis, uint64_t offsetAlongAxis) {
    return int64_t(offsetAlongAxis * joined.effectiveStrides()[axis]);
}

}  // namespace

Result<Plan> planConcat(const PlanContext& pc, const ConcatDesc& d) {
    std::string op = opLabel("concat", d.name);
    MLP_TRY(checkJoin(pc, op, d.output, d.inputs, d.axis, true));
    bool f16 = d.output.dataType == DataType::Float16;
    for (const auto& t : d.inputs) f16 = f16 || t.dataType == DataType::Float16;
    Plan plan;
    uint32_t outSlot = uint32_t(d.inputs.size());
    uint64_t offset = 0;
    for (uint32_t i = 0; i < d.inputs.size(); ++i) {
        CopyView v = boxView(d.inputs[i], d.inputs[i], d.output);
        v.outBase = windowBase(d.output, d.axis, offset);
        appendCopy(plan, f16, v, {i, d.inputs[i].dataType}, {outSlot, d.output.dataType});
        offset += d.inputs[i].sizes[d.axis];
    }
    return plan;
}

Result<Plan> planSplit(const PlanContext& pc, const SplitDesc& d) {
    std::string op = opLabel("split", d.name);
    MLP_TRY(checkJoin(pc, op, d.input, d.outputs, d.axis, false));
    bool f16 = d.input.dataType == DataType::Float16;
    for (const auto& t : d.outputs) f16 = f16 || t.dataType == DataType::Float16;
    Plan plan;
    uint64_t offset = 0;
    for (uint32_t i = 0; i < d.outputs.size(); ++i) {
        CopyView v = boxView(d.outputs[i], d.input, d.outputs[i]);
        v.inBase = windowBase(d.input, d.axis, offset);
        appendCopy(plan, f16, v, {0, d.input.dataType}, {1 + i, d.outputs[i].dataType});
        offset += d.outputs[i].sizes[d.axis];
    }
    return plan;
}

Result<HostTensors> referenceConcat(const ConcatDesc& d, const HostTensors& in) {
    MLP_TRY(checkJoin(referenceContext(), opLabel("concat", d.name), d.output, d.inputs, d.axis, true));
    HostTensor out = makeHostTensor(d.output);
    uint32_t offset = 0;
    for (size_t i = 0; i < d.inputs.size(); ++i) {
        forEachIndex(d.inputs[i], [&](const Index& idx) {
            Index o = idx;
            o[d.axis] += offset;
            storeValue(out, offsetOf(d.output, o), in[i].data[offsetOf(d.inputs[i], idx)]);
        });
        offset += d.inputs[i].sizes[d.axis];
    }
    return HostTensors{std::move(out)};
}

Result<HostTensors> referenceSplit(const SplitDesc& d, const HostTensors& in) {
    MLP_TRY(checkJoin(referenceContext(), opLabel("split", d.name), d.input, d.outputs, d.axis, false));
    HostTensors outs;
    uint32_t offset = 0;
    for (const TensorDesc& desc : d.outputs) {
        HostTensor out = makeHostTensor(desc);
        forEachIndex(desc, [&](const Index& idx) {
            Index i = idx;
            i[d.axis] += offset;
            storeValue(out, offsetOf(desc, idx), in[0].data[offsetOf(d.input, i)]);
        });
        offset += desc.sizes[d.axis];
        outs.push_back(std::move(out));
    }
    return outs;
}

}  // namespace mlplugin::detail
