#pragma once
/// \file
/// 2-D pooling over NCHW: max, average, Lp; global pooling when `global` (window = H x W).
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <array>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// The pooling function.
enum class PoolingType : uint32_t { Max, Average, Lp };

/// A 2-D pooling operator (DML_*_POOLING_OPERATOR_DESC).
struct PoolingDesc {
    std::string name;  ///< for messages and reports
    PoolingType type = PoolingType::Max;  ///< max, average or Lp
    TensorDesc input;   ///< [N, C, H, W]
    TensorDesc output;  ///< [N, C, outH, outW]
    bool global = false;  ///< window = the whole plane; window, strides, pads ignored
    std::array<uint32_t, 2> window{2, 2};  ///< height, width
    std::array<uint32_t, 2> strides{1, 1};  ///< height, width
    std::array<uint32_t, 2> dilations{1, 1};  ///< height, width
    std::array<uint32_t, 2> padBegin{0, 0};  ///< top, left
    std::array<uint32_t, 2> padEnd{0, 0};  ///< bottom, right
    bool countIncludePad = false;  ///< Average only
    uint32_t p = 2;                ///< Lp only
};

}  // namespace mlplugin
MLPLUGIN_API_END
