#pragma once
/// \file
/// BindingTable: writes a dispatchable's buffer descriptors into a descriptor range the
/// application owns (DML binding table over a descriptor-heap range). It writes only into its
/// range; it holds no references: the application keeps buffers and descriptor sets alive and
/// does not rewrite a range the GPU may still be reading (use one range per frame in flight).
/// A table bound once can be recorded every frame while its resources do not change.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

MLPLUGIN_API_BEGIN
namespace mlplugin {

class Dispatchable;

/// A range of buffer memory. An empty binding (buffer == VK_NULL_HANDLE) leaves a slot unbound:
/// for absent optional tensors and, at execution, for tensors owned by the plugin.
struct BufferBinding {
    VkBuffer buffer = VK_NULL_HANDLE;  ///< VK_NULL_HANDLE: an empty binding
    VkDeviceSize offset = 0;  ///< bytes; a multiple of kTensorAlignment (and of the device's minStorageBufferOffsetAlignment)
    VkDeviceSize size = 0;  ///< bytes; must cover the tensor's requiredBytes()
};

/// `setCount` descriptor sets allocated with Device::descriptorSetLayout(); at least
/// BindingProperties::descriptorSetCount of them.
struct DescriptorRange {
    const VkDescriptorSet* sets = nullptr;  ///< the first set of the range
    uint32_t setCount = 0;  ///< number of sets
};

/// What a binding table binds and where it writes its descriptors.
struct BindingTableDesc {
    const Dispatchable* dispatchable = nullptr;  ///< a compiled operator or an initializer; it must outlive the table
    DescriptorRange range;  ///< the application's descriptor sets the table writes
};

/// Binds buffers to a dispatchable's slots by writing descriptors into the application's sets
/// (created by Device::createBindingTable). Every bind call validates sizes, offsets and alignment
/// and fails with a message naming the slot; nothing is written on failure.
class BindingTable {
public:
    virtual ~BindingTable() = default;
    /// Re-targets the table to another dispatchable and/or range and clears all bindings.
    virtual Status reset(const BindingTableDesc& desc) = 0;
    /// Exactly inputCount()/outputCount() bindings, in operator order.
    virtual Status bindInputs(std::span<const BufferBinding> bindings) = 0;
    /// Exactly outputCount() bindings, in operator order.
    virtual Status bindOutputs(std::span<const BufferBinding> bindings) = 0;
    /// The temporary resource: at least BindingProperties::temporaryBytes, offset a multiple of
    /// kTemporaryAlignment; contents need not survive between records.
    virtual Status bindTemporary(const BufferBinding& binding) = 0;
    /// The persistent resource: at least BindingProperties::persistentBytes, offset a multiple of
    /// kPersistentAlignment, filled by the OperatorInitializer before the first record.
    virtual Status bindPersistent(const BufferBinding& binding) = 0;
};

}  // namespace mlplugin
MLPLUGIN_API_END
