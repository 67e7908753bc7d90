#include "mlplugin/graph.h"

#include "graph/node_tensors.h"

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

}  // namespace mlplugin
