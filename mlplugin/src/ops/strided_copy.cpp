#include "strided_copy.h"

#include "index_util.h"
#include "ml_shaders.h"

#include <algorithm>
#include <numeric>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kCopyLocalSize = 128;
constexpr uint32_t kTile = 32;       // TILE in transpose_tiled.comp
constexpr uint32_t kTileRows = 8;    // ROWS in transpose_tiled.comp
constexpr uint32_t kMaxTiledBatch = kMaxCopyRank - 2;  // MAX_BATCH in transpose_tiled.comp
// Below this many elements along either fast dim a tile is mostly idle invocations, and the
// plain copy's reads are already close to contiguous (e.g. NCHW -> NHWC with 3 channels).
constexpr uint32_t kMinTiledSize = 16;

// Drops size-1 dims, orders dims by output stride (outermost first) so consecutive
// invocations write consecutive elements whatever the output layout, then merges neighbours
// that are contiguous in both tensors: fewer divisions per invocation.
CopyView normalized(const CopyView& v) {
    std::array<uint32_t, kMaxCopyRank> order{};
    uint32_t n = 0;
    for (uint32_t d = 0; d < v.rank; ++d)
        if (v.sizes[d] > 1) order[n++] = d;
    std::stable_sort(order.begin(), order.begin() + n, [&](uint32_t a, uint32_t b) { return v.outStrides[a] > v.outStrides[b]; });

    CopyView r;
    r.inBase = v.inBase;
    r.outBase = v.outBase;
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t d = order[k];
        if (r.rank > 0) {
            uint32_t last = r.rank - 1;
            if (r.inStrides[last] == v.inStrides[d] * v.sizes[d] && r.outStrides[last] == v.outStrides[d] * v.sizes[d]) {
                r.sizes[last] *= v.sizes[d];
                r.inStrides[last] = v.inStrides[d];
                r.outStrides[last] = v.outStrides[d];
                continue;
            }
        }
        r.addDim(v.sizes[d], v.inStrides[d], v.outStrides[d]);
    }
    if (r.rank == 0) r.addDim(1, 1, 1);
    return r;
}

// True when the innermost dim is contiguous on both sides and every other stride and base is
// a multiple of 4: then element groups of 4 are aligned vec4s in both buffers.
bool vectorizable(const CopyView& v) {
    uint32_t inner = v.rank - 1;
    if (v.inStrides[inner] != 1 || v.outStrides[inner] != 1 || v.sizes[inner] % 4) return false;
    if (v.inBase % 4 || v.outBase % 4) return false;
    for (uint32_t d = 0; d < inner; ++d)
        if (v.inStrides[d] % 4 || v.outStrides[d] % 4) return false;
    return true;
}

CopyView inVec4Units(CopyView v) {
    uint32_t inner = v.rank - 1;
    v.sizes[inner] /= 4;
    for (uint32_t d = 0; d < inner; ++d) {
        v.inStrides[d] /= 4;
        v.outStrides[d] /= 4;
    }
    v.inBase /= 4;
    v.outBase /= 4;
    return v;
}

// Dims of a tiled transpose: R is the output's contiguous dim (the innermost after
// normalization), Q the input's; the rest are the batch. Empty when the plain copy is better.
struct TiledDims {
    uint32_t q = 0, r = 0;
    bool ok = false;
};

TiledDims tiledDims(const CopyView& v) {
    TiledDims t;
    if (v.rank < 2) return t;
    t.r = v.rank - 1;
    if (v.outStrides[t.r] != 1 || v.inStrides[t.r] == 1 || v.sizes[t.r] < kMinTiledSize) return t;
    for (uint32_t d = 0; d < t.r; ++d)
        if (v.inStrides[d] == 1 && v.sizes[d] >= kMinTiledSize) {
            t.q = d;
            t.ok = true;
        }
    return t;
}

void appendTiled(Plan& plan, bool f16Variant, const CopyView& v, TiledDims t, CopyEnd in, CopyEnd out) {
    std::array<uint32_t, kMaxTiledBatch> batchSizes{}, batchIn{}, batchOut{};
    batchSizes.fill(1);
    uint32_t batchRank = 0;
    uint64_t batch = 1;
    for (uint32_t d = 0; d < v.rank; ++d) {
        if (d == t.q || d == t.r) continue;
        batchSizes[batchRank] = v.sizes[d];
        batchIn[batchRank] = uint32_t(v.inStrides[d]);
        batchOut[batchRank] = uint32_t(v.outStrides[d]);
        batch *= v.sizes[d];
        ++batchRank;
    }
    uint32_t tilesQ = divUp(v.sizes[t.q], kTile), tilesR = divUp(v.sizes[t.r], kTile);
    uint64_t tiles = batch * tilesQ * tilesR;

    PipelineSpec spec;
    spec.spirv = f16Variant ? shaders::transpose_tiled_f16() : shaders::transpose_tiled_f32();
    spec.specConstants = {kTile, kTileRows, 1, batchRank, uint32_t(in.type), uint32_t(out.type)};
    spec.debugName = "transpose_tiled";
    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    launch.groups = linearGroups(tiles, 1);  // one workgroup per tile
    pushWords(launch, {uint32_t(tiles), in.slot, out.slot, uint32_t(v.inBase), uint32_t(v.outBase), v.sizes[t.q], v.sizes[t.r],
                       tilesQ, tilesR, uint32_t(v.inStrides[t.r]), uint32_t(v.outStrides[t.q])});
    for (uint32_t w : batchSizes) pushWords(launch, {w});
    for (uint32_t w : batchIn) pushWords(launch, {w});
    for (uint32_t w : batchOut) pushWords(launch, {w});
    plan.execute.push_back(launch);
}

}  // namespace

CopyView boxView(const TensorDesc& box, const TensorDesc& in, const TensorDesc& out) {
    auto is = in.effectiveStrides();
    auto os = out.effectiveStrides();
    CopyView v;
    for (uint32_t d = 0; d < box.rank; ++d) v.addDim(box.sizes[d], is[d], os[d]);
    return v;
}

void appendCopy(Plan& plan, bool f16Variant, CopyView view, CopyEnd in, CopyEnd out) {
    CopyView v = normalized(view);
    bool vec4 = vectorizable(v);
    if (vec4) v = inVec4Units(v);
    if (TiledDims t = tiledDims(v); !vec4 && t.ok) return appendTiled(plan, f16Variant, v, t, in, out);

    PipelineSpec spec;
    spec.spirv = f16Variant ? shaders::strided_copy_f16() : shaders::strided_copy_f32();
    spec.specConstants = {kCopyLocalSize, 1, 1, v.rank, uint32_t(in.type), uint32_t(out.type), vec4 ? 1u : 0u};
    spec.debugName = "strided_copy";

    uint64_t count = 1;
    for (uint32_t d = 0; d < v.rank; ++d) count *= v.sizes[d];

    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    launch.groups = linearGroups(count, kCopyLocalSize);
    // Index arithmetic is mod 2^32 in the shader: negative strides travel as two's complement.
    pushWords(launch, {uint32_t(count), in.slot, out.slot, uint32_t(v.inBase), uint32_t(v.outBase)});
    for (uint32_t d = 0; d < kMaxCopyRank; ++d) pushWords(launch, {v.sizes[d]});
    for (uint32_t d = 0; d < kMaxCopyRank; ++d) pushWords(launch, {uint32_t(v.inStrides[d])});
    for (uint32_t d = 0; d < kMaxCopyRank; ++d) pushWords(launch, {uint32_t(v.outStrides[d])});
    plan.execute.push_back(launch);
}

}  // namespace mlplugin::detail
