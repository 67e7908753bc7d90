#pragma once
/// \file
/// Dispatchables: compiled operators (and compiled graphs) and operator initializers.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <cstdint>
#include <span>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// One descriptor set of the device's layout holds this many storage-buffer descriptors.
inline constexpr uint32_t kDescriptorsPerSet = 16;
/// Start offsets of bound temporary / persistent ranges must be multiples of these.
inline constexpr uint64_t kTemporaryAlignment = 256;
/// Start offsets of bound persistent ranges must be multiples of this.
inline constexpr uint64_t kPersistentAlignment = 256;

/// Device::compileOperator / compileGraph flags.
enum ExecutionFlags : uint32_t {
    ExecutionFlagNone = 0,  ///< no flag
    /// Allow fp16 arithmetic (not only fp16 storage) where the device supports it. Without it,
    /// fp16 tensors are computed with fp32 accumulation.
    ExecutionFlagAllowHalfPrecisionComputation = 1u << 0,
    /// Never use tensor cores (VK_NV_cooperative_matrix); for testing the portable path.
    ExecutionFlagDisableCooperativeMatrix = 1u << 1,
    /// For testing: use tensor cores wherever their kernels can run, also where the portable
    /// kernel measured faster (e.g. convolutions with few input channels). No effect without
    /// VK_NV_cooperative_matrix or with ExecutionFlagDisableCooperativeMatrix.
    ExecutionFlagForceCooperativeMatrix = 1u << 2,
};

/// What an application must provide to record a dispatchable (DML_BINDING_PROPERTIES).
/// Query it for every dispatchable; never assume two are alike.
struct BindingProperties {
    uint32_t descriptorSetCount = 0;  ///< sets of Device::descriptorSetLayout() in the range
    uint32_t descriptorCount = 0;     ///< = descriptorSetCount * kDescriptorsPerSet
    uint64_t temporaryBytes = 0;      ///< 0: no temporary resource
    uint64_t persistentBytes = 0;     ///< 0: no persistent resource
};

/// Something a CommandRecorder records: a CompiledOperator or an OperatorInitializer.
class Dispatchable {
public:
    virtual ~Dispatchable() = default;
    /// Descriptor sets, temporary and persistent bytes the application provides.
    virtual BindingProperties bindingProperties() const = 0;
    /// The operator's name (or kind), for messages.
    virtual const std::string& name() const = 0;
};

/// An operator (or graph) compiled for a device: pipelines and layout decisions, immutable.
/// Created by Device::compileOperator or compileGraph.
class CompiledOperator : public Dispatchable {
public:
    /// Number of input/output binding slots (bindInputs/bindOutputs take exactly this many).
    virtual uint32_t inputCount() const = 0;
    /// Number of output binding slots.
    virtual uint32_t outputCount() const = 0;
};

/// Fills the persistent resources of its operators (re-laid-out, converted weights) in one
/// recorded dispatch sequence. Bindings: inputs = each operator's inputs in order (only the
/// TensorFlagOwnedByPlugin ones bound, the rest empty); outputs = each operator's persistent
/// resource (empty for operators with persistentBytes == 0).
class OperatorInitializer : public Dispatchable {
public:
    /// Re-targets the initializer to other operators (their BindingProperties may differ).
    virtual Status reset(std::span<CompiledOperator* const> operators) = 0;
    /// Number of input binding slots: the operators' inputs, concatenated.
    virtual uint32_t inputCount() const = 0;
    /// Number of output binding slots: one per operator.
    virtual uint32_t outputCount() const = 0;
};

}  // namespace mlplugin
MLPLUGIN_API_END
