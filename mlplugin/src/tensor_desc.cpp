#include "mlplugin/tensor_desc.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace mlplugin {

uint32_t byteSize(DataType type) { return type == DataType::Float16 ? 2 : 4; }

const char* toString(DataType type) { return type == DataType::Float16 ? "fp16" : "fp32"; }

namespace {

TensorDesc withSizes(DataType type, std::initializer_list<uint32_t> sizes, uint32_t flags) {
    TensorDesc d;
    d.dataType = type;
    d.flags = flags;
    // A rank above kMaxTensorRank is kept as kMaxTensorRank + 1 so validateTensor reports it.
    d.rank = uint32_t(std::min<size_t>(sizes.size(), kMaxTensorRank + 1));
    uint32_t i = 0;
    for (uint32_t s : sizes) {
        if (i < kMaxTensorRank) d.sizes[i] = s;
        ++i;
    }
    return d;
}

}  // namespace

TensorDesc TensorDesc::make(DataType type, std::initializer_list<uint32_t> sizes, uint32_t flags) {
    return withSizes(type, sizes, flags);
}

TensorDesc TensorDesc::channelsLast() const {
    if (rank != 4) return *this;
    const uint32_t c = sizes[1], h = sizes[2], w = sizes[3];
    return strided(dataType, {sizes[0], c, h, w}, {h * w * c, 1, w * c, c}, flags);
}

TensorDesc TensorDesc::strided(DataType type, std::initializer_list<uint32_t> sizes, std::initializer_list<uint32_t> strides,
                               uint32_t flags) {
    TensorDesc d = withSizes(type, sizes, flags);
    d.hasStrides = true;
    uint32_t i = 0;
    for (uint32_t s : strides) {
        if (i < kMaxTensorRank) d.strides[i] = s;
        ++i;
    }
    if (strides.size() != sizes.size()) d.rank = kMaxTensorRank + 2;  // reported by validateTensor
    return d;
}

uint64_t TensorDesc::elementCount() const {
    uint64_t n = 1;
    for (uint32_t i = 0; i < std::min(rank, kMaxTensorRank); ++i) n *= sizes[i];
    return n;
}

std::array<uint32_t, kMaxTensorRank> TensorDesc::effectiveStrides() const {
    if (hasStrides) return strides;
    std::array<uint32_t, kMaxTensorRank> s{};
    uint64_t stride = 1;
    for (int i = int(std::min(rank, kMaxTensorRank)) - 1; i >= 0; --i) {
        s[i] = uint32_t(std::min<uint64_t>(stride, UINT32_MAX));
        stride *= sizes[i];
    }
    return s;
}

uint64_t TensorDesc::addressedElements() const {
    auto s = effectiveStrides();
    uint64_t lastIndex = 0;
    for (uint32_t i = 0; i < std::min(rank, kMaxTensorRank); ++i) {
        if (sizes[i] == 0) return 0;
        lastIndex += uint64_t(sizes[i] - 1) * s[i];
    }
    return lastIndex + 1;
}

uint64_t TensorDesc::requiredBytes() const {
    uint64_t bytes = addressedElements() * byteSize(dataType);
    return (bytes + 3) & ~uint64_t(3);
}

bool TensorDesc::isPacked() const {
    if (!hasStrides) return true;
    TensorDesc packed = *this;
    packed.hasStrides = false;
    auto p = packed.effectiveStrides();
    for (uint32_t i = 0; i < std::min(rank, kMaxTensorRank); ++i)
        if (sizes[i] != 1 && strides[i] != p[i]) return false;
    return true;
}

std::string TensorDesc::toString() const {
    std::string s = mlplugin::toString(dataType);
    s += "[";
    for (uint32_t i = 0; i < std::min(rank, kMaxTensorRank); ++i) s += (i ? "," : "") + std::to_string(sizes[i]);
    s += "]";
    if (!isPacked()) {
        s += " strides[";
        for (uint32_t i = 0; i < std::min(rank, kMaxTensorRank); ++i) s += (i ? "," : "") + std::to_string(strides[i]);
        s += "]";
    }
    return s;
}

bool TensorDesc::operator==(const TensorDesc& o) const {
    if (dataType != o.dataType || rank != o.rank || flags != o.flags) return false;
    for (uint32_t i = 0; i < std::min(rank, kMaxTensorRank); ++i)
        if (sizes[i] != o.sizes[i]) return false;
    return effectiveStrides() == o.effectiveStrides();
}

Status validateTensor(const TensorDesc& desc, const std::string& what, bool isOutput) {
    if (desc.rank == kMaxTensorRank + 2) return invalidArgument(what + ": strides and sizes have different lengths");
    if (desc.rank == 0 || desc.rank > kMaxTensorRank)
        return invalidArgument(what + ": rank " + std::to_string(desc.rank) + " is out of range (1.." + std::to_string(kMaxTensorRank) + ")");
    if (desc.dataType != DataType::Float32 && desc.dataType != DataType::Float16)
        return invalidArgument(what + ": unknown data type " + std::to_string(uint32_t(desc.dataType)));
    uint64_t count = 1;
    for (uint32_t i = 0; i < desc.rank; ++i) {
        if (desc.sizes[i] == 0) return invalidArgument(what + ": size of dim " + std::to_string(i) + " is 0");
        count *= desc.sizes[i];
        if (count >= (uint64_t(1) << 32))
            return invalidArgument(what + ": " + desc.toString() + " has 2^32 or more elements (the limit is 2^32 - 1)");
    }
    if (desc.hasStrides) {
        uint64_t lastIndex = 0;
        for (uint32_t i = 0; i < desc.rank; ++i) lastIndex += uint64_t(desc.sizes[i] - 1) * desc.strides[i];
        if (lastIndex >= (uint64_t(1) << 32))
            return invalidArgument(what + ": strides address element " + std::to_string(lastIndex) + ", beyond the 2^32 - 1 limit");
        if (isOutput) {
            // Distinct elements must not share memory: sort dims by stride; each stride must
            // exceed the span of all smaller-stride dims (ignoring size-1 dims).
            std::vector<uint32_t> dims;
            for (uint32_t i = 0; i < desc.rank; ++i)
                if (desc.sizes[i] > 1) dims.push_back(i);
            std::sort(dims.begin(), dims.end(), [&](uint32_t a, uint32_t b) { return desc.strides[a] < desc.strides[b]; });
            uint64_t span = 1;
            for (uint32_t d : dims) {
                if (desc.strides[d] < span)
                    return invalidArgument(what + ": output strides make distinct elements overlap (dim " + std::to_string(d) +
                                           " stride " + std::to_string(desc.strides[d]) + " < " + std::to_string(span) + ")");
                span = uint64_t(desc.strides[d]) * (desc.sizes[d] - 1) + span;
            }
        }
    }
    return {};
}

}  // namespace mlplugin
