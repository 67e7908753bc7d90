#pragma once
// Checks an activation fused into a convolution or GEMM output.
#include "kernel.h"

namespace mlplugin::detail {

inline Status checkFusedActivation(const Activation& a, const std::string& op) {
    if (uint32_t(a.type) > uint32_t(ActivationType::GeluTanh))
        return invalidArgument(op + ": unknown activation " + std::to_string(uint32_t(a.type)));
    if (a.type == ActivationType::Softplus && a.alpha == 0.0f)
        return invalidArgument(op + ": softplus steepness (alpha) must not be 0");
    return {};
}

}  // namespace mlplugin::detail
