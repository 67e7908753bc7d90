// Binding-slot names for messages ("input 1 'filter'"). The field order mirrors
// operatorInputs/operatorOutputs; when a desc's count ever disagrees, plain indices are used.
#include "compiled_operator.h"

#include <string>
#include <vector>

namespace mlplugin::detail {
namespace {

using Names = std::vector<std::string>;

Names fieldNames(const ElementWiseDesc&) { return {"a", "b"}; }
Names fieldNames(const ConvolutionDesc&) { return {"input", "filter", "bias"}; }
Names fieldNames(const GemmDesc&) { return {"a", "b", "c"}; }
Names fieldNames(const BatchNormalizationDesc&) { return {"input", "mean", "variance", "scale", "bias"}; }
Names fieldNames(const InstanceNormalizationDesc&) { return {"input", "scale", "bias"}; }
Names fieldNames(const MeanVarianceNormalizationDesc&) { return {"input", "scale", "bias"}; }
Names fieldNames(const GridSampleDesc&) { return {"input", "grid"}; }
Names fieldNames(const ConcatDesc& d) { return Names(d.inputs.size(), "inputs"); }
template <class D>
Names fieldNames(const D&) { return {"input"}; }

Names outputFieldNames(const SplitDesc& d) { return Names(d.outputs.size(), "outputs"); }
template <class D>
Names outputFieldNames(const D&) { return {"output"}; }

Names label(const char* kind, const Names& fields, size_t count) {
    Names out;
    for (size_t i = 0; i < count; ++i) {
        std::string s = std::string(kind) + " " + std::to_string(i);
        if (fields.size() == count) s += " '" + fields[i] + "'";
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

std::vector<std::string> inputSlotNames(const OperatorDesc& desc) {
    Names fields = std::visit([](const auto& d) { return fieldNames(d); }, desc);
    return label("input", fields, operatorInputs(desc).size());
}

std::vector<std::string> outputSlotNames(const OperatorDesc& desc) {
    Names fields = std::visit([](const auto& d) { return outputFieldNames(d); }, desc);
    return label("output", fields, operatorOutputs(desc).size());
}

}  // namespace mlplugin::detail
