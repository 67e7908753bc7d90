// Fuzz target: operator descs built from the fuzz bytes (FuzzedDataProvider) -> output shape
// inference (what GraphDesc::addNode runs) -> compileOperatorOnCpu (every validation and plan
// compileOperator runs, without pipelines) for two device kinds. Descs that compile and are
// small are also evaluated with the CPU reference (referenceEvaluate), which trusts a desc that
// validation accepted.
//
// Sizes, strides and attributes are mostly small and consistent (so validation passes and the
// planners run), sometimes edge values (0, 65535, 2^31, UINT32_MAX), and rarely out-of-range
// enums, ranks or flags: an application can pass any of them.
#include "fuzz_checks.h"
#include "graph/node_tensors.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

using namespace mlplugin;

namespace {

struct Gen {
    FuzzedDataProvider& p;

    // A size or attribute: mostly 1..max, sometimes an edge value.
    uint32_t dim(uint32_t max = 6) {
        switch (p.ConsumeIntegralInRange<int>(0, 31)) {
        case 0: return 0;
        case 1: return 65535;
        case 2: return 65536;
        case 3: return 1u << 31;
        case 4: return UINT32_MAX;
        case 5: return p.ConsumeIntegral<uint32_t>();
        default: return p.ConsumeIntegralInRange<uint32_t>(1, max);
        }
    }
    uint32_t attr(uint32_t max = 3) {
        switch (p.ConsumeIntegralInRange<int>(0, 31)) {
        case 0: return 0;
        case 1: return 65536;
        case 2: return UINT32_MAX;
        case 3: return p.ConsumeIntegral<uint32_t>();
        default: return p.ConsumeIntegralInRange<uint32_t>(0, max);
        }
    }
    std::array<uint32_t, 2> attr2(uint32_t min, uint32_t max) {
        return {std::max(attr(max), p.ConsumeBool() ? min : 0u), std::max(attr(max), p.ConsumeBool() ? min : 0u)};
    }
    float value() {
        switch (p.ConsumeIntegralInRange<int>(0, 15)) {
        case 0: return std::numeric_limits<float>::quiet_NaN();
        case 1: return std::numeric_limits<float>::infinity();
        case 2: return -std::numeric_limits<float>::infinity();
        case 3: return 0.0f;
        case 4: return std::numeric_limits<float>::max();
        default: return p.ConsumeFloatingPointInRange<float>(-4.0f, 4.0f);
        }
    }
    template <class E>
    E enumValue(uint32_t count) {
        // One in 32: a value past the last enumerator.
        if (p.ConsumeIntegralInRange<int>(0, 31) == 0) return E(count + p.ConsumeIntegralInRange<uint32_t>(0, 1000));
        return E(p.ConsumeIntegralInRange<uint32_t>(0, count - 1));
    }
    DataType dataType() {
        int v = p.ConsumeIntegralInRange<int>(0, 63);
        return v == 0 ? DataType(2 + p.ConsumeIntegralInRange<uint32_t>(0, 5)) : v < 32 ? DataType::Float32 : DataType::Float16;
    }
    uint32_t flags() {
        int v = p.ConsumeIntegralInRange<int>(0, 31);
        return v == 0 ? p.ConsumeIntegral<uint32_t>() : v < 4 ? uint32_t(TensorFlagOwnedByPlugin) : 0u;
    }
    Activation activation() {
        if (p.ConsumeBool()) return {};
        return {enumValue<ActivationType>(13), value(), value()};
    }

