// Element-wise family: validation, planning (one generic strided kernel, or its packed vec4
// path when every tensor collapses to one contiguous run) and the CPU reference.
#include "kernel.h"
#include "ml_shaders.h"
#include "ops/fused_activation.h"
#include "ops/strided_loop.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace mlplugin {

bool isBinary(ElementWiseOp op) { return op >= ElementWiseOp::Add; }

const char* toString(ElementWiseOp op) {
    switch (op) {
    case ElementWiseOp::Identity: return "identity";
    case ElementWiseOp::Sqrt: return "sqrt";
    case ElementWiseOp::Reciprocal: return "reciprocal";
    case ElementWiseOp::Exp: return "exp";
    case ElementWiseOp::Log: return "log";
    case ElementWiseOp::Abs: return "abs";
    case ElementWiseOp::Negate: return "negate";
    case ElementWiseOp::Clip: return "clip";
    case ElementWiseOp::Activation: return "activation";
    case ElementWiseOp::Add: return "add";
    case ElementWiseOp::Subtract: return "subtract";
    case ElementWiseOp::Multiply: return "multiply";
    case ElementWiseOp::Divide: return "divide";
    case ElementWiseOp::Min: return "min";
    case ElementWiseOp::Max: return "max";
    case ElementWiseOp::Pow: return "pow";
    case ElementWiseOp::PRelu: return "prelu";
    }
    return "unknown";
}

