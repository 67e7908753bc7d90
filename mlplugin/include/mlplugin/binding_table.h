#pragma once
// BindingTable: writes a dispatchable's buffer descriptors into a descriptor range the
// application owns (DML binding table over a descriptor-heap range). It writes only into its
// range; it holds no references: the application keeps buffers and descriptor sets alive and
// does not rewrite a range the GPU may still be reading (use one range per frame in flight).
// A table bound once can be recorded every frame while its resources do not change.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>

MLPLUGIN_API_BEGIN
namespace mlplugin {

class Dispatchable;

// A range of buffer memory. An empty binding (buffer == VK_NULL_HANDLE) leaves a slot unbound:
// for absent optional tensors and, at execution, for tensors owned by the plugin.
struct BufferBinding {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;  // bytes; must cover the tensor's requiredBytes()
};

// `setCount` descriptor sets allocated with Device::descriptorSetLayout(); at least
// BindingProperties::descriptorSetCount of them.
struct DescriptorRange {
    const VkDescriptorSet* sets = nullptr;
    uint32_t setCount = 0;
};

struct BindingTableDesc {
    const Dispatchable* dispatchable = nullptr;
    DescriptorRange range;
};

class BindingTable {
public:
    virtual ~BindingTable() = default;
    // Re-targets the table to another dispatchable and/or range and clears all bindings.
    virtual Status reset(const BindingTableDesc& desc) = 0;
    // Exactly inputCount()/outputCount() bindings, in operator order.
    virtual Status bindInputs(std::span<const BufferBinding> bindings) = 0;
    virtual Status bindOutputs(std::span<const BufferBinding> bindings) = 0;
    virtual Status bindTemporary(const BufferBinding& binding) = 0;
    virtual Status bindPersistent(const BufferBinding& binding) = 0;
};

}  // namespace mlplugin
MLPLUGIN_API_END
