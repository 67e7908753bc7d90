#pragma once
/// \file
/// Normalization: batch (inference, running statistics), instance, and mean-variance (layer
/// norm: normalize over the dims in axesMask). Optional fused activation.
#include "mlplugin/activation.h"
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <optional>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// y = activation(scale * (x - mean) / sqrt(variance + epsilon) + bias), per channel.
struct BatchNormalizationDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;      ///< [N, C, ...]
    TensorDesc mean;       ///< [C]
    TensorDesc variance;   ///< [C]
    TensorDesc scale;      ///< [C]
    TensorDesc bias;       ///< [C]
    TensorDesc output;  ///< same sizes as input
    float epsilon = 1e-5f;  ///< added to the variance
    Activation activation;  ///< fused, applied last
};

/// Normalizes each (n, c) plane by its own mean and variance, then scale and bias per channel.
struct InstanceNormalizationDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;                ///< [N, C, H, W]
    std::optional<TensorDesc> scale; ///< [C]
    std::optional<TensorDesc> bias;  ///< [C]
    TensorDesc output;  ///< same sizes as input
    float epsilon = 1e-5f;  ///< added to the variance
    Activation activation;  ///< fused, applied last
};

/// Normalizes over the dims in axesMask (layer norm), then scale and bias.
struct MeanVarianceNormalizationDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;  ///< any rank
    std::optional<TensorDesc> scale;  ///< broadcastable to input
    std::optional<TensorDesc> bias;   ///< broadcastable to input
    TensorDesc output;  ///< same sizes as input
    uint32_t axesMask = 0;            ///< bit i set: normalize over dim i
    bool normalizeVariance = true;  ///< false: subtract the mean only
    float epsilon = 1e-5f;  ///< added to the variance
    Activation activation;  ///< fused, applied last
};

}  // namespace mlplugin
MLPLUGIN_API_END
