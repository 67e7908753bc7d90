// Planner for fused element-wise chains (graph compilation; see kernel.h). The steps were
// validated as ordinary element-wise operators when the graph was built; here the chain's own
// constraints are checked and its tensors collapsed into one strided loop.
#include "kernel.h"
#include "ml_shaders.h"
#include "ops/strided_loop.h"

namespace mlplugin::detail {
namespace {

constexpr uint32_t kChainLocalSize = 256;
constexpr uint32_t kSpecPerStep = 11;
constexpr uint32_t kChainOuterLoopSpecId = 40;  // OUTER_SIZE_0 in elementwise_chain.comp

}  // namespace

Result<Plan> planElementWiseChain(const PlanContext& pc, const ElementWiseChain& c) {
    const std::string op = describe("element_wise chain", c.name);
    if (c.steps.empty() || c.steps.size() > kMaxChainSteps || c.inputs.size() != kMaxChainSteps + 1 || !c.inputs[0])
        return invalidArgument(op + ": a chain has 1.." + std::to_string(kMaxChainSteps) + " steps and input a");
    MLP_TRY(checkTensor(c.output, op, "output", true, pc));
    std::vector<Dims> strides;
    bool anyF16 = c.output.dataType == DataType::Float16;
    for (size_t i = 0; i < c.inputs.size(); ++i) {
        const TensorDesc* t = c.inputs[i];
        bool binaryStep = i == 0 || c.steps.size() > i - 1;
        if (!t || !binaryStep) { strides.push_back(Dims{}); continue; }
        MLP_TRY(checkTensor(*t, op, "input", false, pc));
        auto s = broadcastStrides(*t, c.output, op + ": input " + std::to_string(i));
        MLP_TRY(s);
        strides.push_back(*s);
        anyF16 |= t->dataType == DataType::Float16;
    }
    strides.push_back(c.output.effectiveStrides());
    StridedLoop loop = collapseLoop(c.output.sizes, c.output.rank, strides);

    PipelineSpec pipeline;
    pipeline.spirv = anyF16 && pc.fp16Storage ? shaders::elementwise_chain_f16() : shaders::elementwise_chain_f32();
    pipeline.debugName = "element_wise_chain";
    std::vector<uint32_t>& spec = pipeline.specConstants;
    spec = {kChainLocalSize, 1, 1, uint32_t(c.steps.size()), loop.rank, uint32_t(c.output.dataType), uint32_t(c.inputs[0]->dataType)};
    for (size_t s = 0; s < kMaxChainSteps; ++s) {
        ElementWiseDesc step = s < c.steps.size() ? c.steps[s] : ElementWiseDesc{};
        const TensorDesc* b = c.inputs[s + 1];
        ScaleBias sb = step.inputScaleBias.value_or(ScaleBias{});
        bool binary = s < c.steps.size() && isBinary(step.op);
        if (binary && !b) return invalidArgument(op + ": step " + std::to_string(s) + " (" + toString(step.op) + ") has no input b");
        spec.insert(spec.end(), {uint32_t(step.op), b ? uint32_t(b->dataType) : 0u, binary ? 1u : 0u, uint32_t(step.activation.type),
                                 asUint(step.activation.alpha), asUint(step.activation.beta), asUint(sb.scale), asUint(sb.bias),
                                 asUint(step.clipMin), asUint(step.clipMax), 0u});
    }
    static_assert(kSpecPerStep == 11);
    if (loop.rank > kPushLoopDims) appendOuterLoop(spec, kChainOuterLoopSpecId, loop.sizes, loop.strides);

    const uint64_t count = c.output.elementCount();
    Launch launch;
    launch.groups = linearGroups(count, kChainLocalSize);
    pushWords(launch, {uint32_t(count)});
    pushInnerDims(launch, loop.sizes);
    for (const Dims& s : loop.strides) pushInnerDims(launch, s);

    Plan plan;
    plan.pipelines.push_back(std::move(pipeline));
    plan.execute.push_back(launch);
    return plan;
}

}  // namespace mlplugin::detail
