#pragma once
// What the tile choosers of the tensor-core convolutions (conv2d_igemm.comp, conv2d_winograd.comp)
// share: the NV cooperative-matrix fragment both kernels use and the register budget of a subgroup.
#include "ops/convolution_shape.h"

#include <cstdint>

namespace mlplugin::detail {

inline constexpr uint32_t kFrag = 16, kSubgroupSize = 32;
// Accumulator fragments per subgroup: 8 fp32 ones are 64 registers per invocation; fp16 ones take half.
inline constexpr uint32_t kMaxAccumulators = 8, kMaxAccumulators16 = 16;

// Whether the device offers the 16x16x16 fp16 fragment with `acc` accumulators.
inline bool hasFragmentShape(const Capabilities& caps, DataType acc) {
    for (const CooperativeMatrixShape& s : caps.cooperativeMatrixShapes)
        if (s.m == kFrag && s.n == kFrag && s.k == kFrag && s.inputType == DataType::Float16 && s.accumulatorType == acc) return true;
    return false;
}

inline uint32_t ceilDiv(uint64_t a, uint64_t b) { return uint32_t((a + b - 1) / b); }

}  // namespace mlplugin::detail
