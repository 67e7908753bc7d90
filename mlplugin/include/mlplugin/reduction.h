#pragma once
// Reductions over the dims in axesMask (output keeps rank, reduced dims have size 1), and
// softmax / log-softmax along the dims in axesMask.
#include "mlplugin/tensor_desc.h"

#include <string>

namespace mlplugin {

// ArgMax/ArgMin write the index (within the reduced dims, row-major) as a float: exact below 2^24.
// Prod multiplies in fp32 (it overflows to infinity where fp32 does).
enum class ReduceOp : uint32_t { Sum, Mean, Max, Min, L2, SumSquare, ArgMax, ArgMin, Prod };

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
