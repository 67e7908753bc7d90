// queryDeviceSupport and DeviceFeatureChain: what the application enables on its VkDevice for
// the plugin, read before that device exists (so through instance-level functions only).
#include "mlplugin/device_support.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace mlplugin {

namespace {

template <typename Fn>
Result<Fn> instanceFunction(PFN_vkGetInstanceProcAddr gipa, VkInstance instance, const char* name) {
    auto fn = reinterpret_cast<Fn>(gipa(instance, name));
    if (!fn) return unsupported(std::string("queryDeviceSupport: the Vulkan loader does not provide ") + name);
    return fn;
}

}  // namespace

Result<DeviceSupport> queryDeviceSupport(VkInstance instance, VkPhysicalDevice physicalDevice, PFN_vkGetInstanceProcAddr getInstanceProcAddr) {
    if (!getInstanceProcAddr) return invalidArgument("queryDeviceSupport: getInstanceProcAddr is null (pass the loader's vkGetInstanceProcAddr)");
    if (!instance) return invalidArgument("queryDeviceSupport: instance is VK_NULL_HANDLE");
    if (!physicalDevice) return invalidArgument("queryDeviceSupport: physicalDevice is VK_NULL_HANDLE");
    auto properties = instanceFunction<PFN_vkGetPhysicalDeviceProperties>(getInstanceProcAddr, instance, "vkGetPhysicalDeviceProperties");
    auto features2 = instanceFunction<PFN_vkGetPhysicalDeviceFeatures2>(getInstanceProcAddr, instance, "vkGetPhysicalDeviceFeatures2");
    auto extensionList = instanceFunction<PFN_vkEnumerateDeviceExtensionProperties>(getInstanceProcAddr, instance, "vkEnumerateDeviceExtensionProperties");
    if (!properties) return properties.error();
    if (!features2) return features2.error();
    if (!extensionList) return extensionList.error();

    DeviceSupport s;
    VkPhysicalDeviceProperties props{};
    (*properties)(physicalDevice, &props);
    s.vulkan13 = props.apiVersion >= VK_API_VERSION_1_3;

    uint32_t count = 0;
    VkResult r = (*extensionList)(physicalDevice, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    if (r == VK_SUCCESS || r == VK_INCOMPLETE) r = (*extensionList)(physicalDevice, nullptr, &count, extensions.data());
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) return vulkanError(r, "queryDeviceSupport: vkEnumerateDeviceExtensionProperties");
    extensions.resize(count);
    const bool hasCooperativeMatrix = std::any_of(extensions.begin(), extensions.end(), [](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME) == 0;
    });

    // The 1.3 structure only where the device knows it; the extension's only where it exists.
    VkPhysicalDeviceCooperativeMatrixFeaturesNV coop{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, hasCooperativeMatrix ? &coop : nullptr};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, s.vulkan13 ? static_cast<void*>(&f13) : f13.pNext};
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f12};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f11};
    (*features2)(physicalDevice, &features);
    s.shaderStorageBufferArrayDynamicIndexing = features.features.shaderStorageBufferArrayDynamicIndexing;
    s.synchronization2 = s.vulkan13 && f13.synchronization2;
    s.maintenance4 = s.vulkan13 && f13.maintenance4;
    s.storageBuffer16BitAccess = f11.storageBuffer16BitAccess;
    s.shaderFloat16 = f12.shaderFloat16;
    // The tensor-core shaders declare the VulkanMemoryModel capability (their scoped barriers), so
    // the extension is only usable with that 1.2 feature enabled too.
    s.cooperativeMatrixNV = hasCooperativeMatrix && coop.cooperativeMatrix && f12.vulkanMemoryModel;
    s.vulkanMemoryModelDeviceScope = f12.vulkanMemoryModelDeviceScope;
    if (s.cooperativeMatrixNV) s.extensions.push_back(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
    return s;
}

std::string DeviceSupport::missingRequired() const {
    std::vector<const char*> missing;
    if (!vulkan13) missing.push_back("Vulkan 1.3");
    if (!shaderStorageBufferArrayDynamicIndexing) missing.push_back("shaderStorageBufferArrayDynamicIndexing");
    if (!synchronization2) missing.push_back("synchronization2");
    if (!maintenance4) missing.push_back("maintenance4");
    if (missing.empty()) return {};
    std::string out = "the device lacks what the plugin requires: ";
    for (size_t i = 0; i < missing.size(); ++i) out += (i ? ", " : "") + std::string(missing[i]);
    return out;
}

DeviceFeatureChain::DeviceFeatureChain(const DeviceSupport& support, void* next) {
    cooperativeMatrix_.pNext = next;
    cooperativeMatrix_.cooperativeMatrix = support.cooperativeMatrixNV;
    vulkan13_.pNext = support.cooperativeMatrixNV ? static_cast<void*>(&cooperativeMatrix_) : next;
    vulkan13_.synchronization2 = support.synchronization2;
    vulkan13_.maintenance4 = support.maintenance4;
    vulkan12_.pNext = &vulkan13_;
    vulkan12_.shaderFloat16 = support.fp16();
    vulkan12_.vulkanMemoryModel = support.cooperativeMatrixNV;
    vulkan12_.vulkanMemoryModelDeviceScope = support.cooperativeMatrixNV && support.vulkanMemoryModelDeviceScope;
    vulkan11_.pNext = &vulkan12_;
    vulkan11_.storageBuffer16BitAccess = support.fp16();
    features_.pNext = &vulkan11_;
    features_.features.shaderStorageBufferArrayDynamicIndexing = support.shaderStorageBufferArrayDynamicIndexing;
}

}  // namespace mlplugin
