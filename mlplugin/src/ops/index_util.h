#pragma once
// Small helpers shared by the pooling, resample and data-movement families: operator labels
// for messages, multi-index walks and element offsets for the CPU references, shader variant
// choice.
#include "kernel.h"
#include "mlplugin/cpu_reference.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace mlplugin::detail {

// "concat 'c'" (or "concat" when unnamed): how messages name an operator.
inline std::string opLabel(const char* kind, const std::string& name) {
    return name.empty() ? std::string(kind) : std::string(kind) + " '" + name + "'";
}

inline std::string str(uint64_t v) { return std::to_string(v); }

using Index = std::array<uint32_t, kMaxTensorRank>;

inline std::string sizesString(const uint32_t* sizes, uint32_t rank, const char* separator = ",") {
    std::string s = "[";
    for (uint32_t d = 0; d < rank; ++d) s += (d ? separator : "") + str(sizes[d]);
    return s + "]";
}

// "[2, 3, 5]": a tensor's sizes in validation messages.
inline std::string sizesText(const TensorDesc& t) { return sizesString(t.sizes.data(), std::min(t.rank, kMaxTensorRank), ", "); }

inline Status checkRank(const std::string& op, const char* field, const TensorDesc& t, uint32_t rank) {
    if (t.rank != rank) return invalidArgument(op + ": " + field + " rank is " + str(t.rank) + ", expected " + str(rank));
    return {};
}

// "<op>: <field> sizes [1,2,3] differ from the expected [1,2,4]" (or the rank differs).
inline Status checkSizes(const std::string& op, const char* field, const TensorDesc& t, const Index& expected, uint32_t rank) {
    MLP_TRY(checkRank(op, field, t, rank));
    for (uint32_t d = 0; d < rank; ++d)
        if (t.sizes[d] != expected[d])
            return invalidArgument(op + ": " + field + " sizes " + sizesString(t.sizes.data(), rank) + " differ from the expected " +
                                   sizesString(expected.data(), rank));
    return {};
}

// Element offset of `index` in a tensor laid out as `desc` says.
inline uint64_t offsetOf(const TensorDesc& desc, const Index& index) {
    auto strides = desc.effectiveStrides();
    uint64_t offset = 0;
    for (uint32_t d = 0; d < desc.rank; ++d) offset += uint64_t(index[d]) * strides[d];
    return offset;
}

// Calls fn(index) for every index of `desc`'s sizes, row-major.
template <class Fn>
void forEachIndex(const TensorDesc& desc, Fn&& fn) {
    Index index{};
    uint64_t count = desc.elementCount();
    for (uint64_t n = 0; n < count; ++n) {
        fn(index);
        for (int d = int(desc.rank) - 1; d >= 0; --d) {
            if (++index[d] < desc.sizes[d]) break;
            index[d] = 0;
        }
    }
}

// A zero-filled host tensor covering `desc`'s addressed span.
inline HostTensor makeHostTensor(const TensorDesc& desc) {
    return HostTensor{desc, std::vector<double>(desc.requiredBytes() / byteSize(desc.dataType), 0.0)};
}

// `v` as an element of `t`'s type holds it.
inline double representedAs(const TensorDesc& t, double v) { return t.dataType == DataType::Float16 ? roundToHalf(v) : v; }

// Stores `v` as the output's element type would hold it.
inline void storeValue(HostTensor& t, uint64_t offset, double v) { t.data[offset] = representedAs(t.desc, v); }

// The context CPU references validate their descs in: every data type allowed.
inline const PlanContext& referenceContext() {
    static const PlanContext context{.caps = nullptr, .fp16Storage = true};
    return context;
}

inline bool anyFp16(std::initializer_list<const TensorDesc*> tensors) {
    for (const TensorDesc* t : tensors)
        if (t && t->dataType == DataType::Float16) return true;
    return false;
}

// Specialization-constant code of a tensor's element type (DTYPE_F32 / DTYPE_F16 in common.glsl).
inline uint32_t dtypeCode(const TensorDesc& t) { return uint32_t(t.dataType); }

// Adds `spec` to the plan unless an identical pipeline is there; returns its index.
inline uint32_t addPipeline(Plan& plan, PipelineSpec spec) {
    for (uint32_t i = 0; i < plan.pipelines.size(); ++i) {
        const PipelineSpec& p = plan.pipelines[i];
        if (p.spirv.data() == spec.spirv.data() && p.specConstants == spec.specConstants) return i;
    }
    plan.pipelines.push_back(std::move(spec));
    return uint32_t(plan.pipelines.size() - 1);
}

}  // namespace mlplugin::detail
