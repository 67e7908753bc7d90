#include "ops/row_plan.h"

#include <algorithm>
#include <bit>

namespace mlplugin::detail {

namespace {

// Rows at most this long are walked by one invocation each: a workgroup per row of a few
// elements would leave almost every lane idle (e.g. softmax over C = 3 of a 4K image).
constexpr uint32_t kSerialRowLength = 32;
constexpr uint32_t kSerialLocalSize = 64;
constexpr uint32_t kMaxLocalSize = 256;  // MAX_LOCAL in reduce_rows.glsl
// Rows longer than this are split into chunks of about kChunkLength (16 elements per lane).
constexpr uint32_t kSplitRowLength = 8192;
constexpr uint32_t kChunkLength = 4096;

}  // namespace

RowLayout rowLayout(const Dims& sizes, uint32_t rank, uint32_t reducedMask, const std::array<Dims, kRowTensors>& strides) {
    RowLayout layout;
    layout.loop = collapseLoop(sizes, rank, std::vector<Dims>(strides.begin(), strides.end()), reducedMask);
    uint64_t rows = 1, rowLength = 1;
    for (uint32_t d = 0; d < kMaxTensorRank; ++d) {
        if ((layout.loop.groupMask >> d) & 1u) rowLength *= layout.loop.sizes[d];
        else rows *= layout.loop.sizes[d];
    }
    layout.rows = uint32_t(rows);  // both < 2^32: the tensor was validated
    layout.rowLength = uint32_t(rowLength);
    layout.rowPerWorkgroup = rowLength > kSerialRowLength;
    // Clamped before bit_ceil, which is undefined above 2^31 (a row of 3 billion elements found
    // by fuzz_operator_desc).
    layout.localSize = layout.rowPerWorkgroup ? std::clamp<uint32_t>(std::bit_ceil(std::min(layout.rowLength, kMaxLocalSize)), 32, kMaxLocalSize)
                                              : kSerialLocalSize;
    layout.chunkLength = layout.rowLength;
    return layout;
}

bool splitLongRows(RowLayout& layout) {
    if (!layout.rowPerWorkgroup || layout.rowLength <= kSplitRowLength) return false;
    // At most one chunk per lane: the merge combines the chunks of a row in one workgroup.
    uint32_t chunks = std::min(layout.localSize, divUp(layout.rowLength, kChunkLength));
    layout.chunkLength = divUp(layout.rowLength, chunks);
    layout.chunks = divUp(layout.rowLength, layout.chunkLength);  // no empty trailing chunk
    return true;
}

std::vector<uint32_t> rowSpecConstants(const RowLayout& layout) {
    return {layout.localSize, 1, 1, layout.loop.groupMask, layout.rowPerWorkgroup ? 1u : 0u};
}

void finishRowSpecConstants(std::vector<uint32_t>& specConstants, const RowLayout& layout) {
    if (layout.loop.rank > kPushLoopDims) appendOuterLoop(specConstants, kRowOuterSpecId, layout.loop.sizes, layout.loop.strides);
}

Launch rowLaunch(const RowLayout& layout) {
    Launch launch;
    launch.groups = layout.rowPerWorkgroup ? linearGroups(uint64_t(layout.rows) * layout.chunks, 1)
                                           : linearGroups(layout.rows, layout.localSize);
    pushWords(launch, {layout.rows, layout.rowLength});
    pushInnerDims(launch, layout.loop.sizes);
    for (const Dims& strides : layout.loop.strides) pushInnerDims(launch, strides);
    pushWords(launch, {layout.chunks, layout.chunkLength});
    return launch;
}

}  // namespace mlplugin::detail
