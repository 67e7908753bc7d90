#pragma once
// Internal: an engine context as the description the plugin (mlplugin::DeviceDesc) and the
// effects (effects::EffectDevice) are created from. Both name these members alike.
#include "engine/context.h"

namespace bridge::detail {

template <class Desc>
Desc describeDevice(const engine::Context& ctx) {
    Desc d;
    d.instance = ctx.instance();
    d.physicalDevice = ctx.physicalDevice();
    d.device = ctx.device();
    d.queueFamilyIndex = ctx.queueFamily();
    d.getInstanceProcAddr = ctx.libraryProcAddr();  // the library's allocations count against the context's budget
    d.shaderStorageBufferArrayDynamicIndexingEnabled = true;  // engine::Context enables it
    d.storageBuffer16BitAccessEnabled = ctx.features().storageBuffer16BitAccess;
    d.shaderFloat16Enabled = ctx.features().shaderFloat16;
    d.cooperativeMatrixNVEnabled = ctx.features().cooperativeMatrixNV;
    return d;
}

}  // namespace bridge::detail
