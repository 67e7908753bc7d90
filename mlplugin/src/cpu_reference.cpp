#include "mlplugin/cpu_reference.h"

#include "kernel.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace mlplugin {

Result<std::vector<HostTensor>> referenceEvaluate(const OperatorDesc& desc, const std::vector<HostTensor>& inputs) {
    auto expected = operatorInputs(desc);
    if (inputs.size() != expected.size())
        return invalidArgument(operatorLabel(desc) + ": reference given " + std::to_string(inputs.size()) + " inputs, expected " +
                               std::to_string(expected.size()));
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!expected[i]) continue;
        // Elements, not requiredBytes(): its rounding to 4 bytes would ask 2 values of a fp16 scalar.
        uint64_t need = expected[i]->addressedElements();
        if (inputs[i].data.size() < need)
            return invalidArgument(operatorLabel(desc) + ": reference input " + std::to_string(i) + " holds " +
                                   std::to_string(inputs[i].data.size()) + " values, its desc addresses " + std::to_string(need));
    }
    using namespace detail;
    return std::visit([&](const auto& d) -> Result<std::vector<HostTensor>> {
        using T = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<T, ElementWiseDesc>) return referenceElementWise(d, inputs);
        else if constexpr (std::is_same_v<T, ConvolutionDesc>) return referenceConvolution(d, inputs);
        else if constexpr (std::is_same_v<T, GemmDesc>) return referenceGemm(d, inputs);
        else if constexpr (std::is_same_v<T, PoolingDesc>) return referencePooling(d, inputs);
        else if constexpr (std::is_same_v<T, ResampleDesc>) return referenceResample(d, inputs);
        else if constexpr (std::is_same_v<T, GridSampleDesc>) return referenceGridSample(d, inputs);
        else if constexpr (std::is_same_v<T, DepthToSpaceDesc>) return referenceDepthToSpace(d, inputs);
        else if constexpr (std::is_same_v<T, SpaceToDepthDesc>) return referenceSpaceToDepth(d, inputs);
        else if constexpr (std::is_same_v<T, ConcatDesc>) return referenceConcat(d, inputs);
        else if constexpr (std::is_same_v<T, SplitDesc>) return referenceSplit(d, inputs);
        else if constexpr (std::is_same_v<T, SliceDesc>) return referenceSlice(d, inputs);
        else if constexpr (std::is_same_v<T, PadDesc>) return referencePad(d, inputs);
        else if constexpr (std::is_same_v<T, TransposeDesc>) return referenceTranspose(d, inputs);
        else if constexpr (std::is_same_v<T, BatchNormalizationDesc>) return referenceBatchNormalization(d, inputs);
        else if constexpr (std::is_same_v<T, InstanceNormalizationDesc>) return referenceInstanceNormalization(d, inputs);
        else if constexpr (std::is_same_v<T, MeanVarianceNormalizationDesc>) return referenceMeanVarianceNormalization(d, inputs);
        else if constexpr (std::is_same_v<T, ReduceDesc>) return referenceReduce(d, inputs);
        else if constexpr (std::is_same_v<T, SoftmaxDesc>) return referenceSoftmax(d, inputs);
    }, desc);
}

double roundToHalf(double v) {
    if (std::isnan(v)) return v;
    double a = std::fabs(v);
    if (a >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), v);  // rounds past the max half (65504)
    if (a < std::ldexp(1.0, -24) * 0.5) return std::copysign(0.0, v);
    // Spacing of halves near |v|: 2^(e-10) for normals (e >= -14), 2^-24 for subnormals.
    int e;
    std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    int exponent = std::max(e - 1, -14);
    double ulp = std::ldexp(1.0, exponent - 10);
    double q = a / ulp;
    double r = std::nearbyint(q);  // default rounding mode: to nearest, ties to even
    return std::copysign(r * ulp, v);
}

}  // namespace mlplugin
