#include "ops/normalization_common.h"

#include "ml_shaders.h"
#include "ops/fused_activation.h"

#include <cmath>

namespace mlplugin::detail {

Status checkEpsilonAndActivation(float epsilon, const Activation& activation, const std::string& op) {
    if (!(epsilon >= 0) || !std::isfinite(epsilon))
        return invalidArgument(op + ": epsilon " + floatString(epsilon) + " must be finite and >= 0");
    return checkFusedActivation(activation, op);
}

Status checkAxesMask(uint32_t axesMask, uint32_t rank, const std::string& op) {
    if (axesMask == 0) return invalidArgument(op + ": axesMask is empty (name at least one dim)");
    if (axesMask >> rank)
        return invalidArgument(op + ": axesMask " + std::to_string(axesMask) + " names dims beyond the input's rank " +
                               std::to_string(rank));
    return {};
}

Result<uint32_t> channelStride(const TensorDesc& t, uint32_t channels, const std::string& what) {
    if (t.elementCount() != channels)
        return invalidArgument(what + " " + sizesString(t) + " holds " + std::to_string(t.elementCount()) +
                               " values, expected one per channel (" + std::to_string(channels) + ")");
    if (channels == 1) return 0u;
    const Dims strides = t.effectiveStrides();
    for (uint32_t i = 0; i < t.rank; ++i)
        if (t.sizes[i] == channels) return strides[i];
    return invalidArgument(what + " " + sizesString(t) + " must hold its " + std::to_string(channels) + " values along one dim");
}

ConstantSource constantSource(Plan& plan, const PlanContext& pc, const TensorDesc& t, uint32_t inputSlot) {
    if (!t.ownedByPlugin()) return {inputSlot, uint32_t(t.dataType), 0};
    constexpr uint32_t kLocalSize = 64;
    const uint64_t span = elementSpan(t);
    const uint32_t base = uint32_t(plan.persistentBytes / sizeof(float));

    PipelineSpec p;
    p.spirv = pc.fp16Storage && t.dataType == DataType::Float16 ? shaders::normalization_pack_f16()
                                                                 : shaders::normalization_pack_f32();
    p.debugName = "normalization_pack";
    p.specConstants = {kLocalSize, 1, 1, inputSlot, uint32_t(t.dataType)};
    plan.pipelines.push_back(std::move(p));

    Launch launch;
    launch.pipeline = uint32_t(plan.pipelines.size() - 1);
    launch.groups = linearGroups(span, kLocalSize);
    pushWords(launch, {uint32_t(span), base});
    // Packs write disjoint ranges, but every launch writes through the same descriptor array, so
    // synchronization validation cannot tell them apart. The initializer runs once: serialize.
    launch.barrierBefore = !plan.initialize.empty();
    plan.initialize.push_back(launch);
    plan.persistentBytes += (span * sizeof(float) + 15) & ~uint64_t(15);
    return {kPersistentSlot, uint32_t(DataType::Float32), base};
}

}  // namespace mlplugin::detail
