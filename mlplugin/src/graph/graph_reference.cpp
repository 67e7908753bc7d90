#include "graph/graph_plan.h"

namespace mlplugin {

Result<std::vector<HostTensor>> referenceEvaluateGraph(const GraphDesc& desc, const std::vector<HostTensor>& inputs) {
    auto plan = detail::planGraph(desc, {.fuse = false, .alias = false});
    if (!plan) return plan.error();
    if (inputs.size() != desc.inputs.size())
        return invalidArgument("graph reference given " + std::to_string(inputs.size()) + " inputs, the graph has " + std::to_string(desc.inputs.size()));
    std::vector<HostTensor> values(plan->values.size());
    for (size_t i = 0; i < inputs.size(); ++i) values[desc.inputs[i]] = inputs[i];
    for (size_t v = 0; v < plan->values.size(); ++v) {
        const GraphValue& g = plan->values[v];
        if (g.kind != GraphValue::Kind::Constant) continue;
        TensorDesc d = g.desc;
        d.hasStrides = false;
        values[v] = {d, std::vector<double>(g.constantData.begin(), g.constantData.end())};
    }
    for (const auto& pn : plan->nodes) {
        std::vector<HostTensor> in;
        for (ValueId v : pn.node.inputs) in.push_back(v == kNoValue ? HostTensor{} : values[v]);
        in.resize(operatorInputs(pn.node.op).size());  // absent trailing optional inputs
        auto out = referenceEvaluate(pn.node.op, in);
        if (!out) return Error{out.error().code, pn.label + ": " + out.error().message};
        for (size_t o = 0; o < pn.node.outputs.size(); ++o) values[pn.node.outputs[o]] = std::move((*out)[o]);
    }
    std::vector<HostTensor> result;
    for (ValueId v : desc.outputs) result.push_back(values[v]);
    return result;
}

}  // namespace mlplugin
