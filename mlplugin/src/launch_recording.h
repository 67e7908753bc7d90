#pragma once
// What CommandRecorder::record and CommandRecorder::recordBundle share: the checks before a
// dispatchable is recorded with a binding table, and the recording of its launches.
#include "binding_table_impl.h"
#include "device_impl.h"
#include "dispatchable_impl.h"

namespace mlplugin::detail {

// The dispatchable's and the table's record-time checks; on success `*impl` and `*table` are
// the implementations behind them. `checkReady` (debug devices): also that the dispatchable can
// run now (its persistent resource initialized), which a bundle checks when it is executed, not
// when it is recorded (the initializer may be executed in the same primary, just before).
Status checkBeforeRecord(const DeviceImpl& device, const Dispatchable& dispatchable, const BindingTable& bindings, bool checkReady,
                         const DispatchableImpl** impl, const BindingTableImpl** table);

// Binds, pushes and dispatches every launch of `d` with `table`'s sets into `cmd`, with a
// compute barrier before each launch that depends on an earlier one. No allocation.
void recordLaunches(const DeviceImpl& device, VkCommandBuffer cmd, const DispatchableImpl& d, const BindingTableImpl& table);

// The compute-write -> compute-read/write barrier between dependent launches.
void computeBarrier(const VulkanFunctions& fns, VkCommandBuffer cmd);

}  // namespace mlplugin::detail
