// createDevice: validates what the application passes, loads the plugin's function table,
// reads capabilities and creates the objects every dispatchable shares.
#include "device_impl.h"

#include "compiled_operator.h"

#include <vkutil/pipeline.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>
#include <variant>

namespace mlplugin {

Result<std::unique_ptr<Device>> createDevice(const DeviceDesc& desc) { return detail::DeviceImpl::create(desc); }

namespace detail {
namespace {

Status checkDesc(const DeviceDesc& desc) {
    if (!desc.getInstanceProcAddr) return invalidArgument("createDevice: DeviceDesc::getInstanceProcAddr is null (pass the loader's vkGetInstanceProcAddr)");
    if (!desc.instance) return invalidArgument("createDevice: DeviceDesc::instance is VK_NULL_HANDLE");
    if (!desc.physicalDevice) return invalidArgument("createDevice: DeviceDesc::physicalDevice is VK_NULL_HANDLE");
    if (!desc.device) return invalidArgument("createDevice: DeviceDesc::device is VK_NULL_HANDLE");
    if (!desc.shaderStorageBufferArrayDynamicIndexingEnabled)
        return unsupported("createDevice: the plugin requires shaderStorageBufferArrayDynamicIndexing enabled on the VkDevice "
                           "(set DeviceDesc::shaderStorageBufferArrayDynamicIndexingEnabled once it is)");
    if (desc.flags & ~uint32_t(DeviceFlagDebug)) return invalidArgument("createDevice: unknown DeviceFlags bits " + std::to_string(desc.flags));
    return {};
}

// Every kind the build knows, in OperatorDesc order.
template <size_t... I>
std::vector<std::string> allOperatorKinds(std::index_sequence<I...>) {
    return {operatorKind(OperatorDesc(std::in_place_index<I>))...};
}

DataType dataTypeOf(VkComponentTypeNV t) { return t == VK_COMPONENT_TYPE_FLOAT16_NV ? DataType::Float16 : DataType::Float32; }

}  // namespace

Result<std::unique_ptr<Device>> DeviceImpl::create(const DeviceDesc& desc) {
    MLP_TRY(checkDesc(desc));
    std::unique_ptr<DeviceImpl> device(new DeviceImpl());
    MLP_TRY(device->init(desc));
    return std::unique_ptr<Device>(std::move(device));
}

Status DeviceImpl::init(const DeviceDesc& desc) {
    Result<VulkanFunctions> fns = loadVulkanFunctions(desc.getInstanceProcAddr, desc.instance, desc.device);
    if (!fns) return fns.error();
    fns_ = *fns;
    physicalDevice_ = desc.physicalDevice;
    device_ = desc.device;
    flags_ = desc.flags;
    queueFamilyIndex_ = desc.queueFamilyIndex;
    MLP_TRY(queryCapabilities(desc));
    MLP_TRY(createLayouts());
    MLP_TRY(createNullBuffer());
    return createPipelineCache(desc);
}

// The application's cache, or ours seeded with a blob that passed every check; a blob that
// did not is reported, never an error.
Status DeviceImpl::createPipelineCache(const DeviceDesc& desc) {
    pipelines_ = std::make_unique<PipelineCache>(fns_, device_, pipelineLayout_);
    std::span<const uint8_t> initial;
    if (desc.pipelineCache) {
        cacheOrigin_ = PipelineCacheOrigin::Application;
    } else if (!desc.pipelineCacheData.empty()) {
        Result<std::span<const uint8_t>> payload = unwrapPipelineCacheData(desc.pipelineCacheData, cacheIdentity_);
        if (payload) {
            initial = *payload;
            cacheOrigin_ = PipelineCacheOrigin::Restored;
        } else {
            cacheOrigin_ = PipelineCacheOrigin::Rejected;
            cacheRejection_ = payload.error().message;
        }
    }
    return pipelines_->init(desc.pipelineCache, initial);
}

Result<std::vector<uint8_t>> DeviceImpl::pipelineCacheData() const {
    Result<std::vector<uint8_t>> data = pipelines_->vulkanData();
    if (!data) return data.error();
    return wrapPipelineCacheData(*data);
}

Status DeviceImpl::queryCapabilities(const DeviceDesc& desc) {
    uint32_t familyCount = 0;
    fns_.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, nullptr);
    if (desc.queueFamilyIndex >= familyCount)
        return invalidArgument("createDevice: queueFamilyIndex " + std::to_string(desc.queueFamilyIndex) + " is out of range (the device has " +
                               std::to_string(familyCount) + " queue families)");
    std::vector<VkQueueFamilyProperties> families(familyCount);
    fns_.vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, families.data());
    if (!(families[desc.queueFamilyIndex].queueFlags & VK_QUEUE_COMPUTE_BIT))
        return invalidArgument("createDevice: queue family " + std::to_string(desc.queueFamilyIndex) + " does not support compute");

    VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES, &p12};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p11};
    fns_.vkGetPhysicalDeviceProperties2(physicalDevice_, &props);
    if (props.properties.apiVersion < VK_API_VERSION_1_3) return unsupported("createDevice: the plugin requires a Vulkan 1.3 device");

    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f11};
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    fns_.vkGetPhysicalDeviceFeatures2(physicalDevice_, &features);
    if (!features.features.shaderStorageBufferArrayDynamicIndexing)
        return unsupported("createDevice: the physical device lacks shaderStorageBufferArrayDynamicIndexing");
    if (desc.storageBuffer16BitAccessEnabled && !f11.storageBuffer16BitAccess)
        return invalidArgument("createDevice: storageBuffer16BitAccessEnabled is set but the physical device does not support storageBuffer16BitAccess");
    if (desc.shaderFloat16Enabled && !f12.shaderFloat16)
        return invalidArgument("createDevice: shaderFloat16Enabled is set but the physical device does not support shaderFloat16");

    const VkPhysicalDeviceLimits& limits = props.properties.limits;
    caps_.deviceName = props.properties.deviceName;
    cacheIdentity_.vendorID = props.properties.vendorID;
    cacheIdentity_.deviceID = props.properties.deviceID;
    std::copy(std::begin(props.properties.pipelineCacheUUID), std::end(props.properties.pipelineCacheUUID), cacheIdentity_.uuid.begin());
    caps_.driverInfo = std::string(p12.driverName) + " " + p12.driverInfo;
    caps_.fp16Storage = desc.storageBuffer16BitAccessEnabled;
    caps_.fp16Arithmetic = desc.shaderFloat16Enabled;
    caps_.subgroupSize = p11.subgroupSize;
    caps_.maxComputeSharedMemoryBytes = limits.maxComputeSharedMemorySize;
    caps_.maxStorageBufferRange = limits.maxStorageBufferRange;
    caps_.minStorageBufferOffsetAlignment = limits.minStorageBufferOffsetAlignment;
    if (desc.cooperativeMatrixNVEnabled) {
        if (!hasExtension(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME))
            return invalidArgument("createDevice: cooperativeMatrixNVEnabled is set but the physical device does not support " VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
        if (!f12.vulkanMemoryModel)
            return invalidArgument("createDevice: cooperativeMatrixNVEnabled is set but the physical device does not support vulkanMemoryModel, "
                                   "which the tensor-core shaders declare");
        if (!fns_.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)
            return invalidArgument("createDevice: cooperativeMatrixNVEnabled is set but vkGetPhysicalDeviceCooperativeMatrixPropertiesNV is unavailable");
        uint32_t n = 0;
        if (VkResult r = fns_.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV(physicalDevice_, &n, nullptr); r != VK_SUCCESS)
            return vulkanError(r, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
        std::vector<VkCooperativeMatrixPropertiesNV> shapes(n, {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV});
        if (VkResult r = fns_.vkGetPhysicalDeviceCooperativeMatrixPropertiesNV(physicalDevice_, &n, shapes.data()); r != VK_SUCCESS)
            return vulkanError(r, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
        for (const auto& s : shapes) {
            bool fp = s.AType == VK_COMPONENT_TYPE_FLOAT16_NV && s.BType == VK_COMPONENT_TYPE_FLOAT16_NV &&
                      (s.DType == VK_COMPONENT_TYPE_FLOAT16_NV || s.DType == VK_COMPONENT_TYPE_FLOAT32_NV) && s.scope == VK_SCOPE_SUBGROUP_NV;
            if (fp) caps_.cooperativeMatrixShapes.push_back({s.MSize, s.NSize, s.KSize, DataType::Float16, dataTypeOf(s.DType)});
        }
        caps_.cooperativeMatrixNV = !caps_.cooperativeMatrixShapes.empty();
    }

    featureLevel_.operators = allOperatorKinds(std::make_index_sequence<std::variant_size_v<OperatorDesc>>());
    featureLevel_.dataTypes = {DataType::Float32};
    if (caps_.fp16Storage && caps_.fp16Arithmetic) featureLevel_.dataTypes.push_back(DataType::Float16);
    return {};
}

bool DeviceImpl::hasExtension(const char* name) const {
    uint32_t count = 0;
    if (fns_.vkEnumerateDeviceExtensionProperties(physicalDevice_, nullptr, &count, nullptr) != VK_SUCCESS) return false;
    std::vector<VkExtensionProperties> extensions(count);
    if (fns_.vkEnumerateDeviceExtensionProperties(physicalDevice_, nullptr, &count, extensions.data()) != VK_SUCCESS) return false;
    for (const VkExtensionProperties& e : extensions)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

Status DeviceImpl::createLayouts() {
    const VkDescriptorType storage = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (VkResult r = vkutil::createDescriptorSetLayout(fns_, device_, {&storage, 1}, VK_SHADER_STAGE_COMPUTE_BIT, &setLayout_, kDescriptorsPerSet);
        r != VK_SUCCESS)
        return vulkanError(r, "vkCreateDescriptorSetLayout");
    if (VkResult r = vkutil::createPipelineLayout(fns_, device_, {.setLayouts = {&setLayout_, 1}, .pushConstantBytes = kMaxPushWords * 4}, &pipelineLayout_);
        r != VK_SUCCESS)
        return vulkanError(r, "vkCreatePipelineLayout");
    setObjectName(fns_, device_, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, uint64_t(setLayout_), "mlplugin descriptor set layout");
    setObjectName(fns_, device_, VK_OBJECT_TYPE_PIPELINE_LAYOUT, uint64_t(pipelineLayout_), "mlplugin pipeline layout");
    return {};
}

Status DeviceImpl::createNullBuffer() {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = 256;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (VkResult r = fns_.vkCreateBuffer(device_, &bci, nullptr, &nullBuffer_); r != VK_SUCCESS) return vulkanError(r, "vkCreateBuffer (null buffer)");
    VkMemoryRequirements req;
    fns_.vkGetBufferMemoryRequirements(device_, nullBuffer_, &req);
    VkPhysicalDeviceMemoryProperties mp;
    fns_.vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &mp);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; ++i)
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) type = i;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; ++i)
        if (req.memoryTypeBits & (1u << i)) type = i;
    if (type == UINT32_MAX) return unsupported("createDevice: no memory type for a storage buffer");
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type;
    if (VkResult r = fns_.vkAllocateMemory(device_, &mai, nullptr, &nullMemory_); r != VK_SUCCESS) return vulkanError(r, "vkAllocateMemory (null buffer)");
    if (VkResult r = fns_.vkBindBufferMemory(device_, nullBuffer_, nullMemory_, 0); r != VK_SUCCESS) return vulkanError(r, "vkBindBufferMemory (null buffer)");
    setObjectName(fns_, device_, VK_OBJECT_TYPE_BUFFER, uint64_t(nullBuffer_), "mlplugin null buffer (unbound slots)");
    return {};
}

