#include "graph/node_tensors.h"

#include "kernel.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace mlplugin::detail {
namespace {

bool setOptional(std::optional<TensorDesc>& slot, const TensorDesc* d) {
    if (d) slot = *d; else slot.reset();
    return true;
}

TensorDesc withSizes(const TensorDesc& like, std::vector<uint32_t> sizes) {
    TensorDesc t;
    t.dataType = like.dataType;
    t.rank = uint32_t(sizes.size());
    for (size_t i = 0; i < sizes.size() && i < kMaxTensorRank; ++i) t.sizes[i] = sizes[i];
    return t;
}

std::vector<uint32_t> sizesOf(const TensorDesc& t) { return {t.sizes.begin(), t.sizes.begin() + std::min(t.rank, kMaxTensorRank)}; }

Result<std::vector<uint32_t>> broadcastSizes(const TensorDesc& a, const TensorDesc& b, const std::string& op) {
    uint32_t rank = std::max(a.rank, b.rank);
    std::vector<uint32_t> out(rank);
    for (uint32_t i = 0; i < rank; ++i) {
        int ia = int(i) - int(rank - a.rank), ib = int(i) - int(rank - b.rank);
        uint32_t sa = ia >= 0 ? a.sizes[ia] : 1, sb = ib >= 0 ? b.sizes[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return invalidArgument(op + ": inputs of sizes " + a.toString() + " and " + b.toString() + " do not broadcast (dim " +
                                   std::to_string(i) + ": " + std::to_string(sa) + " vs " + std::to_string(sb) + ")");
        out[i] = std::max(sa, sb);
    }
    return out;
}

// 0 when the window does not fit or the output would not fit 32 bits.
uint32_t poolOutputSize(uint32_t in, uint32_t window, uint32_t stride, uint32_t dilation, uint32_t padB, uint32_t padE) {
    if (window == 0 || stride == 0 || dilation == 0) return 0;
    uint64_t span = uint64_t(dilation) * (window - 1) + 1;  // both factors < 2^32: no overflow
    uint64_t padded = uint64_t(in) + padB + padE;
    if (span > padded) return 0;
    uint64_t out = (padded - span) / stride + 1;
    return out <= UINT32_MAX ? uint32_t(out) : 0;
}

}  // namespace

bool setOperatorInputs(OperatorDesc& op, const std::vector<const TensorDesc*>& d) {
    return std::visit([&](auto& o) -> bool {
        using T = std::decay_t<decltype(o)>;
        auto req = [&](size_t i, TensorDesc& slot) { if (i >= d.size() || !d[i]) return false; slot = *d[i]; return true; };
        auto optional = [&](size_t i, std::optional<TensorDesc>& slot) { return setOptional(slot, i < d.size() ? d[i] : nullptr); };
        if constexpr (std::is_same_v<T, ElementWiseDesc>) return d.size() <= 2 && req(0, o.a) && optional(1, o.b);
        else if constexpr (std::is_same_v<T, ConvolutionDesc>) return d.size() <= 3 && req(0, o.input) && req(1, o.filter) && optional(2, o.bias);
        else if constexpr (std::is_same_v<T, GemmDesc>) return d.size() <= 3 && req(0, o.a) && req(1, o.b) && optional(2, o.c);
        else if constexpr (std::is_same_v<T, GridSampleDesc>) return d.size() == 2 && req(0, o.input) && req(1, o.grid);
        else if constexpr (std::is_same_v<T, ConcatDesc>) {
            o.inputs.clear();
            for (const TensorDesc* t : d) { if (!t) return false; o.inputs.push_back(*t); }
            return !d.empty();
        }
        else if constexpr (std::is_same_v<T, BatchNormalizationDesc>)
            return d.size() == 5 && req(0, o.input) && req(1, o.mean) && req(2, o.variance) && req(3, o.scale) && req(4, o.bias);
        else if constexpr (std::is_same_v<T, InstanceNormalizationDesc> || std::is_same_v<T, MeanVarianceNormalizationDesc>)
            return d.size() <= 3 && req(0, o.input) && optional(1, o.scale) && optional(2, o.bias);
        else return d.size() == 1 && req(0, o.input);
    }, op);
}

std::vector<TensorDesc*> mutableOperatorOutputs(OperatorDesc& op) {
    return std::visit([](auto& o) -> std::vector<TensorDesc*> {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, SplitDesc>) {
            std::vector<TensorDesc*> v;
            for (auto& t : o.outputs) v.push_back(&t);
            return v;
        } else {
            return {&o.output};
        }
    }, op);
}

