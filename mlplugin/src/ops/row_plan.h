#pragma once
// Planning for kernels built on shaders/ml/reduce_rows.glsl (reductions, softmax, instance and
// mean-variance normalization): dims split into kept dims (rows) and reduced dims (the elements
// of a row), collapsed, and turned into spec constants 0..4 plus the push constants and groups.
#include "ops/strided_loop.h"

#include <array>

namespace mlplugin::detail {

// Tensors a row kernel addresses, in push-constant order (T_INPUT.. in reduce_rows.glsl).
enum RowTensor : uint32_t { RowInput = 0, RowOutput = 1, RowScale = 2, RowBias = 3, kRowTensors = 4 };

struct RowLayout {
    StridedLoop loop;  // groupMask = reduced dims
    uint32_t rows = 1;
    uint32_t rowLength = 1;
    bool rowPerWorkgroup = true;
    uint32_t localSize = 64;
    // Long rows split into chunks of chunkLength elements, a workgroup each (see splitLongRows).
    uint32_t chunks = 1;
    uint32_t chunkLength = 1;
};

// `sizes`/`rank`: the iteration space (the input's sizes); `reducedMask`: dims that form a row;
// strides per RowTensor in that space (zeros for tensors a kernel does not use).
RowLayout rowLayout(const Dims& sizes, uint32_t rank, uint32_t reducedMask, const std::array<Dims, kRowTensors>& strides);

// For kernels that merge per-chunk partial results (mvn.comp PHASE 1 / 2): splits rows too long
// for one workgroup to finish quickly (a few rows of millions of elements would occupy a few
// workgroups of the whole GPU). Returns whether it split.
bool splitLongRows(RowLayout& layout);

// Spec constants 0..4 of reduce_rows.glsl; kernels append theirs from id 5 (up to 19), then
// finishRowSpecConstants adds the outer loop dims from kRowOuterSpecId when the loop has them.
inline constexpr uint32_t kRowOuterSpecId = 20;  // OUTER_SIZE_0 in reduce_rows.glsl
std::vector<uint32_t> rowSpecConstants(const RowLayout& layout);
void finishRowSpecConstants(std::vector<uint32_t>& specConstants, const RowLayout& layout);
// The launch: groups (rows x chunks) and push constants (rows, rowLength, sizes, strides, chunks).
Launch rowLaunch(const RowLayout& layout);

}  // namespace mlplugin::detail
