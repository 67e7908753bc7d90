#pragma once
/// \file
/// TensorDesc: how a tensor lies in a buffer (DML_BUFFER_TENSOR_DESC). Sizes are outermost
/// first (NCHW for 4-D). Strides are in elements; empty means packed row-major. Padding is a
/// larger stride, broadcasting a stride of 0, NHWC a permutation of strides.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// Element type of a tensor. The values are stable (stored in compiled state; int8 may follow).
enum class DataType : uint32_t {
    Float32 = 0,  ///< IEEE binary32
    Float16 = 1,  ///< IEEE binary16
};

/// Tensors have 1 to 8 dimensions (DirectML's DML_TENSOR_DIMENSION_COUNT_MAX1). Convolution,
/// pooling, resample, grid sample and depth/space work on 4-D tensors, GEMM on 2-D to 4-D; every
/// other operator takes any rank up to this.
inline constexpr uint32_t kMaxTensorRank = 8;
/// Bound buffer ranges start at a multiple of this many bytes (and of the device's
/// minStorageBufferOffsetAlignment, which is at most 256 on the devices we know).
inline constexpr uint64_t kTensorAlignment = 16;

/// TensorDesc::flags bits.
enum TensorFlags : uint32_t {
    TensorFlagNone = 0,  ///< no flag
    /// Weights: bound to the initializer, copied (re-laid out, converted) into the persistent
    /// resource, and not bound at execution (DML_TENSOR_FLAG_OWNED_BY_DML).
    TensorFlagOwnedByPlugin = 1u << 0,
};

/// Bytes per element: 4 or 2.
uint32_t byteSize(DataType type);
/// "fp32" or "fp16".
const char* toString(DataType type);

/// A tensor's element type, sizes and layout in a buffer (no data).
struct TensorDesc {
    DataType dataType = DataType::Float32;  ///< element type
    uint32_t rank = 0;  ///< number of dimensions, 1 to kMaxTensorRank
    std::array<uint32_t, kMaxTensorRank> sizes{};  ///< sizes, outermost first; entries past `rank` are unused
    std::array<uint32_t, kMaxTensorRank> strides{};  ///< meaningful only when hasStrides
    bool hasStrides = false;  ///< false: packed row-major, `strides` ignored
    uint32_t flags = TensorFlagNone;  ///< TensorFlags bits

    /// Packed row-major tensor: TensorDesc::make(DataType::Float16, {1, 3, 1080, 1920}).
    static TensorDesc make(DataType type, std::initializer_list<uint32_t> sizes, uint32_t flags = TensorFlagNone);
    /// Same sizes with explicit element strides.
    static TensorDesc strided(DataType type, std::initializer_list<uint32_t> sizes, std::initializer_list<uint32_t> strides,
                              uint32_t flags = TensorFlagNone);

    /// The same type and [N, C, H, W] sizes stored channels-last (NHWC strides): what the
    /// tensor-core convolutions read and write 8 channels per access. Rank 4 only (others are
    /// returned unchanged).
    TensorDesc channelsLast() const;

    uint64_t elementCount() const;          ///< product of sizes
    /// Strides actually used (packed ones when !hasStrides).
    std::array<uint32_t, kMaxTensorRank> effectiveStrides() const;
    /// Elements from the first to the last one the desc addresses: 1 + sum((size-1)*stride).
    uint64_t addressedElements() const;
    /// Bytes a buffer range must hold: addressedElements() * element size, rounded up to 4.
    uint64_t requiredBytes() const;
    /// True when the strides are the packed row-major ones (explicit or not).
    bool isPacked() const;
    /// True with TensorFlagOwnedByPlugin (weights).
    bool ownedByPlugin() const { return flags & TensorFlagOwnedByPlugin; }
    std::string toString() const;           ///< "fp16[1,3,1080,1920]" (+ strides when not packed)
    /// Same type, rank, sizes, effective strides and flags.
    bool operator==(const TensorDesc& o) const;
};

/// Validates rank, sizes (> 0), element count and byte size (< 2^32 elements, fits in the
/// device's max storage buffer range), and strides. `what` names the tensor in the message
/// ("conv2d 'enc1' input"). Rejects strides that make distinct elements share memory when
/// `isOutput` (an output written twice is a race).
Status validateTensor(const TensorDesc& desc, const std::string& what, bool isOutput);

}  // namespace mlplugin
MLPLUGIN_API_END
