#pragma once
// 2-D pooling over NCHW: max, average, Lp; global pooling when `global` (window = H x W).
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <array>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

enum class PoolingType : uint32_t { Max, Average, Lp };

struct PoolingDesc {
    std::string name;
    PoolingType type = PoolingType::Max;
    TensorDesc input;   // [N, C, H, W]
    TensorDesc output;  // [N, C, outH, outW]
    bool global = false;
    std::array<uint32_t, 2> window{2, 2};
    std::array<uint32_t, 2> strides{1, 1};
    std::array<uint32_t, 2> dilations{1, 1};
    std::array<uint32_t, 2> padBegin{0, 0};
    std::array<uint32_t, 2> padEnd{0, 0};
    bool countIncludePad = false;  // Average only
    uint32_t p = 2;                // Lp only
};

}  // namespace mlplugin
MLPLUGIN_API_END
