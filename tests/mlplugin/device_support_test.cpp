// queryDeviceSupport and DeviceFeatureChain: what an application enables on its own VkDevice for
// the plugin, checked by creating such a device (validation on) and a plugin Device over it.
#include "framework_fixture.h"

#include "mlplugin/device_support.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace mlplugin;
using ::testing::HasSubstr;

namespace {

class DeviceSupportTest : public testsupport::VulkanTest {
protected:
    Result<DeviceSupport> query() { return queryDeviceSupport(ctx().instance(), ctx().physicalDevice(), vkGetInstanceProcAddr); }
};

// The structures of a chain in order, by sType.
std::vector<VkStructureType> chainTypes(const void* head) {
    std::vector<VkStructureType> types;
    for (auto* s = static_cast<const VkBaseInStructure*>(head); s; s = s->pNext) types.push_back(s->sType);
    return types;
}

TEST_F(DeviceSupportTest, ReportsWhatTheDeviceOffers) {
    Result<DeviceSupport> s = query();
    ASSERT_TRUE(s.ok()) << s.error().message;
    // The engine's context enables what the device offers: the query must agree with it.
    EXPECT_TRUE(s->vulkan13);
    EXPECT_TRUE(s->shaderStorageBufferArrayDynamicIndexing);
    EXPECT_TRUE(s->synchronization2);
    EXPECT_TRUE(s->maintenance4);
    EXPECT_EQ(s->missingRequired(), "");
    EXPECT_EQ(s->storageBuffer16BitAccess, ctx().features().storageBuffer16BitAccess);
    EXPECT_EQ(s->shaderFloat16, ctx().features().shaderFloat16);
    EXPECT_EQ(s->cooperativeMatrixNV, ctx().features().cooperativeMatrixNV);
    const bool listsCoop = s->extensions.size() == 1 && std::strcmp(s->extensions[0], VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME) == 0;
    EXPECT_EQ(listsCoop, s->cooperativeMatrixNV);
    EXPECT_EQ(s->extensions.size(), s->cooperativeMatrixNV ? 1u : 0u);
}

TEST_F(DeviceSupportTest, NamesTheNullArgument) {
    Result<DeviceSupport> r = queryDeviceSupport(ctx().instance(), ctx().physicalDevice(), nullptr);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    EXPECT_THAT(r.error().message, HasSubstr("getInstanceProcAddr is null"));
    r = queryDeviceSupport(VK_NULL_HANDLE, ctx().physicalDevice(), vkGetInstanceProcAddr);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("instance is VK_NULL_HANDLE"));
    r = queryDeviceSupport(ctx().instance(), VK_NULL_HANDLE, vkGetInstanceProcAddr);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    EXPECT_THAT(r.error().message, HasSubstr("physicalDevice is VK_NULL_HANDLE"));
}

TEST_F(DeviceSupportTest, MissingRequiredNamesEachAbsentFeature) {
    DeviceSupport none;
    EXPECT_EQ(none.missingRequired(),
              "the device lacks what the plugin requires: Vulkan 1.3, shaderStorageBufferArrayDynamicIndexing, synchronization2, maintenance4");
    DeviceSupport some;
    some.vulkan13 = some.shaderStorageBufferArrayDynamicIndexing = some.synchronization2 = true;
    EXPECT_EQ(some.missingRequired(), "the device lacks what the plugin requires: maintenance4");
}

TEST_F(DeviceSupportTest, ChainEnablesExactlyWhatIsOffered) {
    DeviceSupport s;
    s.vulkan13 = s.shaderStorageBufferArrayDynamicIndexing = s.synchronization2 = s.maintenance4 = true;
    s.storageBuffer16BitAccess = true;  // without shaderFloat16: no fp16 at all
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR appOwn{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    {
        DeviceFeatureChain chain(s, &appOwn);
        EXPECT_EQ(chainTypes(chain.head()),
                  (std::vector<VkStructureType>{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                                VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR}));
        EXPECT_FALSE(chain.vulkan11().storageBuffer16BitAccess);
        EXPECT_FALSE(chain.vulkan12().shaderFloat16);
        EXPECT_FALSE(chain.vulkan12().vulkanMemoryModel);  // only for the tensor cores
        EXPECT_TRUE(chain.vulkan13().synchronization2 && chain.vulkan13().maintenance4);
        EXPECT_TRUE(chain.features().features.shaderStorageBufferArrayDynamicIndexing);
        EXPECT_FALSE(chain.features().features.robustBufferAccess);
    }
    s.shaderFloat16 = true;
    s.cooperativeMatrixNV = true;
    DeviceFeatureChain chain(s);
    const std::vector<VkStructureType> types = chainTypes(chain.head());
    ASSERT_EQ(types.size(), 5u);
    EXPECT_EQ(types.back(), VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV);
    EXPECT_TRUE(static_cast<const VkPhysicalDeviceCooperativeMatrixFeaturesNV*>(chain.vulkan13().pNext)->cooperativeMatrix);
    EXPECT_TRUE(chain.vulkan11().storageBuffer16BitAccess && chain.vulkan12().shaderFloat16);
    // The tensor-core shaders declare the VulkanMemoryModel capability: the chain enables it.
    EXPECT_TRUE(chain.vulkan12().vulkanMemoryModel);
    EXPECT_FALSE(chain.vulkan12().vulkanMemoryModelDeviceScope);  // not offered in `s`
}

// An application's own device, created only from the query and the chain (the validation layer
// checks every structure against the physical device), then a plugin Device over it whose
// capabilities match what was offered.
TEST_F(DeviceSupportTest, ADeviceFromTheChainIsAcceptedByThePlugin) {
    Result<DeviceSupport> s = query();
    ASSERT_TRUE(s.ok()) << s.error().message;
    DeviceFeatureChain chain(*s);
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queue.queueFamilyIndex = ctx().queueFamily();
    queue.queueCount = 1;
    queue.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, chain.head()};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &queue;
    dci.enabledExtensionCount = uint32_t(s->extensions.size());
    dci.ppEnabledExtensionNames = s->extensions.data();
    VkDevice device = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDevice(ctx().physicalDevice(), &dci, nullptr, &device), VK_SUCCESS);
    {
        DeviceDesc desc;
        desc.instance = ctx().instance();
        desc.physicalDevice = ctx().physicalDevice();
        desc.device = device;
        desc.queueFamilyIndex = ctx().queueFamily();
        desc.getInstanceProcAddr = vkGetInstanceProcAddr;
        s->describeEnabled(desc);
        EXPECT_TRUE(desc.shaderStorageBufferArrayDynamicIndexingEnabled);
        Result<std::unique_ptr<Device>> plugin = createDevice(desc);
        ASSERT_TRUE(plugin.ok()) << plugin.error().message;
        EXPECT_EQ((*plugin)->capabilities().fp16Storage, s->fp16());
        EXPECT_EQ((*plugin)->capabilities().fp16Arithmetic, s->fp16());
        EXPECT_EQ((*plugin)->capabilities().cooperativeMatrixNV, s->cooperativeMatrixNV);
    }
    vkDestroyDevice(device, nullptr);
}

}  // namespace
