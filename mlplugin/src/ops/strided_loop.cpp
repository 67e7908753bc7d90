#include "ops/strided_loop.h"

#include <algorithm>
#include <cassert>
#include <charconv>

namespace mlplugin::detail {

Result<Dims> broadcastStrides(const TensorDesc& input, const TensorDesc& output, const std::string& what, const char* targetName) {
    Dims result{};
    Dims inStrides = input.effectiveStrides();
    for (uint32_t i = 0; i < input.rank; ++i) {
        // Input dim i lines up with output dim i + (output.rank - input.rank).
        int64_t o = int64_t(i) + int64_t(output.rank) - int64_t(input.rank);
        if (o < 0) {
            if (input.sizes[i] != 1)
                return invalidArgument(what + " size " + std::to_string(input.sizes[i]) + " at dim " + std::to_string(i) +
                                       " has no matching dim in the " + targetName + " (rank " + std::to_string(output.rank) + ")");
            continue;
        }
        if (input.sizes[i] == output.sizes[o]) result[o] = inStrides[i];
        else if (input.sizes[i] == 1) result[o] = 0;
        else
            return invalidArgument(what + " size " + std::to_string(input.sizes[i]) + " at dim " + std::to_string(i) +
                                   " cannot broadcast to " + targetName + " size " + std::to_string(output.sizes[o]));
    }
    return result;
}

bool StridedLoop::packed() const {
    if (rank != 1) return false;
    for (const Dims& s : strides)
        if (s[kMaxTensorRank - 1] != 1 && sizes[kMaxTensorRank - 1] != 1) return false;
    return true;
}

StridedLoop collapseLoop(const Dims& sizes, uint32_t rank, const std::vector<Dims>& strides, uint32_t groupMask) {
    const size_t n = strides.size();
    // Collapsed dims, innermost first.
    std::vector<uint32_t> outSizes;
    std::vector<bool> outGroup;
    std::vector<std::vector<uint32_t>> outStrides(n);
    for (int d = int(rank) - 1; d >= 0; --d) {
        if (sizes[d] == 1) continue;
        const bool group = (groupMask >> d) & 1u;
        bool merge = !outSizes.empty() && outGroup.back() == group;
        for (size_t t = 0; merge && t < n; ++t)
            merge = uint64_t(strides[t][d]) == uint64_t(outStrides[t].back()) * outSizes.back();
        if (merge) {
            outSizes.back() *= sizes[d];
            continue;
        }
        outSizes.push_back(sizes[d]);
        outGroup.push_back(group);
        for (size_t t = 0; t < n; ++t) outStrides[t].push_back(strides[t][d]);
    }
    StridedLoop loop;
    loop.strides.assign(n, Dims{});
    if (outSizes.empty()) {  // a single element
        for (Dims& s : loop.strides) s[kMaxTensorRank - 1] = 1;
        return loop;
    }
    loop.rank = uint32_t(outSizes.size());
    for (uint32_t k = 0; k < loop.rank; ++k) {
        uint32_t d = kMaxTensorRank - 1 - k;
        loop.sizes[d] = outSizes[k];
        if (outGroup[k]) loop.groupMask |= 1u << d;
        for (size_t t = 0; t < n; ++t) loop.strides[t][d] = outStrides[t][k];
    }
    return loop;
}

void pushInnerDims(Launch& launch, const Dims& dims) {
    for (uint32_t d = kSpecLoopDims; d < kMaxTensorRank; ++d) pushWords(launch, {dims[d]});
}

void appendOuterDims(std::vector<uint32_t>& specConstants, const Dims& dims) {
    specConstants.insert(specConstants.end(), dims.begin(), dims.begin() + kSpecLoopDims);
}

void appendOuterLoop(std::vector<uint32_t>& specConstants, uint32_t firstId, const Dims& sizes, const std::vector<Dims>& strides) {
    assert(specConstants.size() <= firstId);
    specConstants.resize(firstId, 0);
    appendOuterDims(specConstants, sizes);
    for (const Dims& s : strides) appendOuterDims(specConstants, s);
}

Dims coordinates(uint64_t index, const Dims& sizes, uint32_t rank) {
    Dims c{};
    for (int d = int(rank) - 1; d >= 0; --d) {
        c[d] = uint32_t(index % sizes[d]);
        index /= sizes[d];
    }
    return c;
}

uint64_t offsetOf(const Dims& coords, const Dims& strides, uint32_t rank) {
    uint64_t offset = 0;
    for (uint32_t d = 0; d < rank; ++d) offset += uint64_t(coords[d]) * strides[d];
    return offset;
}

uint64_t elementSpan(const TensorDesc& desc) { return desc.requiredBytes() / byteSize(desc.dataType); }

std::string sizesString(const TensorDesc& desc) {
    std::string s = "[";
    for (uint32_t i = 0; i < std::min(desc.rank, kMaxTensorRank); ++i) s += (i ? "," : "") + std::to_string(desc.sizes[i]);
    return s + "]";
}

std::string floatString(float v) {
    char buf[32];
    auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    return std::string(buf, end);
}

}  // namespace mlplugin::detail