    // A tensor of `rank` (sometimes another rank) with the given sizes where known.
    TensorDesc tensor(uint32_t rank, std::vector<uint32_t> known = {}) {
        TensorDesc t;
        t.dataType = dataType();
        t.rank = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? p.ConsumeIntegralInRange<uint32_t>(0, kMaxTensorRank + 2) : rank;  // 0 and 9, 10: out of range
        for (uint32_t i = 0; i < std::min(t.rank, kMaxTensorRank); ++i)
            t.sizes[i] = i < known.size() && p.ConsumeIntegralInRange<int>(0, 7) != 0 ? known[i] : dim();
        t.flags = flags();
        switch (p.ConsumeIntegralInRange<int>(0, 7)) {
        case 0: {  // arbitrary strides (0 broadcasts, overlaps, padding)
            t.hasStrides = true;
            for (uint32_t i = 0; i < kMaxTensorRank; ++i) t.strides[i] = attr(64);
            break;
        }
        case 1: {  // packed with padding: each stride at least the packed one
            t.hasStrides = true;
            auto packed = t.effectiveStrides();
            for (uint32_t i = 0; i < kMaxTensorRank; ++i) t.strides[i] = packed[i] + (p.ConsumeBool() ? 0 : attr(4));
            break;
        }
        case 2:  // channels-last (NHWC) for 4-D
            if (t.rank == 4) {
                t.hasStrides = true;
                uint32_t c = t.sizes[1], w = t.sizes[3], h = t.sizes[2];
                t.strides = {h * w * c, 1, w * c, c, 0};
            }
            break;
        default: break;
        }
        return t;
    }
    std::optional<TensorDesc> optionalTensor(uint32_t rank, std::vector<uint32_t> known = {}) {
        if (p.ConsumeBool()) return std::nullopt;
        return tensor(rank, known);
    }
    std::vector<uint32_t> sizes(uint32_t rank, uint32_t max = 6) {
        std::vector<uint32_t> s(rank);
        for (auto& v : s) v = dim(max);
        return s;
    }

