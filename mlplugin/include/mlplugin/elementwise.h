#pragma once
// Element-wise operators: y = activation(op(scale * a + bias, scale * b + bias)).
// Inputs broadcast against the output numpy-style (sizes right-aligned; an input size of 1,
// or a stride of 0, repeats it). Also the precision/layout converter (Identity with different
// data types or strides on input and output).
#include "mlplugin/activation.h"
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <optional>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

enum class ElementWiseOp : uint32_t {
    // unary
    Identity, Sqrt, Reciprocal, Exp, Log, Abs, Negate, Clip, Activation,
    // binary (b required)
    Add, Subtract, Multiply, Divide, Min, Max, Pow,
    PRelu,  // y = a >= 0 ? a : b * a   (b is the slope, broadcast)
};

bool isBinary(ElementWiseOp op);
const char* toString(ElementWiseOp op);

struct ScaleBias {
    float scale = 1.0f;
    float bias = 0.0f;
};

struct ElementWiseDesc {
    std::string name;
    ElementWiseOp op = ElementWiseOp::Identity;
    TensorDesc a;
    std::optional<TensorDesc> b;
    TensorDesc output;
    std::optional<ScaleBias> inputScaleBias;  // applied to each input before `op` (DML semantics)
    float clipMin = 0.0f, clipMax = 0.0f;     // ElementWiseOp::Clip
    Activation activation;                     // applied after `op`; the operator for ElementWiseOp::Activation
};

}  // namespace mlplugin
MLPLUGIN_API_END
