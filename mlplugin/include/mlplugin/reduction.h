#pragma once
/// \file
/// Reductions over the dims in axesMask (output keeps rank, reduced dims have size 1), and
/// softmax / log-softmax along the dims in axesMask.
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// ArgMax/ArgMin write the index (within the reduced dims, row-major) as a float: exact below 2^24.
/// Prod multiplies in fp32 (it overflows to infinity where fp32 does).
enum class ReduceOp : uint32_t { Sum, Mean, Max, Min, L2, SumSquare, ArgMax, ArgMin, Prod };

/// A reduction (DML_REDUCE_OPERATOR_DESC).
struct ReduceDesc {
    std::string name;  ///< for messages and reports
    ReduceOp op = ReduceOp::Sum;  ///< the reduction
    TensorDesc input;  ///< any rank
    TensorDesc output;  ///< input sizes with the reduced dims set to 1
    uint32_t axesMask = 0;  ///< bit i set: reduce over dim i
};

/// Softmax or log-softmax over the dims in axesMask.
struct SoftmaxDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;  ///< any rank
    TensorDesc output;  ///< same sizes as input
    uint32_t axesMask = 0;  ///< bit i set: normalize over dim i
    bool logSoftmax = false;  ///< true: log of the softmax
};

}  // namespace mlplugin
MLPLUGIN_API_END
