#pragma once
/// \file
/// A CPU reference for every operator, accumulating in double. For validating results in tests
/// and in applications. Tensors are host arrays laid out as their TensorDesc says (strides
/// included); fp16 tensors are given as their values in double.
#include "mlplugin/export.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/result.h"

#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// A tensor in host memory, values in double.
struct HostTensor {
    TensorDesc desc;  ///< sizes and layout of `data`
    std::vector<double> data;  ///< at least desc's required element span
};

/// Evaluates `desc`. `inputs` follow operatorInputs(desc) order (absent optional tensors as an
/// empty HostTensor); returns the outputs in operatorOutputs(desc) order, laid out per their descs.
Result<std::vector<HostTensor>> referenceEvaluate(const OperatorDesc& desc, const std::vector<HostTensor>& inputs);

/// Rounds to the nearest fp16 value (round-to-nearest-even, with overflow to infinity).
double roundToHalf(double v);

}  // namespace mlplugin
MLPLUGIN_API_END
