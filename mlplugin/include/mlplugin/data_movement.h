#pragma once
// Operators that move elements without arithmetic: depth<->space, concat, split, slice, pad,
// transpose. (Identity with strides also moves data; see elementwise.h.)
#include "mlplugin/tensor_desc.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace mlplugin {

static_assert(kMaxTensorRank == 8, "the default steps and permutation below list kMaxTensorRank entries");

enum class DepthSpaceOrder : uint32_t { DCR, CRD };  // ONNX DepthToSpace modes

struct DepthToSpaceDesc {
    std::string name;
    TensorDesc input;   // [N, C * b * b, H, W]
    TensorDesc output;  // [N, C, H * b, W * b]
    uint32_t blockSize = 2;
    DepthSpaceOrder order = DepthSpaceOrder::DCR;
};

struct SpaceToDepthDesc {
    std::string name;
    TensorDesc input;   // [N, C, H * b, W * b]
    TensorDesc output;  // [N, C * b * b, H, W]
    uint32_t blockSize = 2;
    DepthSpaceOrder order = DepthSpaceOrder::DCR;
};

struct ConcatDesc {
    std::string name;
    std::vector<TensorDesc> inputs;
    TensorDesc output;
    uint32_t axis = 1;
};

struct SplitDesc {
    std::string name;
    TensorDesc input;
    std::vector<TensorDesc> outputs;
    uint32_t axis = 1;
};

// output[i] = input[offsets + i * steps] per dim; negative steps walk backwards.
struct SliceDesc {
    std::string name;
    TensorDesc input;
    TensorDesc output;
    std::array<uint32_t, kMaxTensorRank> offsets{};
    std::array<int32_t, kMaxTensorRank> steps{1, 1, 1, 1, 1, 1, 1, 1};
};

// Reflect mirrors about the border element (pads < input size); Wrap repeats the input
// periodically (any pad size; ONNX Pad mode "wrap").
enum class PadMode : uint32_t { Constant, Edge, Reflect, Wrap };

struct PadDesc {
    std::string name;
    TensorDesc input;
    TensorDesc output;  // sizes = input + padBegin + padEnd
    std::array<uint32_t, kMaxTensorRank> padBegin{};
    std::array<uint32_t, kMaxTensorRank> padEnd{};
    PadMode mode = PadMode::Constant;
    float value = 0.0f;
};

// output dim i = input dim permutation[i] (ONNX Transpose perm).
struct TransposeDesc {
    std::string name;
    TensorDesc input;
    TensorDesc output;
    std::array<uint32_t, kMaxTensorRank> permutation{0, 1, 2, 3, 4, 5, 6, 7};
};

}  // namespace mlplugin
