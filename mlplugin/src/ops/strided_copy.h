#pragma once
// A strided copy: the one GPU kernel behind transpose, slice, concat, split, depth-to-space and
// space-to-depth. Each of those describes itself as a box of up to 8 dims walked in lockstep
// over an input and an output (shaders/ml/strided_copy.comp): a transpose or slice of an 8-D
// tensor, or the 6-D view of a 4-D depth-to-space.
#include "kernel.h"

#include <array>
#include <cstdint>

namespace mlplugin::detail {

inline constexpr uint32_t kMaxCopyRank = 8;  // MAX_RANK in strided_copy.comp

struct CopyView {
    uint32_t rank = 0;
    std::array<uint32_t, kMaxCopyRank> sizes{};
    std::array<int64_t, kMaxCopyRank> inStrides{};   // negative: walks the input backwards
    std::array<int64_t, kMaxCopyRank> outStrides{};
    int64_t inBase = 0;   // element the all-zero index reads
    int64_t outBase = 0;  // element the all-zero index writes

    void addDim(uint32_t size, int64_t inStride, int64_t outStride) {
        sizes[rank] = size;
        inStrides[rank] = inStride;
        outStrides[rank] = outStride;
        ++rank;
    }
};

// A box of `box`'s sizes at index 0 of both tensors, with their strides (all of one rank).
CopyView boxView(const TensorDesc& box, const TensorDesc& in, const TensorDesc& out);

struct CopyEnd {
    uint32_t slot = 0;
    DataType type = DataType::Float32;
};

// Appends a launch (and its pipeline, shared with earlier identical ones) copying `view` from
// `in` to `out`. Reorders dims so writes are coalesced, merges contiguous dims, moves 4
// elements per invocation when the layout allows it, and goes through shared-memory tiles when
// the input's and the output's contiguous dims differ (transpose_tiled.comp).
// `f16Variant`: use the HAS_F16 shaders.
void appendCopy(Plan& plan, bool f16Variant, CopyView view, CopyEnd in, CopyEnd out);

}  // namespace mlplugin::detail