namespace detail {
namespace {

constexpr uint32_t kElementwiseLocalSize = 256;
// Slots: a, b (bound empty for unary ops), output.
constexpr uint32_t kElementwiseOutputSlot = 2;
constexpr uint32_t kElementwiseOuterLoopSpecId = 18;  // OUTER_SIZE_0 in elementwise.comp

// Checks the desc; on success returns the strides of a and b addressed by output coordinates.
Result<std::vector<Dims>> validate(const PlanContext& pc, const ElementWiseDesc& d, const std::string& op) {
    if (uint32_t(d.op) > uint32_t(ElementWiseOp::PRelu))
        return invalidArgument(op + ": unknown operation " + std::to_string(uint32_t(d.op)));
    MLP_TRY(checkFusedActivation(d.activation, op));
    if (isBinary(d.op) && !d.b) return invalidArgument(op + ": " + toString(d.op) + " needs input b");
    if (!isBinary(d.op) && d.b) return invalidArgument(op + ": " + toString(d.op) + " is unary but input b is given");
    if (d.op == ElementWiseOp::Clip && !(d.clipMin <= d.clipMax))
        return invalidArgument(op + ": clip min " + floatString(d.clipMin) + " is greater than clip max " + floatString(d.clipMax));
    MLP_TRY(checkTensor(d.a, op, "input a", false, pc));
    if (d.b) MLP_TRY(checkTensor(*d.b, op, "input b", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));

    std::vector<Dims> strides;
    auto a = broadcastStrides(d.a, d.output, op + ": input a");
    MLP_TRY(a);
    strides.push_back(*a);
    if (d.b) {
        auto b = broadcastStrides(*d.b, d.output, op + ": input b");
        MLP_TRY(b);
        strides.push_back(*b);
    } else {
        strides.push_back(Dims{});
    }
    return strides;
}

uint32_t dtype(const TensorDesc& t) { return uint32_t(t.dataType); }

// b broadcast along everything but one dim (a per-channel slope, scale or bias: [1, C, 1, 1]),
// a and the output packed, the dims inside that one a multiple of 4: the packed vec4 path with b
// read once per 4 elements at ((i / inner) % channels) * stride. The generic path splits every
// element's index with runtime divisions and moves one element per access.
struct ChannelBroadcast {
    uint32_t inner = 0, channels = 0, stride = 0;
};

std::optional<ChannelBroadcast> channelBroadcast(const StridedLoop& loop, bool binary) {
    constexpr uint32_t last = kMaxTensorRank - 1;
    if (!binary || loop.rank < 2 || loop.rank > 3) return std::nullopt;
    const Dims& a = loop.strides[0];
    const Dims& b = loop.strides[1];
    const Dims& out = loop.strides[2];
    uint32_t inner = loop.sizes[last], channels = loop.sizes[last - 1];
    if (inner % 4 != 0 || a[last] != 1 || out[last] != 1 || b[last] != 0) return std::nullopt;
    if (a[last - 1] != inner || out[last - 1] != inner || b[last - 1] == 0) return std::nullopt;
    if (loop.rank == 3 && (a[last - 2] != inner * channels || out[last - 2] != inner * channels || b[last - 2] != 0)) return std::nullopt;
    return ChannelBroadcast{inner, channels, b[last - 1]};
}

}  // namespace

Result<Plan> planElementWise(const PlanContext& pc, const ElementWiseDesc& d) {
    const std::string op = describe("element_wise", d.name);
    auto inputStrides = validate(pc, d, op);
    MLP_TRY(inputStrides);

    std::vector<Dims> strides = *inputStrides;
    strides.push_back(d.output.effectiveStrides());
    StridedLoop loop = collapseLoop(d.output.sizes, d.output.rank, strides);

    bool anyF16 = d.a.dataType == DataType::Float16 || d.output.dataType == DataType::Float16 ||
                  (d.b && d.b->dataType == DataType::Float16);
    ScaleBias sb = d.inputScaleBias.value_or(ScaleBias{});
    PipelineSpec pipeline;
    pipeline.spirv = anyF16 && pc.fp16Storage ? shaders::elementwise_f16() : shaders::elementwise_f32();
    pipeline.debugName = "element_wise";
    pipeline.specConstants = {kElementwiseLocalSize, 1, 1, uint32_t(d.op), dtype(d.a), d.b ? dtype(*d.b) : 0u, dtype(d.output), kElementwiseOutputSlot,
                              uint32_t(d.activation.type), asUint(d.activation.alpha), asUint(d.activation.beta),
                              asUint(sb.scale), asUint(sb.bias), asUint(d.clipMin), asUint(d.clipMax),
                              loop.packed() ? 1u : 0u, loop.rank};
    const std::optional<ChannelBroadcast> perChannel = loop.packed() ? std::nullopt : channelBroadcast(loop, d.b.has_value());
    pipeline.specConstants.push_back(perChannel ? 1u : 0u);
    if (loop.rank > kPushLoopDims) appendOuterLoop(pipeline.specConstants, kElementwiseOuterLoopSpecId, loop.sizes, loop.strides);

    const uint64_t count = d.output.elementCount();
    Launch launch;
    pushWords(launch, {uint32_t(count)});
    if (loop.packed()) {
        launch.groups = linearGroups(divUp(count, 4), kElementwiseLocalSize);
    } else if (perChannel) {
        launch.groups = linearGroups(count / 4, kElementwiseLocalSize);
        pushWords(launch, {perChannel->inner, perChannel->channels, perChannel->stride});
    } else {
        launch.groups = linearGroups(count, kElementwiseLocalSize);
        pushInnerDims(launch, loop.sizes);
        for (const Dims& s : loop.strides) pushInnerDims(launch, s);
    }

    Plan plan;
    plan.pipelines.push_back(std::move(pipeline));
    plan.execute.push_back(launch);
    return plan;
}

namespace {

double evaluate(const ElementWiseDesc& d, double a, double b) {
    if (d.inputScaleBias) {
        a = a * d.inputScaleBias->scale + d.inputScaleBias->bias;
        b = b * d.inputScaleBias->scale + d.inputScaleBias->bias;
    }
    double y = a;
    switch (d.op) {
    case ElementWiseOp::Identity: case ElementWiseOp::Activation: y = a; break;
    case ElementWiseOp::Sqrt: y = std::sqrt(a); break;
    case ElementWiseOp::Reciprocal: y = 1 / a; break;
    case ElementWiseOp::Exp: y = std::exp(a); break;
    case ElementWiseOp::Log: y = std::log(a); break;
    case ElementWiseOp::Abs: y = std::fabs(a); break;
    case ElementWiseOp::Negate: y = -a; break;
    case ElementWiseOp::Clip: y = std::clamp(a, double(d.clipMin), double(d.clipMax)); break;
    case ElementWiseOp::Add: y = a + b; break;
    case ElementWiseOp::Subtract: y = a - b; break;
    case ElementWiseOp::Multiply: y = a * b; break;
    case ElementWiseOp::Divide: y = a / b; break;
    case ElementWiseOp::Min: y = std::min(a, b); break;
    case ElementWiseOp::Max: y = std::max(a, b); break;
    case ElementWiseOp::Pow: y = std::pow(a, b); break;
    case ElementWiseOp::PRelu: y = a >= 0 ? a : b * a; break;
    }
    return applyActivation(d.activation, y);
}

}  // namespace

Result<HostTensors> referenceElementWise(const ElementWiseDesc& d, const HostTensors& in) {
    const std::string op = describe("element_wise", d.name);
    PlanContext permissive;
    permissive.fp16Storage = true;  // the reference computes fp16 tensors in double
    auto strides = validate(permissive, d, op);
    MLP_TRY(strides);

    HostTensor out{d.output, std::vector<double>(elementSpan(d.output), 0.0)};
    const Dims outStrides = d.output.effectiveStrides();
    const bool halfOut = d.output.dataType == DataType::Float16;
    const uint64_t count = d.output.elementCount();
    for (uint64_t i = 0; i < count; ++i) {
        Dims c = coordinates(i, d.output.sizes, d.output.rank);
        double a = in[0].data[offsetOf(c, (*strides)[0], d.output.rank)];
        double b = d.b ? in[1].data[offsetOf(c, (*strides)[1], d.output.rank)] : 0.0;
        double y = evaluate(d, a, b);
        out.data[offsetOf(c, outStrides, d.output.rank)] = halfOut ? roundToHalf(y) : y;
    }
    return HostTensors{std::move(out)};
}

}  // namespace detail
}  // namespace mlplugin
