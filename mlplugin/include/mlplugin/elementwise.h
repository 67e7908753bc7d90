#pragma once
/// \file
/// Element-wise operators: y = activation(op(scale * a + bias, scale * b + bias)).
/// Inputs broadcast against the output numpy-style (sizes right-aligned; an input size of 1,
/// or a stride of 0, repeats it). Also the precision/layout converter (Identity with different
/// data types or strides on input and output).
#include "mlplugin/activation.h"
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <optional>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// The element-wise function of an ElementWiseDesc.
enum class ElementWiseOp : uint32_t {
    // unary
    Identity,    ///< y = a (converts data type and layout when input and output descs differ)
    Sqrt,        ///< y = sqrt(a)
    Reciprocal,  ///< y = 1 / a
    Exp,         ///< y = exp(a)
    Log,         ///< y = log(a)
    Abs,         ///< y = |a|
    Negate,      ///< y = -a
    Clip,        ///< y = clamp(a, clipMin, clipMax)
    Activation,  ///< y = activation(a)
    // binary (b required)
    Add,         ///< y = a + b
    Subtract,    ///< y = a - b
    Multiply,    ///< y = a * b
    Divide,      ///< y = a / b
    Min,         ///< y = min(a, b)
    Max,         ///< y = max(a, b)
    Pow,         ///< y = pow(a, b)
    PRelu,  ///< y = a >= 0 ? a : b * a   (b is the slope, broadcast)
};

/// True for operators that read `b`.
bool isBinary(ElementWiseOp op);
/// "add", "sqrt", ... (for messages).
const char* toString(ElementWiseOp op);

/// x * scale + bias.
struct ScaleBias {
    float scale = 1.0f;  ///< multiplier
    float bias = 0.0f;  ///< added after scaling
};

/// An element-wise operator (DML_ELEMENT_WISE_*_OPERATOR_DESC).
struct ElementWiseDesc {
    std::string name;  ///< for messages and reports
    ElementWiseOp op = ElementWiseOp::Identity;  ///< the function
    TensorDesc a;  ///< first input, broadcast to `output`
    std::optional<TensorDesc> b;  ///< second input of binary operators, broadcast to `output`
    TensorDesc output;  ///< the result
    std::optional<ScaleBias> inputScaleBias;  ///< applied to each input before `op` (DML semantics)
    float clipMin = 0.0f;                      ///< ElementWiseOp::Clip: lower bound
    float clipMax = 0.0f;                      ///< ElementWiseOp::Clip: upper bound
    Activation activation;                     ///< applied after `op`; the operator for ElementWiseOp::Activation
};

}  // namespace mlplugin
MLPLUGIN_API_END
