#pragma once
/// \file
/// GEMM: output = activation(alpha * op(A) x op(B) + beta * C). Tensors are 2-D [M, K] or carry
/// up to 2 leading batch dims ([B0, B1, M, K]); batch dims broadcast. C broadcasts to [M, N].
#include "mlplugin/activation.h"
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <optional>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// A matrix multiplication (DML_GEMM_OPERATOR_DESC).
struct GemmDesc {
    std::string name;  ///< for messages and reports
    TensorDesc a;  ///< [.., M, K] ([.., K, M] when transposeA)
    TensorDesc b;  ///< [.., K, N] ([.., N, K] when transposeB)
    std::optional<TensorDesc> c;  ///< added, scaled by beta; broadcast to [M, N]
    TensorDesc output;  ///< [.., M, N]
    bool transposeA = false;  ///< op(A) = A transposed
    bool transposeB = false;  ///< op(B) = B transposed
    float alpha = 1.0f;  ///< scales op(A) x op(B)
    float beta = 1.0f;  ///< scales C
    Activation activation;  ///< fused, applied last
};

}  // namespace mlplugin
MLPLUGIN_API_END
