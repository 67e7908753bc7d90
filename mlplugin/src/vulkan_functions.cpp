#include "vulkan_functions.h"

#include <string>

namespace mlplugin::detail {

Result<VulkanFunctions> loadVulkanFunctions(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, VkDevice device) {
    if (!gipa) return invalidArgument("DeviceDesc::getInstanceProcAddr is null: pass the loader's vkGetInstanceProcAddr");
    VulkanFunctions f;
#define MLP_LOAD_INSTANCE(name)                                                              \
    f.name = reinterpret_cast<PFN_##name>(gipa(instance, #name));                            \
    if (!f.name) return unsupported("vkGetInstanceProcAddr returned null for " #name);
    MLP_INSTANCE_FUNCTIONS(MLP_LOAD_INSTANCE)
#undef MLP_LOAD_INSTANCE
    f.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
        gipa(instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
    f.vkSetDebugUtilsObjectNameEXT = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(gipa(instance, "vkSetDebugUtilsObjectNameEXT"));
    // Device-level entry points through vkGetDeviceProcAddr skip the loader's dispatch trampoline.
#define MLP_LOAD_DEVICE(name)                                                                \
    f.name = reinterpret_cast<PFN_##name>(f.vkGetDeviceProcAddr(device, #name));             \
    if (!f.name) return unsupported("vkGetDeviceProcAddr returned null for " #name " (Vulkan 1.3 required)");
    MLP_DEVICE_FUNCTIONS(MLP_LOAD_DEVICE)
#undef MLP_LOAD_DEVICE
    return f;
}

void setObjectName(const VulkanFunctions& fns, VkDevice device, VkObjectType type, uint64_t handle, const char* name) {
    if (!fns.vkSetDebugUtilsObjectNameEXT || !name || !*name) return;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, nullptr, type, handle, name};
    // Naming is best effort: a failure changes nothing the plugin does.
    (void)fns.vkSetDebugUtilsObjectNameEXT(device, &info);
}

}  // namespace mlplugin::detail
