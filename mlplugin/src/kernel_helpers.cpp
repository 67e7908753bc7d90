#include "kernel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace mlplugin::detail {

std::string describe(const char* kind, const std::string& name) {
    return name.empty() ? std::string(kind) : std::string(kind) + " '" + name + "'";
}

void pushWords(Launch& launch, std::initializer_list<uint32_t> words) {
    assert(launch.pushWords + words.size() <= kMaxPushWords && "push constants exceed 128 bytes");
    for (uint32_t w : words) launch.push[launch.pushWords++] = w;
}

std::array<uint32_t, 3> linearGroups(uint64_t count, uint32_t localSize) {
    uint64_t groups = std::max<uint64_t>(1, (count + localSize - 1) / localSize);
    if (groups <= 65535) return {uint32_t(groups), 1, 1};
    uint32_t x = 65535;
    uint64_t y = (groups + x - 1) / x;
    assert(y <= 65535 && "dispatch too large");
    return {x, uint32_t(y), 1};
}

Status checkTensor(const TensorDesc& t, const std::string& op, const char* field, bool isOutput, const PlanContext& pc) {
    std::string what = op + " " + field;
    MLP_TRY(validateTensor(t, what, isOutput));
    if (t.dataType == DataType::Float16 && !pc.fp16Storage)
        return unsupported(what + " is fp16 but the device was created without 16-bit storage and shaderFloat16");
    if (pc.caps && pc.caps->maxStorageBufferRange && t.requiredBytes() > pc.caps->maxStorageBufferRange)
        return unsupported(what + " " + t.toString() + " needs " + std::to_string(t.requiredBytes()) +
                           " bytes, more than the device's maxStorageBufferRange " + std::to_string(pc.caps->maxStorageBufferRange));
    if (isOutput && t.ownedByPlugin()) return invalidArgument(what + ": only inputs can be owned by the plugin");
    return {};
}

Status checkSameSizes(const TensorDesc& a, const TensorDesc& b, const std::string& op, const char* fa, const char* fb) {
    auto sizes = [](const TensorDesc& t) {
        std::string s = "[";
        for (uint32_t i = 0; i < t.rank && i < kMaxTensorRank; ++i) s += (i ? "," : "") + std::to_string(t.sizes[i]);
        return s + "]";
    };
    bool same = a.rank == b.rank;
    for (uint32_t i = 0; same && i < a.rank && i < kMaxTensorRank; ++i) same = a.sizes[i] == b.sizes[i];
    if (!same) return invalidArgument(op + ": " + fa + " sizes " + sizes(a) + " differ from " + fb + " sizes " + sizes(b));
    return {};
}

double applyActivation(const Activation& a, double x) {
    switch (a.type) {
    case ActivationType::None: return x;
    case ActivationType::Linear: return a.alpha * x + a.beta;
    case ActivationType::Relu: return std::max(x, 0.0);
    case ActivationType::LeakyRelu: return x >= 0 ? x : a.alpha * x;
    case ActivationType::Elu: return x >= 0 ? x : a.alpha * (std::exp(x) - 1);
    case ActivationType::Selu: return a.beta * (x > 0 ? x : a.alpha * (std::exp(x) - 1));
    case ActivationType::Sigmoid: return 1 / (1 + std::exp(-x));
    case ActivationType::HardSigmoid: return std::clamp(a.alpha * x + a.beta, 0.0, 1.0);
    case ActivationType::Tanh: return std::tanh(x);
    case ActivationType::Softplus: return std::log1p(std::exp(a.alpha * x)) / a.alpha;
    case ActivationType::Gelu: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
    case ActivationType::Silu: return x / (1 + std::exp(-x));
    case ActivationType::HardSwish: return x * std::clamp(x / 6 + 0.5, 0.0, 1.0);
    case ActivationType::GeluTanh: return 0.5 * x * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
    }
    return x;
}

}  // namespace mlplugin::detail