    OperatorDesc op() {
        std::string name = p.ConsumeBool() ? "" : "op";
        switch (p.ConsumeIntegralInRange<int>(0, 16)) {
        case 0: {
            ElementWiseDesc d{.name = name, .op = enumValue<ElementWiseOp>(17)};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            auto s = sizes(rank);
            d.a = tensor(rank, s);
            if (isBinary(d.op) || p.ConsumeIntegralInRange<int>(0, 7) == 0) {
                std::vector<uint32_t> bs = s;
                for (auto& v : bs) if (p.ConsumeIntegralInRange<int>(0, 3) == 0) v = 1;  // broadcast
                d.b = tensor(rank, bs);
            }
            if (p.ConsumeBool()) d.inputScaleBias = ScaleBias{value(), value()};
            d.clipMin = value();
            d.clipMax = value();
            d.activation = activation();
            return d;
        }
        case 1: {
            ConvolutionDesc d{.name = name};
            d.transposed = p.ConsumeIntegralInRange<int>(0, 3) == 0;
            d.groups = std::max(attr(2), p.ConsumeBool() ? 1u : 0u);
            uint32_t n = dim(2), c = dim(8), h = dim(9), w = dim(9), k = dim(3) | (p.ConsumeBool() ? 1 : 0), oc = dim(8);
            uint32_t g = std::max(d.groups, 1u);
            d.input = tensor(4, {n, c, h, w});
            d.filter = d.transposed ? tensor(4, {c, oc / g, k, k}) : tensor(4, {oc, c / g, k, k});
            d.bias = optionalTensor(p.ConsumeBool() ? 1 : 4, p.ConsumeBool() ? std::vector<uint32_t>{oc} : std::vector<uint32_t>{1, oc, 1, 1});
            d.strides = attr2(1, 3);
            d.dilations = attr2(1, 2);
            d.padBegin = attr2(0, 2);
            d.padEnd = attr2(0, 2);
            if (d.transposed) d.outputPadding = attr2(0, 1);
            d.activation = activation();
            return d;
        }
        case 2: {
            GemmDesc d{.name = name, .transposeA = p.ConsumeBool(), .transposeB = p.ConsumeBool(), .alpha = value(), .beta = value()};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(2, 4), m = dim(9), k = dim(9), n = dim(9);
            auto batch = sizes(rank - 2, 3);
            auto with = [&](uint32_t x, uint32_t y) { auto s = batch; s.push_back(x); s.push_back(y); return s; };
            d.a = tensor(rank, d.transposeA ? with(k, m) : with(m, k));
            d.b = tensor(rank, d.transposeB ? with(n, k) : with(k, n));
            d.c = optionalTensor(p.ConsumeBool() ? 1 : rank, p.ConsumeBool() ? std::vector<uint32_t>{n} : with(m, n));
            d.activation = activation();
            return d;
        }
        case 3: {
            PoolingDesc d{.name = name, .type = enumValue<PoolingType>(3), .global = p.ConsumeIntegralInRange<int>(0, 3) == 0};
            d.input = tensor(4, sizes(4, 9));
            d.window = attr2(1, 4);
            d.strides = attr2(1, 3);
            d.dilations = attr2(1, 2);
            d.padBegin = attr2(0, 2);
            d.padEnd = attr2(0, 2);
            d.countIncludePad = p.ConsumeBool();
            d.p = attr(3);
            return d;
        }
        case 4: {
            ResampleDesc d{.name = name, .mode = enumValue<ResampleMode>(3), .transform = enumValue<CoordinateTransform>(4),
                           .rounding = enumValue<NearestRounding>(4)};
            if (p.ConsumeBool()) d.cubicCoeffA = value();
            d.excludeOutside = p.ConsumeBool();
            auto s = sizes(4, 8);
            d.input = tensor(4, s);
            d.output = tensor(4, {s[0], s[1], dim(17), dim(17)});
            if (p.ConsumeBool()) d.scales = {value(), value()};
            return d;
        }
        case 5: {
            DepthToSpaceDesc d{.name = name, .blockSize = attr(3), .order = enumValue<DepthSpaceOrder>(2)};
            uint32_t b = std::max(d.blockSize, 1u);
            auto s = sizes(4);
            d.input = tensor(4, {s[0], s[1] * b * b, s[2], s[3]});
            d.output = tensor(4, {s[0], s[1], s[2] * b, s[3] * b});
            return d;
        }
        case 6: {
            SpaceToDepthDesc d{.name = name, .blockSize = attr(3), .order = enumValue<DepthSpaceOrder>(2)};
            uint32_t b = std::max(d.blockSize, 1u);
            auto s = sizes(4);
            d.input = tensor(4, {s[0], s[1], s[2] * b, s[3] * b});
            d.output = tensor(4, {s[0], s[1] * b * b, s[2], s[3]});
            return d;
        }
        case 7: {
            ConcatDesc d{.name = name};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            d.axis = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? attr(8) : p.ConsumeIntegralInRange<uint32_t>(0, rank - 1);
            auto s = sizes(rank);
            std::vector<uint32_t> out = s;
            uint32_t count = p.ConsumeIntegralInRange<uint32_t>(0, 15);
            if (d.axis < rank) out[d.axis] = 0;
            for (uint32_t i = 0; i < count; ++i) {
                auto si = s;
                if (d.axis < rank) { si[d.axis] = dim(3); out[d.axis] += si[d.axis]; }
                d.inputs.push_back(tensor(rank, si));
            }
            d.output = tensor(rank, out);
            return d;
        }
        case 8: {
            SplitDesc d{.name = name};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            d.axis = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? attr(8) : p.ConsumeIntegralInRange<uint32_t>(0, rank - 1);
            auto s = sizes(rank);
            std::vector<uint32_t> in = s;
            if (d.axis < rank) in[d.axis] = 0;
            uint32_t count = p.ConsumeIntegralInRange<uint32_t>(0, 15);
            for (uint32_t i = 0; i < count; ++i) {
                auto so = s;
                if (d.axis < rank) { so[d.axis] = dim(3); in[d.axis] += so[d.axis]; }
                d.outputs.push_back(tensor(rank, so));
            }
            d.input = tensor(rank, in);
            return d;
        }
        case 9: {
            SliceDesc d{.name = name};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            auto s = sizes(rank, 9);
            d.input = tensor(rank, s);
            std::vector<uint32_t> out(rank);
            for (uint32_t i = 0; i < kMaxTensorRank; ++i) {
                d.offsets[i] = attr(4);
                d.steps[i] = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? int32_t(p.ConsumeIntegral<uint32_t>()) : p.ConsumeIntegralInRange<int32_t>(-3, 3);
                if (i < rank) out[i] = dim(4);
            }
            d.output = tensor(rank, out);
            return d;
        }
        case 10: {
            PadDesc d{.name = name, .mode = enumValue<PadMode>(3), .value = value()};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            auto s = sizes(rank);
            auto out = s;
            for (uint32_t i = 0; i < kMaxTensorRank; ++i) {
                d.padBegin[i] = attr(3);
                d.padEnd[i] = attr(3);
                if (i < rank) out[i] += d.padBegin[i] + d.padEnd[i];
            }
            d.input = tensor(rank, s);
            d.output = tensor(rank, out);
            return d;
        }
        case 11: {
            TransposeDesc d{.name = name};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            auto s = sizes(rank);
            std::array<uint32_t, kMaxTensorRank> perm{0, 1, 2, 3, 4};
            for (uint32_t i = rank; i-- > 1;) std::swap(perm[i], perm[p.ConsumeIntegralInRange<uint32_t>(0, i)]);
            if (p.ConsumeIntegralInRange<int>(0, 15) == 0) perm[p.ConsumeIntegralInRange<uint32_t>(0, 4)] = attr(8);
            d.permutation = perm;
            std::vector<uint32_t> out(rank);
            for (uint32_t i = 0; i < rank; ++i) out[i] = perm[i] < rank ? s[perm[i]] : 1;
            d.input = tensor(rank, s);
            d.output = tensor(rank, out);
            return d;
        }
        case 12: {
            BatchNormalizationDesc d{.name = name, .epsilon = value(), .activation = activation()};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(2, 5);
            auto s = sizes(rank);
            d.input = tensor(rank, s);
            d.mean = tensor(1, {s[1]});
            d.variance = tensor(1, {s[1]});
            d.scale = tensor(1, {s[1]});
            d.bias = tensor(1, {s[1]});
            return d;
        }
        case 13: {
            InstanceNormalizationDesc d{.name = name, .epsilon = value(), .activation = activation()};
            auto s = sizes(4);
            d.input = tensor(4, s);
            d.scale = optionalTensor(1, {s[1]});
            d.bias = optionalTensor(1, {s[1]});
            return d;
        }
        case 14: {
            MeanVarianceNormalizationDesc d{.name = name, .axesMask = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? p.ConsumeIntegral<uint32_t>()
                                                                                                                   : p.ConsumeIntegralInRange<uint32_t>(0, 31),
                                            .normalizeVariance = p.ConsumeBool(), .epsilon = value(), .activation = activation()};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            auto s = sizes(rank);
            d.input = tensor(rank, s);
            d.scale = optionalTensor(rank, s);
            d.bias = optionalTensor(rank, s);
            return d;
        }
        case 15: {
            ReduceDesc d{.name = name, .op = enumValue<ReduceOp>(8),
                         .axesMask = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? p.ConsumeIntegral<uint32_t>() : p.ConsumeIntegralInRange<uint32_t>(0, 31)};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            auto s = sizes(rank);
            d.input = tensor(rank, s);
            auto out = s;
            for (uint32_t i = 0; i < rank; ++i) if (d.axesMask >> i & 1) out[i] = 1;
            d.output = tensor(rank, out);
            return d;
        }
        default: {
            SoftmaxDesc d{.name = name, .axesMask = p.ConsumeIntegralInRange<int>(0, 15) == 0 ? p.ConsumeIntegral<uint32_t>() : p.ConsumeIntegralInRange<uint32_t>(0, 31),
                          .logSoftmax = p.ConsumeBool()};
            uint32_t rank = p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank);
            auto s = sizes(rank);
            d.input = tensor(rank, s);
            return d;
        }
        }
    }
};

