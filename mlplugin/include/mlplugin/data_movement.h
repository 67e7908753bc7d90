#pragma once
/// \file
/// Operators that move elements without arithmetic: depth<->space, concat, split, slice, pad,
/// transpose. (Identity with strides also moves data; see elementwise.h.)
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

static_assert(kMaxTensorRank == 8, "the default steps and permutation below list kMaxTensorRank entries");

/// How channels map to the spatial block (ONNX DepthToSpace `mode`).
enum class DepthSpaceOrder : uint32_t {
    DCR,  ///< depth-column-row: channel = (by * b + bx) * C + c (ONNX default)
    CRD,  ///< column-row-depth: channel = c * b * b + by * b + bx (PixelShuffle)
};

/// Moves channel blocks into b x b spatial blocks (ONNX DepthToSpace).
struct DepthToSpaceDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;   ///< [N, C * b * b, H, W]
    TensorDesc output;  ///< [N, C, H * b, W * b]
    uint32_t blockSize = 2;  ///< b
    DepthSpaceOrder order = DepthSpaceOrder::DCR;  ///< channel order within a block
};

/// The inverse of DepthToSpaceDesc (ONNX SpaceToDepth).
struct SpaceToDepthDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;   ///< [N, C, H * b, W * b]
    TensorDesc output;  ///< [N, C * b * b, H, W]
    uint32_t blockSize = 2;  ///< b
    DepthSpaceOrder order = DepthSpaceOrder::DCR;  ///< channel order within a block
};

/// Joins tensors along one axis (ONNX Concat).
struct ConcatDesc {
    std::string name;  ///< for messages and reports
    std::vector<TensorDesc> inputs;  ///< same sizes except along `axis`
    TensorDesc output;  ///< sizes of the inputs, `axis` the sum of theirs
    uint32_t axis = 1;  ///< dimension joined along
};

/// Cuts a tensor into consecutive pieces along one axis (ONNX Split).
struct SplitDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;  ///< the tensor to split
    std::vector<TensorDesc> outputs;  ///< the pieces in order; their sizes along `axis` sum to the input's
    uint32_t axis = 1;  ///< dimension split along
};

/// output[i] = input[offsets + i * steps] per dim; negative steps walk backwards.
struct SliceDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;   ///< the sliced tensor
    TensorDesc output;  ///< its sizes are the number of elements taken per dim
    std::array<uint32_t, kMaxTensorRank> offsets{};  ///< first element taken, per dim
    std::array<int32_t, kMaxTensorRank> steps{1, 1, 1, 1, 1, 1, 1, 1};  ///< step per dim (non-zero)
};

/// What the padding is filled with (ONNX Pad `mode`).
enum class PadMode : uint32_t {
    Constant,  ///< PadDesc::value
    Edge,      ///< the nearest edge element
    Reflect,   ///< mirrored at the edge, the edge element not repeated (pads < input size)
    Wrap,      ///< the input repeated periodically, any pad size (ONNX Pad mode "wrap")
};

/// Pads a tensor at the start and end of each dim (ONNX Pad).
struct PadDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;   ///< the tensor to pad
    TensorDesc output;  ///< sizes = input + padBegin + padEnd
    std::array<uint32_t, kMaxTensorRank> padBegin{};  ///< elements added before, per dim
    std::array<uint32_t, kMaxTensorRank> padEnd{};  ///< elements added after, per dim
    PadMode mode = PadMode::Constant;  ///< what the padding holds
    float value = 0.0f;  ///< PadMode::Constant: the padding value
};

/// output dim i = input dim permutation[i] (ONNX Transpose perm).
struct TransposeDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;   ///< the tensor to permute
    TensorDesc output;  ///< sizes permuted
    std::array<uint32_t, kMaxTensorRank> permutation{0, 1, 2, 3, 4, 5, 6, 7};  ///< the first `rank` entries are used
};

}  // namespace mlplugin
MLPLUGIN_API_END
