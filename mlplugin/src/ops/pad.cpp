// Pad with a constant, the edge value, a reflection or a periodic repeat (ONNX Pad modes), any
// rank up to 8 (kMaxTensorRank).
#include "index_util.h"
#include "ops/strided_loop.h"
#include "ml_shaders.h"

#include <algorithm>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kPadLocalSize = 128;
constexpr uint32_t kPadOuterLoopSpecId = 7;  // OUTER_OUT_SIZE_0 in pad.comp

Status checkPad(const PlanContext& pc, const PadDesc& d) {
    std::string op = opLabel("pad", d.name);
    MLP_TRY(checkTensor(d.input, op, "input", false, pc));
    MLP_TRY(checkTensor(d.output, op, "output", true, pc));
    if (d.mode != PadMode::Constant && d.mode != PadMode::Edge && d.mode != PadMode::Reflect && d.mode != PadMode::Wrap)
        return invalidArgument(op + ": unknown mode " + str(uint32_t(d.mode)));
    uint32_t rank = d.input.rank;
    Index expected{};
    for (uint32_t k = 0; k < rank; ++k) {
        uint64_t padded = uint64_t(d.input.sizes[k]) + d.padBegin[k] + d.padEnd[k];
        // Not clamped: a clamped size let an output shorter than input + pads pass.
        if (padded > UINT32_MAX)
            return invalidArgument(op + ": dim " + str(k) + " padded to " + str(padded) + " exceeds 2^32 - 1");
        expected[k] = uint32_t(padded);
        if (d.mode == PadMode::Reflect && std::max(d.padBegin[k], d.padEnd[k]) >= d.input.sizes[k])
            return invalidArgument(op + ": reflect pads of dim " + str(k) + " (begin " + str(d.padBegin[k]) + ", end " +
                                   str(d.padEnd[k]) + ") must be smaller than the input size " + str(d.input.sizes[k]));
    }
    return checkSizes(op, "output", d.output, expected, rank);
}

// Input index read for output index `o` of one dim, or -1 for the constant.
int64_t sourceIndex(PadMode mode, int64_t o, uint32_t padBegin, uint32_t inSize) {
    int64_t i = o - padBegin, last = int64_t(inSize) - 1;
    if (i >= 0 && i <= last) return i;
    if (mode == PadMode::Constant) return -1;
    if (mode == PadMode::Edge) return std::clamp<int64_t>(i, 0, last);
    if (mode == PadMode::Wrap) return ((i % int64_t(inSize)) + int64_t(inSize)) % int64_t(inSize);
    return i < 0 ? -i : 2 * last - i;
}

}  // namespace

Result<Plan> planPad(const PlanContext& pc, const PadDesc& d) {
    MLP_TRY(checkPad(pc, d));
    // Dims right-aligned in kMaxTensorRank: the inner kPushLoopDims in push constants, the
    // outer ones (tensors above rank 5) as specialization constants (pad.comp).
    auto is = d.input.effectiveStrides();
    auto os = d.output.effectiveStrides();
    Dims outSizes = onesDims(), inSizes = onesDims(), padBegin{}, inStrides{}, outStrides{};
    const uint32_t lead = kMaxTensorRank - d.input.rank;
    for (uint32_t k = 0; k < d.input.rank; ++k) {
        outSizes[lead + k] = d.output.sizes[k];
        inSizes[lead + k] = d.input.sizes[k];
        padBegin[lead + k] = d.padBegin[k];
        inStrides[lead + k] = is[k];
        outStrides[lead + k] = os[k];
    }
    Plan plan;
    PipelineSpec spec;
    spec.spirv = anyFp16({&d.input, &d.output}) ? shaders::pad_f16() : shaders::pad_f32();
    spec.specConstants = {kPadLocalSize, 1, 1, d.input.rank, uint32_t(d.mode), dtypeCode(d.input), dtypeCode(d.output)};
    if (d.input.rank > kPushLoopDims) appendOuterLoop(spec.specConstants, kPadOuterLoopSpecId, outSizes, {inSizes, padBegin, inStrides, outStrides});
    spec.debugName = "pad";
    Launch launch;
    launch.pipeline = addPipeline(plan, std::move(spec));
    launch.groups = linearGroups(d.output.elementCount(), kPadLocalSize);
    pushWords(launch, {uint32_t(d.output.elementCount()), asUint(d.value)});
    for (uint32_t k = kSpecLoopDims; k < kMaxTensorRank; ++k)
        pushWords(launch, {outSizes[k], inSizes[k], padBegin[k], inStrides[k], outStrides[k]});
    plan.execute.push_back(launch);
    return plan;
}

Result<HostTensors> referencePad(const PadDesc& d, const HostTensors& in) {
    MLP_TRY(checkPad(referenceContext(), d));
    HostTensor out = makeHostTensor(d.output);
    forEachIndex(d.output, [&](const Index& o) {
        Index i{};
        bool inside = true;
        for (uint32_t k = 0; k < d.input.rank; ++k) {
            int64_t s = sourceIndex(d.mode, o[k], d.padBegin[k], d.input.sizes[k]);
            inside = inside && s >= 0;
            i[k] = uint32_t(std::max<int64_t>(s, 0));
        }
        double v = inside ? in[0].data[offsetOf(d.input, i)] : double(d.value);
        storeValue(out, offsetOf(d.output, o), v);
    });
    return HostTensors{std::move(out)};
}

}  // namespace mlplugin::detail
