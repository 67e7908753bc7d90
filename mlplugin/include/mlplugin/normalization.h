#pragma once
// Normalization: batch (inference, running statistics), instance, and mean-variance (layer
// norm: normalize over the dims in axesMask). Optional fused activation.
#include "mlplugin/activation.h"
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <optional>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

struct BatchNormalizationDesc {
    std::string name;
    TensorDesc input;      // [N, C, ...]
    TensorDesc mean;       // [C]
    TensorDesc variance;   // [C]
    TensorDesc scale;      // [C]
    TensorDesc bias;       // [C]
    TensorDesc output;
    float epsilon = 1e-5f;
    Activation activation;
};

struct InstanceNormalizationDesc {
    std::string name;
    TensorDesc input;                // [N, C, H, W]
    std::optional<TensorDesc> scale; // [C]
    std::optional<TensorDesc> bias;  // [C]
    TensorDesc output;
    float epsilon = 1e-5f;
    Activation activation;
};

struct MeanVarianceNormalizationDesc {
    std::string name;
    TensorDesc input;
    std::optional<TensorDesc> scale;  // broadcastable to input
    std::optional<TensorDesc> bias;   // broadcastable to input
    TensorDesc output;
    uint32_t axesMask = 0;            // bit i set: normalize over dim i
    bool normalizeVariance = true;
    float epsilon = 1e-5f;
    Activation activation;
};

}  // namespace mlplugin
MLPLUGIN_API_END
