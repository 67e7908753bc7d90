#include "mlplugin/operator_desc.h"

#include <type_traits>

namespace mlplugin {
namespace {

template <class T> constexpr const char* kindOf();
template <> constexpr const char* kindOf<ElementWiseDesc>() { return "element_wise"; }
template <> constexpr const char* kindOf<ConvolutionDesc>() { return "convolution"; }
template <> constexpr const char* kindOf<GemmDesc>() { return "gemm"; }
template <> constexpr const char* kindOf<PoolingDesc>() { return "pooling"; }
template <> constexpr const char* kindOf<ResampleDesc>() { return "resample"; }
template <> constexpr const char* kindOf<DepthToSpaceDesc>() { return "depth_to_space"; }
template <> constexpr const char* kindOf<SpaceToDepthDesc>() { return "space_to_depth"; }
template <> constexpr const char* kindOf<ConcatDesc>() { return "concat"; }
template <> constexpr const char* kindOf<SplitDesc>() { return "split"; }
template <> constexpr const char* kindOf<SliceDesc>() { return "slice"; }
template <> constexpr const char* kindOf<PadDesc>() { return "pad"; }
template <> constexpr const char* kindOf<TransposeDesc>() { return "transpose"; }
template <> constexpr const char* kindOf<BatchNormalizationDesc>() { return "batch_normalization"; }
template <> constexpr const char* kindOf<InstanceNormalizationDesc>() { return "instance_normalization"; }
template <> constexpr const char* kindOf<MeanVarianceNormalizationDesc>() { return "mean_variance_normalization"; }
template <> constexpr const char* kindOf<ReduceDesc>() { return "reduce"; }
template <> constexpr const char* kindOf<SoftmaxDesc>() { return "softmax"; }
template <> constexpr const char* kindOf<GridSampleDesc>() { return "grid_sample"; }

const TensorDesc* opt(const std::optional<TensorDesc>& t) { return t ? &*t : nullptr; }

}  // namespace

const char* operatorKind(const OperatorDesc& desc) {
    return std::visit([](const auto& d) { return kindOf<std::decay_t<decltype(d)>>(); }, desc);
}

std::string operatorLabel(const OperatorDesc& desc) {
    return std::visit([](const auto& d) {
        std::string kind = kindOf<std::decay_t<decltype(d)>>();
        return d.name.empty() ? kind : kind + " '" + d.name + "'";
    }, desc);
}

std::vector<const TensorDesc*> operatorInputs(const OperatorDesc& desc) {
    return std::visit([](const auto& d) -> std::vector<const TensorDesc*> {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, ElementWiseDesc>) return {&d.a, opt(d.b)};
        else if constexpr (std::is_same_v<T, ConvolutionDesc>) return {&d.input, &d.filter, opt(d.bias)};
        else if constexpr (std::is_same_v<T, GemmDesc>) return {&d.a, &d.b, opt(d.c)};
        else if constexpr (std::is_same_v<T, GridSampleDesc>) return {&d.input, &d.grid};
        else if constexpr (std::is_same_v<T, ConcatDesc>) {
            std::vector<const TensorDesc*> v;
            for (const auto& t : d.inputs) v.push_back(&t);
            return v;
        }
        else if constexpr (std::is_same_v<T, BatchNormalizationDesc>) return {&d.input, &d.mean, &d.variance, &d.scale, &d.bias};
        else if constexpr (std::is_same_v<T, InstanceNormalizationDesc> || std::is_same_v<T, MeanVarianceNormalizationDesc>)
            return {&d.input, opt(d.scale), opt(d.bias)};
        else return {&d.input};
    }, desc);
}

std::vector<const TensorDesc*> operatorOutputs(const OperatorDesc& desc) {
    return std::visit([](const auto& d) -> std::vector<const TensorDesc*> {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, SplitDesc>) {
            std::vector<const TensorDesc*> v;
            for (const auto& t : d.outputs) v.push_back(&t);
            return v;
        } else {
            return {&d.output};
        }
    }, desc);
}

const char* toString(ActivationType type) {
    switch (type) {
    case ActivationType::None: return "none";
    case ActivationType::Linear: return "linear";
    case ActivationType::Relu: return "relu";
    case ActivationType::LeakyRelu: return "leaky_relu";
    case ActivationType::Elu: return "elu";
    case ActivationType::Selu: return "selu";
    case ActivationType::Sigmoid: return "sigmoid";
    case ActivationType::HardSigmoid: return "hard_sigmoid";
    case ActivationType::Tanh: return "tanh";
    case ActivationType::Softplus: return "softplus";
    case ActivationType::Gelu: return "gelu";
    case ActivationType::Silu: return "silu";
    case ActivationType::HardSwish: return "hard_swish";
    case ActivationType::GeluTanh: return "gelu_tanh";
    }
    return "unknown";
}

}  // namespace mlplugin
