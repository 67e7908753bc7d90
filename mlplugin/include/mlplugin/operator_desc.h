#pragma once
/// \file
/// OperatorDesc: any operator the plugin compiles (DML_OPERATOR_DESC).
#include "mlplugin/convolution.h"
#include "mlplugin/data_movement.h"
#include "mlplugin/elementwise.h"
#include "mlplugin/export.h"
#include "mlplugin/gemm.h"
#include "mlplugin/grid_sample.h"
#include "mlplugin/normalization.h"
#include "mlplugin/pooling.h"
#include "mlplugin/reduction.h"
#include "mlplugin/resample.h"

#include <string>
#include <variant>
#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// Any operator description; Device::compileOperator takes one.
using OperatorDesc = std::variant<ElementWiseDesc, ConvolutionDesc, GemmDesc, PoolingDesc, ResampleDesc,
                                  DepthToSpaceDesc, SpaceToDepthDesc, ConcatDesc, SplitDesc, SliceDesc, PadDesc,
                                  TransposeDesc, BatchNormalizationDesc, InstanceNormalizationDesc,
                                  MeanVarianceNormalizationDesc, ReduceDesc, SoftmaxDesc, GridSampleDesc>;

/// "convolution", "element_wise", ... (for messages and the feature level).
const char* operatorKind(const OperatorDesc& desc);
/// The desc's `name`, or its kind when the name is empty.
std::string operatorLabel(const OperatorDesc& desc);

/// Input and output tensors in binding order: what bindInputs/bindOutputs expect. Optional
/// tensors that are absent still take a slot (nullptr here, bound empty), as in DirectML.
std::vector<const TensorDesc*> operatorInputs(const OperatorDesc& desc);
/// Output tensors in binding order.
std::vector<const TensorDesc*> operatorOutputs(const OperatorDesc& desc);

}  // namespace mlplugin
MLPLUGIN_API_END
