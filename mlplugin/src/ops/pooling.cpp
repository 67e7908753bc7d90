// 2-D pooling: max, average (with or without the padding in the divisor), Lp; global pooling
// on its own workgroup-per-plane kernel. Output size (no ceil mode, as ONNX by default):
//   out = (in + padBegin + padEnd - ((window - 1) * dilation + 1)) / stride + 1.
#include "index_util.h"
#include "ml_shaders.h"

#include <algorithm>
#include <cmath>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kLocalSize = 128;
constexpr uint32_t kGlobalGroupSize = 128;  // GROUP_SIZE in global_pool.comp

// In 64 bits: both factors are below 2^32, and a wrapped 32-bit span let huge windows pass.
uint64_t span(const PoolingDesc& d, uint32_t k) { return uint64_t(d.window[k] - 1) * d.dilations[k] + 1; }

Status checkWindow(const std::string& op, const PoolingDesc& d, Index& expected) {
    static const char* dimNames[2] = {"height", "width"};
    for (uint32_t k = 0; k < 2; ++k) {
        const char* dim = k ? "[1]" : "[0]";
        if (d.window[k] == 0) return invalidArgument(op + ": window" + dim + " is 0");
        if (d.strides[k] == 0) return invalidArgument(op + ": strides" + dim + " is 0");
        if (d.dilations[k] == 0) return invalidArgument(op + ": dilations" + dim + " is 0");
        if (d.padBegin[k] >= span(d, k) || d.padEnd[k] >= span(d, k))
            return invalidArgument(op + ": pads of dim " + str(k) + " (begin " + str(d.padBegin[k]) + ", end " + str(d.padEnd[k]) +
                                   ") must be smaller than the dilated window " + str(span(d, k)));
        uint64_t padded = uint64_t(d.input.sizes[2 + k]) + d.padBegin[k] + d.padEnd[k];
        if (padded < span(d, k))
            return invalidArgument(op + ": dilated window " + str(span(d, k)) + " is larger than the padded input " + dimNames[k] +
                                   " " + str(padded));
        expected[2 + k] = uint32_t((padded - span(d, k)) / d.strides[k] + 1);
    }
    return {};
}

Status checkPooling(const PlanContext& pc, const PoolingDesc& d) {
    std::string op = opLabel("pooling", d.name);
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    MLP_TRY(checkRank(op, "input", d.input, 4));
    if (d.type != PoolingType::Max && d.type != PoolingType::Average && d.type != PoolingType::Lp)
        return invalidArgument(op + ": unknown pooling type " + str(uint32_t(d.type)));
    if (d.type == PoolingType::Lp && d.p == 0) return invalidArgument(op + ": Lp pooling needs p >= 1, got 0");
    Index expected{d.input.sizes[0], d.input.sizes[1], 1, 1};
    if (!d.global) MLP_TRY(checkWindow(op, d, expected));
    return checkSizes(op, "output", d.output, expected, 4);
}

Plan planGlobal(const PoolingDesc& d, bool f16) {
    Plan plan;
    PipelineSpec spec;
    spec.spirv = f16 ? shaders::global_pool_f16() : shaders::global_pool_f32();
    spec.specConstants = {kGlobalGroupSize, 1, 1, uint32_t(d.type), d.p, dtypeCode(d.input), dtypeCode(d.output)};
    spec.debugName = "global_pool";
    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    uint32_t planes = d.input.sizes[0] * d.input.sizes[1];
    launch.groups = linearGroups(planes, 1);  // one workgroup per plane
    auto is = d.input.effectiveStrides();
    auto os = d.output.effectiveStrides();
    pushWords(launch, {planes, d.input.sizes[1], d.input.sizes[2], d.input.sizes[3]});
    pushWords(launch, {is[0], is[1], is[2], is[3], os[0], os[1], os[2], os[3]});
    plan.execute.push_back(launch);
    return plan;
}

Plan planWindowed(const PoolingDesc& d, bool f16) {
    Plan plan;
    PipelineSpec spec;
    spec.spirv = f16 ? shaders::pool2d_f16() : shaders::pool2d_f32();
    spec.specConstants = {kLocalSize, 1, 1, uint32_t(d.type), d.countIncludePad ? 1u : 0u, d.p, dtypeCode(d.input),
                          dtypeCode(d.output)};
    spec.debugName = "pool2d";
    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    uint64_t count = d.output.elementCount();
    launch.groups = linearGroups(count, kLocalSize);
    auto is = d.input.effectiveStrides();
    auto os = d.output.effectiveStrides();
    pushWords(launch, {uint32_t(count), d.output.sizes[1], d.output.sizes[2], d.output.sizes[3], d.input.sizes[2], d.input.sizes[3]});
    pushWords(launch, {is[0], is[1], is[2], is[3], os[0], os[1], os[2], os[3]});
    pushWords(launch, {d.window[0], d.window[1], d.strides[0], d.strides[1], d.dilations[0], d.dilations[1], d.padBegin[0],
                       d.padBegin[1]});
    plan.execute.push_back(launch);
    return plan;
}

// One output element: the pooled value of the taps inside the input (0 when none are).
double poolWindow(const PoolingDesc& d, const HostTensor& in, uint32_t n, uint32_t c, uint32_t oy, uint32_t ox) {
    bool global = d.global;
    uint32_t wy = global ? d.input.sizes[2] : d.window[0], wx = global ? d.input.sizes[3] : d.window[1];
    double acc = d.type == PoolingType::Max ? -INFINITY : 0.0;
    uint32_t taps = 0;
    for (uint32_t ky = 0; ky < wy; ++ky) {
        int64_t y = global ? ky : int64_t(oy) * d.strides[0] - d.padBegin[0] + int64_t(ky) * d.dilations[0];
        if (y < 0 || y >= d.input.sizes[2]) continue;
        for (uint32_t kx = 0; kx < wx; ++kx) {
            int64_t x = global ? kx : int64_t(ox) * d.strides[1] - d.padBegin[1] + int64_t(kx) * d.dilations[1];
            if (x < 0 || x >= d.input.sizes[3]) continue;
            double v = in.data[offsetOf(d.input, Index{n, c, uint32_t(y), uint32_t(x), 0})];
            if (d.type == PoolingType::Max) acc = std::max(acc, v);
            else if (d.type == PoolingType::Average) acc += v;
            else acc += std::pow(std::fabs(v), double(d.p));
            ++taps;
        }
    }
    if (taps == 0) return 0.0;
    if (d.type == PoolingType::Max) return acc;
    if (d.type == PoolingType::Average) return acc / (d.countIncludePad && !global ? double(wy) * wx : double(taps));
    return std::pow(acc, 1.0 / d.p);
}

}  // namespace

Result<Plan> planPooling(const PlanContext& pc, const PoolingDesc& d) {
    MLP_TRY(checkPooling(pc, d));
    bool f16 = anyFp16({&d.input, &d.output});
    return d.global ? planGlobal(d, f16) : planWindowed(d, f16);
}

Result<HostTensors> referencePooling(const PoolingDesc& d, const HostTensors& in) {
    MLP_TRY(checkPooling(referenceContext(), d));
    HostTensor out = makeHostTensor(d.output);
    forEachIndex(d.output, [&](const Index& o) {
        storeValue(out, offsetOf(d.output, o), poolWindow(d, in[0], o[0], o[1], o[2], o[3]));
    });
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