Status inferOperatorOutputs(OperatorDesc& op) {
    std::string label = operatorLabel(op);
    // Inference indexes sizes by rank and multiplies them: inputs must be valid tensors first.
    std::vector<const TensorDesc*> ins = operatorInputs(op);
    for (size_t i = 0; i < ins.size(); ++i)
        if (ins[i]) MLP_TRY(validateTensor(*ins[i], label + " input " + std::to_string(i), false));
    return std::visit([&](auto& o) -> Status {
        using T = std::decay_t<decltype(o)>;
        auto need = [&](const char* why) { return invalidArgument(label + ": output sizes cannot be inferred (" + why + "); set the output desc"); };
        if constexpr (std::is_same_v<T, SplitDesc>) {
            for (auto& t : o.outputs) if (t.rank == 0) return need("split sizes are not known");
            return {};
        } else {
            if (o.output.rank != 0) return {};
            if constexpr (std::is_same_v<T, ElementWiseDesc>) {
                if (!o.b) { o.output = withSizes(o.a, sizesOf(o.a)); return {}; }
                auto s = broadcastSizes(o.a, *o.b, label);
                if (!s) return s.error();
                o.output = withSizes(o.a, *s);
            } else if constexpr (std::is_same_v<T, ConvolutionDesc>) {
                if (o.input.rank != 4 || o.filter.rank != 4) return invalidArgument(label + ": input and filter must be 4-D (NCHW, OIHW)");
                uint32_t outC = o.transposed ? o.filter.sizes[1] * std::max(o.groups, 1u) : o.filter.sizes[0];
                uint32_t h = convolutionOutputSize(o, 0), w = convolutionOutputSize(o, 1);
                if (h == 0 || w == 0) return invalidArgument(label + ": the kernel, strides and pads give an empty output");
                o.output = withSizes(o.input, {o.input.sizes[0], outC, h, w});
            } else if constexpr (std::is_same_v<T, GemmDesc>) {
                if (o.a.rank < 2 || o.b.rank < 2) return invalidArgument(label + ": A and B must have rank >= 2");
                uint32_t m = o.transposeA ? o.a.sizes[o.a.rank - 1] : o.a.sizes[o.a.rank - 2];
                uint32_t n = o.transposeB ? o.b.sizes[o.b.rank - 2] : o.b.sizes[o.b.rank - 1];
                TensorDesc ba = withSizes(o.a, {o.a.sizes.begin(), o.a.sizes.begin() + (o.a.rank - 2)});
                TensorDesc bb = withSizes(o.b, {o.b.sizes.begin(), o.b.sizes.begin() + (o.b.rank - 2)});
                std::vector<uint32_t> sizes;
                if (ba.rank || bb.rank) {
                    if (!ba.rank) ba = withSizes(ba, {1});
                    if (!bb.rank) bb = withSizes(bb, {1});
                    auto s = broadcastSizes(ba, bb, label);
                    if (!s) return s.error();
                    sizes = *s;
                }
                sizes.push_back(m);
                sizes.push_back(n);
                o.output = withSizes(o.a, sizes);
            } else if constexpr (std::is_same_v<T, PoolingDesc>) {
                if (o.input.rank != 4) return invalidArgument(label + ": input must be 4-D (NCHW)");
                uint32_t h = 1, w = 1;
                if (!o.global) {
                    h = poolOutputSize(o.input.sizes[2], o.window[0], o.strides[0], o.dilations[0], o.padBegin[0], o.padEnd[0]);
                    w = poolOutputSize(o.input.sizes[3], o.window[1], o.strides[1], o.dilations[1], o.padBegin[1], o.padEnd[1]);
                    if (h == 0 || w == 0) return invalidArgument(label + ": the window, strides and pads give an empty output");
                }
                o.output = withSizes(o.input, {o.input.sizes[0], o.input.sizes[1], h, w});
            } else if constexpr (std::is_same_v<T, ResampleDesc>) {
                if (o.input.rank != 4) return invalidArgument(label + ": input must be 4-D (NCHW)");
                if (!(o.scales[0] > 0) || !(o.scales[1] > 0)) return need("no scales given");
                // Same rule as the resample planner: floor(in * scale) with a little slack, so a
                // float scale like 0.7f (just below 0.7) still gives the intended size.
                double h = std::floor(o.input.sizes[2] * double(o.scales[0]) + 1e-4), w = std::floor(o.input.sizes[3] * double(o.scales[1]) + 1e-4);
                if (!(h >= 1 && w >= 1 && h <= UINT32_MAX && w <= UINT32_MAX))
                    return invalidArgument(label + ": scales " + std::to_string(o.scales[0]) + " x " + std::to_string(o.scales[1]) + " turn input " +
                                           std::to_string(o.input.sizes[2]) + " x " + std::to_string(o.input.sizes[3]) +
                                           " into an output outside 1..2^32-1 rows or columns");
                o.output = withSizes(o.input, {o.input.sizes[0], o.input.sizes[1], uint32_t(h), uint32_t(w)});
            } else if constexpr (std::is_same_v<T, GridSampleDesc>) {
                if (o.input.rank != 4 || o.grid.rank != 4)
                    return invalidArgument(label + ": input must be 4-D (NCHW) and grid 4-D ([N, outH, outW, 2])");
                o.output = withSizes(o.input, {o.input.sizes[0], o.input.sizes[1], o.grid.sizes[1], o.grid.sizes[2]});
            } else if constexpr (std::is_same_v<T, DepthToSpaceDesc> || std::is_same_v<T, SpaceToDepthDesc>) {
                uint64_t b = o.blockSize;  // 64 bits: b * b must not wrap (to 0 for 65536)
                if (o.input.rank != 4 || b == 0) return invalidArgument(label + ": input must be 4-D and blockSize > 0");
                const auto& in = o.input.sizes;
                uint64_t sizes[4] = {in[0], in[1] / (b * b), in[2] * b, in[3] * b};
                if constexpr (std::is_same_v<T, SpaceToDepthDesc>) sizes[1] = in[1] * b * b, sizes[2] = in[2] / b, sizes[3] = in[3] / b;
                for (uint64_t s : sizes)
                    if (s == 0 || s > UINT32_MAX)
                        return invalidArgument(label + ": blockSize " + std::to_string(b) + " gives an empty output or one above 2^32 - 1 per dim");
                o.output = withSizes(o.input, {uint32_t(sizes[0]), uint32_t(sizes[1]), uint32_t(sizes[2]), uint32_t(sizes[3])});
            } else if constexpr (std::is_same_v<T, ConcatDesc>) {
                if (o.inputs.empty() || o.axis >= o.inputs[0].rank) return invalidArgument(label + ": no inputs or axis out of range");
                auto sizes = sizesOf(o.inputs[0]);
                for (size_t i = 1; i < o.inputs.size(); ++i) sizes[o.axis] += o.inputs[i].sizes[o.axis];
                o.output = withSizes(o.inputs[0], sizes);
            } else if constexpr (std::is_same_v<T, SliceDesc>) {
                return need("slice output sizes are not known");
            } else if constexpr (std::is_same_v<T, PadDesc>) {
                auto sizes = sizesOf(o.input);
                for (size_t i = 0; i < sizes.size(); ++i) {
                    uint64_t padded = uint64_t(sizes[i]) + o.padBegin[i] + o.padEnd[i];
                    if (padded > UINT32_MAX) return invalidArgument(label + ": dim " + std::to_string(i) + " padded to " + std::to_string(padded) + " exceeds 2^32 - 1");
                    sizes[i] = uint32_t(padded);
                }
                o.output = withSizes(o.input, sizes);
            } else if constexpr (std::is_same_v<T, TransposeDesc>) {
                auto in = sizesOf(o.input);
                std::vector<uint32_t> sizes(in.size());
                for (size_t i = 0; i < in.size(); ++i) {
                    if (o.permutation[i] >= in.size()) return invalidArgument(label + ": permutation entry " + std::to_string(i) + " is out of range");
                    sizes[i] = in[o.permutation[i]];
                }
                o.output = withSizes(o.input, sizes);
            } else if constexpr (std::is_same_v<T, ReduceDesc>) {
                auto sizes = sizesOf(o.input);
                for (size_t i = 0; i < sizes.size(); ++i) if (o.axesMask & (1u << i)) sizes[i] = 1;
                o.output = withSizes(o.input, sizes);
            } else {
                // Normalizations and softmax keep the input's sizes.
                o.output = withSizes(o.input, sizesOf(o.input));
            }
            return {};
        }
    }, op);
}

}  // namespace mlplugin::detail
