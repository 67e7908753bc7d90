#pragma once
// Reductions over the dims in axesMask (output keeps rank, reduced dims have size 1), and
// softmax / log-softmax along the dims in axesMask.
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

// ArgMax/ArgMin write the index (within the reduced dims, row-major) as a float: exact below 2^24.
enum class ReduceOp : uint32_t { Sum, Mean, Max, Min, L2, SumSquare, ArgMax, ArgMin };

struct ReduceDesc {
    std::string name;
    ReduceOp op = ReduceOp::Sum;
    TensorDesc input;
    TensorDesc output;
    uint32_t axesMask = 0;
};

struct SoftmaxDesc {
    std::string name;
    TensorDesc input;
    TensorDesc output;  // same sizes as input
    uint32_t axesMask = 0;
    bool logSoftmax = false;
};

}  // namespace mlplugin
MLPLUGIN_API_END
