#pragma once
/// \file
/// What to enable on a VkDevice for the plugin and the effects built on it, asked before the
/// application creates that device (the counterpart of XeSS's xessVKGetRequiredDeviceExtensions /
/// xessVKGetRequiredDeviceFeatures and NGX's feature requirements).
///
/// The plugin cannot enable anything itself: the application creates the VkDevice. Without
/// VK_NV_cooperative_matrix enabled the networks run on the portable kernels, 5-7x slower on a
/// GPU with tensor cores (bench/RESULTS.md); without fp16 they run in fp32. So:
///
///     mlplugin::Result<mlplugin::DeviceSupport> support =
///         mlplugin::queryDeviceSupport(instance, physicalDevice, vkGetInstanceProcAddr);
///     if (!support) ...;                                   // a null handle, a loader without Vulkan 1.1
///     if (!support->missingRequired().empty()) ...;        // this GPU cannot run the plugin
///     mlplugin::DeviceFeatureChain features(*support);     // or set the same members in your own chain
///     VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, features.head()};
///     dci.enabledExtensionCount = uint32_t(support->extensions.size());
///     dci.ppEnabledExtensionNames = support->extensions.data();   // plus the application's own
///     ... vkCreateDevice ...
///     mlplugin::DeviceDesc desc{instance, physicalDevice, device, family, vkGetInstanceProcAddr};
///     support->describeEnabled(desc);                      // the "...Enabled" members (also of effects::EffectDevice)
///
/// Threading: both are free of shared state. Errors: InvalidArgument names the null argument;
/// Unsupported when the loader lacks a Vulkan 1.1 query.
#include "mlplugin/export.h"
#include "mlplugin/result.h"

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// What a physical device offers of what the plugin requires and uses (queryDeviceSupport).
struct DeviceSupport {
    /// Required: createDevice refuses a device without them (missingRequired() names any absent).
    bool vulkan13 = false;  ///< the device reports Vulkan 1.3 or later
    bool shaderStorageBufferArrayDynamicIndexing = false;  ///< VkPhysicalDeviceFeatures
    bool synchronization2 = false;  ///< Vulkan 1.3: the plugin records vkCmdPipelineBarrier2
    bool maintenance4 = false;  ///< Vulkan 1.3: workgroup sizes from specialization constants
    /// Optional, fp16 tensors and arithmetic (networks run in fp16 where both are enabled).
    bool storageBuffer16BitAccess = false;  ///< Vulkan 1.1 feature
    bool shaderFloat16 = false;  ///< Vulkan 1.2 feature
    /// Optional, tensor-core kernels: the VK_NV_cooperative_matrix extension with its feature, and
    /// the Vulkan 1.2 feature vulkanMemoryModel (the tensor-core shaders declare the
    /// VulkanMemoryModel capability); true only when all three are offered.
    bool cooperativeMatrixNV = false;
    /// Vulkan 1.2 vulkanMemoryModelDeviceScope: enabled beside vulkanMemoryModel when offered.
    bool vulkanMemoryModelDeviceScope = false;
    /// The device extensions to enable for what is offered (VK_NV_cooperative_matrix when
    /// cooperativeMatrixNV): string literals, valid for the program's lifetime.
    std::vector<const char*> extensions;

    /// fp16 tensors need both 16-bit storage and shaderFloat16.
    bool fp16() const { return storageBuffer16BitAccess && shaderFloat16; }
    /// Empty when every required feature is present, else a sentence naming each missing one.
    std::string missingRequired() const;
    /// Sets the "...Enabled" members of `desc` (a DeviceDesc, or an effects::EffectDevice, which
    /// has the same four) as a device created with DeviceFeatureChain(*this) and `extensions`
    /// has them: fp16 only when both halves are offered.
    template <typename Desc>
    void describeEnabled(Desc& desc) const {
        desc.shaderStorageBufferArrayDynamicIndexingEnabled = shaderStorageBufferArrayDynamicIndexing;
        desc.storageBuffer16BitAccessEnabled = fp16();
        desc.shaderFloat16Enabled = fp16();
        desc.cooperativeMatrixNVEnabled = cooperativeMatrixNV;
    }
};

/// Reads what `physicalDevice` offers (features, Vulkan version, extensions) through the
/// application's loader entry point. `instance` must be the one `physicalDevice` came from.
Result<DeviceSupport> queryDeviceSupport(VkInstance instance, VkPhysicalDevice physicalDevice,
                                         PFN_vkGetInstanceProcAddr getInstanceProcAddr);

/// The feature structures that enable every required feature and every offered optional one,
/// for VkDeviceCreateInfo::pNext (pEnabledFeatures must then be null): VkPhysicalDeviceFeatures2,
/// the Vulkan 1.1, 1.2 and 1.3 feature structures, and VkPhysicalDeviceCooperativeMatrixFeaturesNV
/// when offered (with vulkanMemoryModel, and vulkanMemoryModelDeviceScope where offered), then `next`. It enables nothing else (the application ORs in what it needs, or
/// sets the same members in a chain of its own: Vulkan forbids two structures of one type).
/// The structures point at each other, so the object is neither copied nor moved; it must live
/// until vkCreateDevice returns.
class DeviceFeatureChain {
public:
    /// The chain for `support`; `next` (optional) is linked after the last structure.
    explicit DeviceFeatureChain(const DeviceSupport& support, void* next = nullptr);
    DeviceFeatureChain(const DeviceFeatureChain&) = delete;
    DeviceFeatureChain& operator=(const DeviceFeatureChain&) = delete;

    /// The head of the chain, for VkDeviceCreateInfo::pNext.
    void* head() { return &features_; }
    /// The structures, to add the application's own features before vkCreateDevice.
    VkPhysicalDeviceFeatures2& features() { return features_; }
    VkPhysicalDeviceVulkan11Features& vulkan11() { return vulkan11_; }  ///< Vulkan 1.1 features
    VkPhysicalDeviceVulkan12Features& vulkan12() { return vulkan12_; }  ///< Vulkan 1.2 features
    VkPhysicalDeviceVulkan13Features& vulkan13() { return vulkan13_; }  ///< Vulkan 1.3 features

private:
    VkPhysicalDeviceCooperativeMatrixFeaturesNV cooperativeMatrix_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceVulkan13Features vulkan13_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features vulkan12_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features vulkan11_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceFeatures2 features_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
};

}  // namespace mlplugin
MLPLUGIN_API_END