// The CPU reference on a desc that compiled, when every tensor is small (it loops over
// elements and, for convolutions and GEMMs, their reduction: tiny tensors keep it fast).
void evaluateReference(const OperatorDesc& desc, FuzzedDataProvider& p) {
    constexpr uint64_t kMaxElements = 256;
    std::vector<HostTensor> inputs;
    for (const TensorDesc* t : operatorInputs(desc)) {
        if (!t) { inputs.push_back({}); continue; }
        // Element count too: a broadcast (stride 0) tensor addresses one element but is iterated
        // over all of them.
        if (t->addressedElements() > kMaxElements || t->elementCount() > kMaxElements) return;
        HostTensor h{*t, std::vector<double>(t->addressedElements())};
        for (size_t i = 0; i < h.data.size(); ++i) h.data[i] = double(int(i % 7) - 3) * 0.5 + (p.ConsumeBool() ? 0.25 : 0.0);
        inputs.push_back(std::move(h));
    }
    for (const TensorDesc* t : operatorOutputs(desc))
        if (t->addressedElements() > kMaxElements || t->elementCount() > kMaxElements) return;
    Result<std::vector<HostTensor>> out = referenceEvaluate(desc, inputs);
    if (!out) {
        vkml_fuzz::checkError(out.error(), {ErrorCode::InvalidArgument, ErrorCode::Unsupported});
        return;
    }
    auto expected = operatorOutputs(desc);
    if (out->size() != expected.size()) {
        std::fprintf(stderr, "fuzz check failed: reference returned %zu outputs, the desc has %zu\n", out->size(), expected.size());
        std::abort();
    }
    for (size_t i = 0; i < expected.size(); ++i)
        if ((*out)[i].data.size() < expected[i]->addressedElements()) {
            std::fprintf(stderr, "fuzz check failed: reference output %zu holds %zu values, its desc addresses %llu\n", i, (*out)[i].data.size(),
                         (unsigned long long)expected[i]->addressedElements());
            std::abort();
        }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider p(data, size);
    Gen gen{p};
    OperatorDesc desc = gen.op();
    // What GraphDesc::addNode does with outputs left unset (half the time even where the
    // generator declared them); sometimes an output is replaced by an arbitrary one afterwards,
    // as an application may declare it.
    if (p.ConsumeBool())
        for (TensorDesc* t : detail::mutableOperatorOutputs(desc)) t->rank = 0;
    Status inferred = detail::inferOperatorOutputs(desc);
    if (!inferred) vkml_fuzz::checkError(inferred.error(), {ErrorCode::InvalidArgument, ErrorCode::Unsupported});
    if (p.ConsumeIntegralInRange<int>(0, 7) == 0) {
        std::vector<TensorDesc*> outs = detail::mutableOperatorOutputs(desc);
        if (!outs.empty()) *outs[p.ConsumeIntegralInRange<size_t>(0, outs.size() - 1)] = gen.tensor(p.ConsumeIntegralInRange<uint32_t>(1, kMaxTensorRank));
    }
    uint32_t flags = p.ConsumeIntegralInRange<uint32_t>(0, 7);
    bool compiled = false;
    for (const Capabilities& caps : vkml_fuzz::capabilitySets()) {
        auto op = detail::compileOperatorOnCpu(caps, desc, flags);
        if (!op) {
            vkml_fuzz::checkError(op.error(), {ErrorCode::InvalidArgument, ErrorCode::Unsupported});
            continue;
        }
        vkml_fuzz::checkCompiled(**op, caps);
        compiled = true;
    }
    if (compiled) evaluateReference(desc, p);
    return 0;
}
