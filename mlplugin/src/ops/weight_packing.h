#pragma once
// Initializer helpers shared by the convolution and GEMM families: sub-allocating the
// persistent resource and copying plugin-owned tensors into it (converted, re-laid out).
#include "kernel.h"

namespace mlplugin::detail {

// Workgroup size of the weight-packing shaders (pack_tensor.comp and the convolutions' filter packs).
inline constexpr uint32_t kPackLocalSize = 64;

// Hands out kPersistentAlignment-aligned byte ranges of a persistent resource.
class PersistentAllocator {
public:
    uint64_t allocate(uint64_t bytes);  // returns the byte offset
    uint64_t totalBytes() const { return end_; }

private:
    uint64_t end_ = 0;
};

// Adds an initializer launch (and its pipeline) copying `tensor`, bound at input slot `slot`,
// into the persistent resource at `byteOffset`, packed row-major and converted to `dstType`.
// Tensors of rank <= 4 only.
void addPackTensor(Plan& plan, const TensorDesc& tensor, uint32_t slot, DataType dstType, uint64_t byteOffset, bool f16Variant);

// Element-type ids as the shaders know them (DTYPE_F32 / DTYPE_F16 in common.glsl).
inline uint32_t shaderType(DataType t) { return static_cast<uint32_t>(t); }

}  // namespace mlplugin::detail
