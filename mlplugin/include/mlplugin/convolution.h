#pragma once
/// \file
/// 2-D convolution and transposed convolution, NCHW sizes (any strides), with fused bias and
/// activation. Filter: [outC, inC/groups, kH, kW]; transposed: [inC, outC/groups, kH, kW] (ONNX).
#include "mlplugin/activation.h"
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <array>
#include <optional>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// A 2-D convolution or transposed convolution (DML_CONVOLUTION_OPERATOR_DESC).
struct ConvolutionDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;                  ///< [N, C, H, W]
    TensorDesc filter;                 ///< usually TensorFlagOwnedByPlugin
    std::optional<TensorDesc> bias;    ///< [outC] (or [1, outC, 1, 1])
    TensorDesc output;                 ///< [N, outC, outH, outW]
    bool transposed = false;  ///< true: transposed convolution (ONNX ConvTranspose)
    std::array<uint32_t, 2> strides{1, 1};  ///< height, width
    std::array<uint32_t, 2> dilations{1, 1};  ///< height, width
    std::array<uint32_t, 2> padBegin{0, 0};       ///< top, left
    std::array<uint32_t, 2> padEnd{0, 0};         ///< bottom, right
    std::array<uint32_t, 2> outputPadding{0, 0};  ///< transposed only
    uint32_t groups = 1;  ///< input and output channels are split into this many groups
    Activation activation;  ///< fused, applied after the bias
};

/// The output size a ConvolutionDesc implies for spatial dim d (0 = H, 1 = W); 0 if invalid.
uint32_t convolutionOutputSize(const ConvolutionDesc& desc, int d);

}  // namespace mlplugin
MLPLUGIN_API_END
