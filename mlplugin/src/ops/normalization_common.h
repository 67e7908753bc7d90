#pragma once
// Validation and constant-placement helpers shared by the normalization and reduction planners.
#include "ops/strided_loop.h"

namespace mlplugin::detail {

Status checkEpsilonAndActivation(float epsilon, const Activation& activation, const std::string& op);
// axesMask names at least one dim and none at or beyond `rank`.
Status checkAxesMask(uint32_t axesMask, uint32_t rank, const std::string& op);

// A per-channel tensor holds exactly `channels` values along one dim: returns that dim's stride
// (0 when channels == 1). `what` names it ("batch_normalization 'bn': mean").
Result<uint32_t> channelStride(const TensorDesc& t, uint32_t channels, const std::string& what);

// Where a kernel reads a constant input: its own slot, or for a plugin-owned tensor, its fp32
// copy in the persistent resource (at element `base`), which this adds to `plan`: persistent
// bytes, and an initializer launch that packs the tensor's element span there.
struct ConstantSource {
    uint32_t slot = 0;
    uint32_t dtype = 0;  // DataType as a spec constant
    uint32_t base = 0;   // element offset within the slot
};
ConstantSource constantSource(Plan& plan, const PlanContext& pc, const TensorDesc& t, uint32_t inputSlot);

}  // namespace mlplugin::detail
