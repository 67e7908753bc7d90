#include "mlplugin/graph.h"

#include "graph/node_tensors.h"

#include <algorithm>

namespace mlplugin {

ValueId GraphDesc::addInput(std::string name, const TensorDesc& desc) {
    values.push_back({std::move(name), desc, GraphValue::Kind::Input, {}});
    inputs.push_back(ValueId(values.size() - 1));
    return inputs.back();
}

ValueId GraphDesc::addConstant(std::string name, const TensorDesc& desc, std::vector<float> data) {
    values.push_back({std::move(name), desc, GraphValue::Kind::Constant, std::move(data)});
    return ValueId(values.size() - 1);
}

Result<std::vector<ValueId>> GraphDesc::addNode(OperatorDesc op, std::vector<ValueId> nodeInputs) {
    std::string label = operatorLabel(op);
    std::vector<const TensorDesc*> descs;
    for (size_t i = 0; i < nodeInputs.size(); ++i) {
        ValueId v = nodeInputs[i];
        if (v == kNoValue) { descs.push_back(nullptr); continue; }
        if (v >= values.size())
            return invalidArgument(label + ": input " + std::to_string(i) + " refers to value " + std::to_string(v) + ", but the graph has " +
                                   std::to_string(values.size()) + " values");
        descs.push_back(&values[v].desc);
    }
    if (!detail::setOperatorInputs(op, descs))
        return invalidArgument(label + ": " + std::to_string(nodeInputs.size()) + " inputs do not fit the operator (required input missing or too many)");
    MLP_TRY(detail::inferOperatorOutputs(op));
    std::vector<ValueId> outs;
    for (TensorDesc* t : detail::mutableOperatorOutputs(op)) {
        std::string name = std::visit([](const auto& d) { return d.name; }, op);
        values.push_back({name.empty() ? label : name, *t, GraphValue::Kind::Intermediate, {}});
        if (!outs.empty()) values.back().name += ":" + std::to_string(outs.size());
        outs.push_back(ValueId(values.size() - 1));
    }
    nodes.push_back({std::move(op), std::move(nodeInputs), outs});
    return outs;
}

void GraphDesc::markOutput(ValueId v) { outputs.push_back(v); }

Status GraphDesc::setLayout(ValueId v, const TensorDesc& desc) {
    auto listed = [v](const std::vector<ValueId>& ids) { return std::find(ids.begin(), ids.end(), v) != ids.end(); };
    const bool isOutput = listed(outputs);
    if (v >= values.size() || (!isOutput && !listed(inputs)))
        return invalidArgument("setLayout: value " + std::to_string(v) + " is not a graph input or output");
    GraphValue& value = values[v];
    bool same = desc.dataType == value.desc.dataType && desc.rank == value.desc.rank;
    for (uint32_t i = 0; same && i < desc.rank && i < kMaxTensorRank; ++i) same = desc.sizes[i] == value.desc.sizes[i];
    if (!same) return invalidArgument("setLayout: '" + value.name + "' keeps its data type and sizes; only the strides change");
    MLP_TRY(validateTensor(desc, "setLayout: '" + value.name + "'", isOutput));
    value.desc = desc;
    for (GraphNode& node : nodes) {
        std::vector<TensorDesc> ins;
        for (const TensorDesc* t : operatorInputs(node.op)) ins.push_back(t ? *t : TensorDesc{});
        bool reads = false;
        for (size_t k = 0; k < node.inputs.size() && k < ins.size(); ++k)
            if (node.inputs[k] == v) ins[k] = desc, reads = true;
        if (reads) {
            std::vector<const TensorDesc*> ptrs;
            for (const TensorDesc& t : ins) ptrs.push_back(t.rank ? &t : nullptr);
            detail::setOperatorInputs(node.op, ptrs);
        }
        std::vector<TensorDesc*> outs = detail::mutableOperatorOutputs(node.op);
        for (size_t k = 0; k < outs.size() && k < node.outputs.size(); ++k)
            if (node.outputs[k] == v) *outs[k] = desc;
    }
    return {};
}

}  // namespace mlplugin
