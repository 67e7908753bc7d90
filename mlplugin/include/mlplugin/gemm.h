#pragma once
// GEMM: output = activation(alpha * op(A) x op(B) + beta * C). Tensors are 2-D [M, K] or carry
// up to 2 leading batch dims ([B0, B1, M, K]); batch dims broadcast. C broadcasts to [M, N].
#include "mlplugin/activation.h"
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <optional>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

struct GemmDesc {
    std::string name;
    TensorDesc a;
    TensorDesc b;
    std::optional<TensorDesc> c;
    TensorDesc output;
    bool transposeA = false;
    bool transposeB = false;
    float alpha = 1.0f;
    float beta = 1.0f;
    Activation activation;
};

}  // namespace mlplugin
MLPLUGIN_API_END
