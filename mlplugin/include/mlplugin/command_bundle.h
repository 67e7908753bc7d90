#pragma once
/// \file
/// CommandBundle: a dispatchable recorded once, with one binding table, into a secondary command
/// buffer the plugin owns (a D3D12 bundle). Executing it costs one vkCmdExecuteCommands per
/// frame instead of the bind, push-constant, dispatch and barrier calls of every internal pass,
/// which is what recording a network costs on the CPU (bench/RESULTS.md, "Recording").
///
/// Contract:
///  - created by CommandRecorder::recordBundle, for the queue family of DeviceDesc::queueFamilyIndex;
///  - executed into **primary** command buffers only (a secondary cannot execute another
///    without VK_EXT_nested_command_buffer); record() remains the path for secondaries;
///  - what it records is what CommandRecorder::record records: the same accesses and internal
///    barriers, none on the application's resources (command_recorder.h); after execution the
///    primary's compute bindings (pipeline, descriptor sets, push constants) are undefined, as
///    after any vkCmdExecuteCommands: rebind before the next dispatch of your own;
///  - it may be executed any number of times and in several pending primaries at once (it is
///    recorded with VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT); the resources it reads and
///    writes are the application's to order, as with record();
///  - it goes **stale** when its binding table's descriptors are written again (reset or any
///    bind) or its dispatchable is reset: execute() then fails and records nothing; record a
///    new bundle. Descriptor sets written behind the table's back (by the application itself)
///    are not detected and make the bundle invalid in Vulkan's terms;
///  - the dispatchable, the binding table and its descriptor sets must outlive the bundle, and
///    the bundle must outlive every command buffer that executed it until the GPU has
///    finished it (destroying it frees its command buffer);
///  - thread safety: execute() is const and touches only the primary it records into; one
///    thread at a time per primary, as Vulkan requires.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <vulkan/vulkan.h>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// A pre-recorded dispatchable (CommandRecorder::recordBundle).
class CommandBundle {
public:
    virtual ~CommandBundle() = default;
    /// Records the bundle into `primary` (one vkCmdExecuteCommands). Fails, recording nothing,
    /// when `primary` is VK_NULL_HANDLE or the bundle is stale (the error says why).
    virtual Status execute(VkCommandBuffer primary) const = 0;
    /// Whether execute() would accept the bundle: false once its binding table was written again
    /// or its dispatchable reset.
    virtual bool current() const = 0;
};

}  // namespace mlplugin
MLPLUGIN_API_END
