#include "strided_copy.h"

#include "index_util.h"
#include "ml_shaders.h"

#include <algorithm>
#include <numeric>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kLocalSize = 128;

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

    PipelineSpec spec;
    spec.spirv = f16Variant ? shaders::strided_copy_f16() : shaders::strided_copy_f32();
    spec.specConstants = {kLocalSize, 1, 1, v.rank, uint32_t(in.type), uint32_t(out.type), vec4 ? 1u : 0u};
    spec.debugName = "strided_copy";

    uint64_t count = 1;
    for (uint32_t d = 0; d < v.rank; ++d) count *= v.sizes[d];

    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    launch.groups = linearGroups(count, kLocalSize);
    // Index arithmetic is mod 2^32 in the shader: negative strides travel as two's complement.
    pushWords(launch, {uint32_t(count), in.slot, out.slot, uint32_t(v.inBase), uint32_t(v.outBase)});
    for (uint32_t d = 0; d < kMaxCopyRank; ++d) pushWords(launch, {v.sizes[d]});
    for (uint32_t d = 0; d < kMaxCopyRank; ++d) pushWords(launch, {uint32_t(v.inStrides[d])});
    for (uint32_t d = 0; d < kMaxCopyRank; ++d) pushWords(launch, {uint32_t(v.outStrides[d])});
    plan.execute.push_back(launch);
}

}  // namespace mlplugin::detail