DeviceImpl::~DeviceImpl() {
    pipelines_.reset();
    if (!device_) return;
    if (nullBuffer_) fns_.vkDestroyBuffer(device_, nullBuffer_, nullptr);
    if (nullMemory_) fns_.vkFreeMemory(device_, nullMemory_, nullptr);
    if (pipelineLayout_) fns_.vkDestroyPipelineLayout(device_, pipelineLayout_, nullptr);
    if (setLayout_) fns_.vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
}

PlanContext planContextFor(const Capabilities& caps, uint32_t executionFlags, std::shared_ptr<const TuningTable> tuning) {
    PlanContext pc;
    pc.caps = &caps;
    pc.fp16Storage = caps.fp16Storage && caps.fp16Arithmetic;
    pc.fp16Arithmetic = pc.fp16Storage && (executionFlags & ExecutionFlagAllowHalfPrecisionComputation);
    pc.cooperativeMatrix = caps.cooperativeMatrixNV && !(executionFlags & ExecutionFlagDisableCooperativeMatrix);
    pc.executionFlags = executionFlags;
    pc.tuning = std::move(tuning);
    return pc;
}

PlanContext DeviceImpl::planContext(uint32_t executionFlags) const { return planContextFor(caps_, executionFlags, tuning_); }

Result<std::unique_ptr<CompiledOperator>> DeviceImpl::compileOperator(const OperatorDesc& desc, uint32_t executionFlags) {
    return detail::compileOperator(*this, desc, executionFlags);
}

}  // namespace detail
}  // namespace mlplugin
