#pragma once
/// \file
/// CommandRecorder: records a dispatchable into an application command buffer
/// (IDMLCommandRecorder::RecordDispatch). Contract, as in DirectML:
///  - it binds its own pipelines, descriptor sets and push constants (the application's
///    compute bindings are disturbed; rebind after);
///  - between its own internal passes it records the barriers they need; on the application's
///    resources it records none: make inputs visible to compute-shader reads before, and
///    outputs visible to their consumers after (recordComputeBarrier helps for compute->compute);
///  - the bound buffers, descriptor sets and the dispatchable must stay alive until the GPU
///    has finished the command buffer.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <vulkan/vulkan.h>

#include <memory>

MLPLUGIN_API_BEGIN
namespace mlplugin {

class BindingTable;
class CommandBundle;
class Device;
class Dispatchable;

/// Records dispatchables into command buffers (created by Device::createCommandRecorder). It
/// holds no per-record state: one recorder serves any number of dispatchables and command
/// buffers, from one thread at a time.
class CommandRecorder {
public:
    virtual ~CommandRecorder() = default;
    /// Fails (records nothing) when a required binding is missing or the table belongs to
    /// another dispatchable; with DeviceFlagDebug, also on any mismatch the debug layer finds.
    virtual Status record(VkCommandBuffer cmd, const Dispatchable& dispatchable, const BindingTable& bindings) = 0;
    /// Records `dispatchable` with `bindings` once into a secondary command buffer of a command
    /// pool of its own (queue family DeviceDesc::queueFamilyIndex) and returns it as a bundle
    /// to execute every frame (command_bundle.h has the contract). Fails as record() does; also
    /// OutOfMemory (or DeviceLost) when Vulkan cannot create the pool or command buffer.
    virtual Result<std::unique_ptr<CommandBundle>> recordBundle(const Dispatchable& dispatchable, const BindingTable& bindings) = 0;
};

/// A compute-write -> compute-read/write memory barrier (a UAV barrier): what an application
/// records between two dependent dispatches.
void recordComputeBarrier(const Device& device, VkCommandBuffer cmd);

}  // namespace mlplugin
MLPLUGIN_API_END
