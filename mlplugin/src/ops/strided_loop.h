#pragma once
// Shape helpers shared by the element-wise, normalization and reduction families: numpy-style
// broadcasting of an input against an output, and collapsing a loop nest over several strided
// tensors into as few dims as possible (so a generic kernel divides less, and a fully packed
// case becomes a 1-D loop the planner can send to a vectorized path).
#include "kernel.h"

#include <array>
#include <string>
#include <vector>

namespace mlplugin::detail {

using Dims = std::array<uint32_t, kMaxTensorRank>;

inline constexpr uint32_t kPushLoopDims = 5;
inline constexpr uint32_t kSpecLoopDims = kMaxTensorRank - kPushLoopDims;

constexpr Dims onesDims() {
    Dims d{};
    d.fill(1);
    return d;
}

// The inner kPushLoopDims entries of right-aligned dims (push constants), and the outer
// kSpecLoopDims (specialization constants).
void pushInnerDims(Launch& launch, const Dims& dims);
void appendOuterDims(std::vector<uint32_t>& specConstants, const Dims& dims);
// Pads `specConstants` with zeros up to constant_id `firstId` (where a kernel's outer-dims
// constants start), then appends the outer dims of `sizes` and of each of `strides`.
void appendOuterLoop(std::vector<uint32_t>& specConstants, uint32_t firstId, const Dims& sizes, const std::vector<Dims>& strides);

// Strides that address `input` with `output`'s coordinates: sizes right-aligned, a dim of size 1
// (or missing) repeats with stride 0. `what` names the input in errors ("element_wise 'x': input b"),
// `targetName` the tensor it broadcasts to.
Result<Dims> broadcastStrides(const TensorDesc& input, const TensorDesc& output, const std::string& what,
                              const char* targetName = "output");

// A loop over `sizes` (rank dims) addressing several tensors, collapsed: dims of size 1 are
// dropped and neighbours merged where every tensor's strides are contiguous across them. The
// result is right-aligned in kMaxTensorRank dims (unused leading dims have size 1, stride 0).
//
// Kernels walking such loops (elementwise, elementwise_chain, reduce_rows, pad) take the inner
// kPushLoopDims dims in push constants and the outer kSpecLoopDims as specialization constants
// (shaders/ml/loop_dims.glsl): 8 dims of sizes and 3-5 tensors' strides do not fit in 128 bytes
// of push constants, and loops that stay above 5 dims after collapsing are rare (alternating
// broadcast dims of 6-D to 8-D tensors), so only they get shape-specialized pipelines.
// With `groupMask` (bit d: dim d is in the second group, e.g. reduced dims), only neighbours of
// the same group merge, and the result's `groupMask` says which collapsed dims are in it.
struct StridedLoop {
    uint32_t rank = 1;  // dims in use, the innermost ones
    Dims sizes = onesDims();
    std::vector<Dims> strides;  // one per tensor
    uint32_t groupMask = 0;
    // One dim, every tensor with stride 1: a packed loop.
    bool packed() const;
};
StridedLoop collapseLoop(const Dims& sizes, uint32_t rank, const std::vector<Dims>& strides, uint32_t groupMask = 0);

// Row-major coordinates of linear index `index` over `sizes` (rank dims).
Dims coordinates(uint64_t index, const Dims& sizes, uint32_t rank);
uint64_t offsetOf(const Dims& coords, const Dims& strides, uint32_t rank);

// Element count a host array must hold for `desc` (its largest addressed index + 1).
uint64_t elementSpan(const TensorDesc& desc);

// "[2,3,4]" for messages.
std::string sizesString(const TensorDesc& desc);
// Shortest round-trip form of a float for messages ("0.5", "-1", "1e-05").
std::string floatString(float v);

}  // namespace mlplugin::detail
