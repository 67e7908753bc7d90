#pragma once
/// \file
/// Activation functions, usable on their own (ElementWiseOp::Activation) and fused into the
/// output of convolution, GEMM, element-wise and normalization operators.
#include "mlplugin/export.h"

#include <cstdint>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// Activation functions (DML_OPERATOR_ACTIVATION_*); parameters in Activation::alpha / beta.
enum class ActivationType : uint32_t {
    None = 0,     ///< y = x
    Linear,       ///< y = alpha * x + beta
    Relu,         ///< y = max(x, 0)
    LeakyRelu,    ///< y = x >= 0 ? x : alpha * x
    Elu,          ///< y = x >= 0 ? x : alpha * (exp(x) - 1)
    Selu,         ///< y = gamma * (x > 0 ? x : alpha * (exp(x) - 1)); alpha, gamma = beta
    Sigmoid,      ///< y = 1 / (1 + exp(-x))
    HardSigmoid,  ///< y = clamp(alpha * x + beta, 0, 1)
    Tanh,  ///< y = tanh(x)
    Softplus,     ///< y = log(1 + exp(alpha * x)) / alpha   (alpha = steepness, default 1)
    Gelu,         ///< y = 0.5 x (1 + erf(x / sqrt(2)))
    Silu,         ///< y = x * sigmoid(x)  (swish)
    HardSwish,    ///< y = x * clamp(x / 6 + 0.5, 0, 1)
    GeluTanh,     ///< y = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))  (ONNX Gelu approximate="tanh")
};

/// An activation and its parameters (meaning per ActivationType).
struct Activation {
    ActivationType type = ActivationType::None;  ///< None: no activation
    float alpha = 0.0f;  ///< first parameter (see ActivationType)
    float beta = 0.0f;  ///< second parameter (see ActivationType)
};

/// \name Activation factories
/// Activations with ONNX/DirectML default parameters, for the fused `activation` fields and
/// ElementWiseOp::Activation.
//@{
inline Activation relu() { return {ActivationType::Relu}; }
inline Activation leakyRelu(float alpha = 0.01f) { return {ActivationType::LeakyRelu, alpha}; }
inline Activation elu(float alpha = 1.0f) { return {ActivationType::Elu, alpha}; }
inline Activation selu(float alpha = 1.67326319217681884765625f, float gamma = 1.05070102214813232421875f) { return {ActivationType::Selu, alpha, gamma}; }
inline Activation sigmoid() { return {ActivationType::Sigmoid}; }
inline Activation hardSigmoid(float alpha = 0.2f, float beta = 0.5f) { return {ActivationType::HardSigmoid, alpha, beta}; }
inline Activation tanhActivation() { return {ActivationType::Tanh}; }
inline Activation softplus(float steepness = 1.0f) { return {ActivationType::Softplus, steepness}; }
inline Activation gelu() { return {ActivationType::Gelu}; }
inline Activation silu() { return {ActivationType::Silu}; }
inline Activation hardSwish() { return {ActivationType::HardSwish}; }
inline Activation geluTanh() { return {ActivationType::GeluTanh}; }
inline Activation linear(float alpha, float beta) { return {ActivationType::Linear, alpha, beta}; }
//@}

/// "relu", "gelu", ... (for messages).
const char* toString(ActivationType type);

}  // namespace mlplugin
MLPLUGIN_API_END
