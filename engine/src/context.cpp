#include "engine/context.h"

#include "device_state.h"
#include "engine/error.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>

namespace engine {

struct Context::Messenger {
    std::function<void(MessageSeverity, const char*)> onMessage;
    bool verbose = false;
    std::atomic<uint64_t> count{0};
};

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data,
                                             void* user) {
    auto* m = static_cast<Context::Messenger*>(user);
    MessageSeverity s = MessageSeverity::Verbose;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) s = MessageSeverity::Error;
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) s = MessageSeverity::Warning;
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) s = MessageSeverity::Info;
    if (s >= MessageSeverity::Warning) m->count.fetch_add(1);
    if (s < MessageSeverity::Warning && !m->verbose) return VK_FALSE;
    const char* text = data && data->pMessage ? data->pMessage : "(no message)";
    if (m->onMessage) {
        m->onMessage(s, text);
    } else {
        std::fprintf(stderr, "[vulkan %s] %s\n", s == MessageSeverity::Error ? "error" : s == MessageSeverity::Warning ? "warning" : "info", text);
    }
    return VK_FALSE;
}

bool hasLayer(const char* name) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, nullptr);
    std::vector<VkLayerProperties> layers(n);
    vkEnumerateInstanceLayerProperties(&n, layers.data());
    return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

std::vector<VkExtensionProperties> deviceExtensions(VkPhysicalDevice pd) {
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts(n);
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
    return exts;
}

bool hasExtension(const std::vector<VkExtensionProperties>& exts, const char* name) {
    return std::any_of(exts.begin(), exts.end(), [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

uint32_t graphicsComputeFamily(VkPhysicalDevice pd) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> fams(n);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
    for (uint32_t i = 0; i < n; ++i) {
        VkQueueFlags f = fams[i].queueFlags;
        if ((f & VK_QUEUE_GRAPHICS_BIT) && (f & VK_QUEUE_COMPUTE_BIT)) return i;
    }
    return UINT32_MAX;
}

uint32_t asyncComputeFamily(VkPhysicalDevice pd) {
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> fams(n);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
    for (uint32_t i = 0; i < n; ++i) {
        VkQueueFlags f = fams[i].queueFlags;
        if ((f & VK_QUEUE_COMPUTE_BIT) && !(f & VK_QUEUE_GRAPHICS_BIT)) return i;
    }
    return UINT32_MAX;
}

// Empty string when the device qualifies, else the reason it does not.
std::string unsuitableReason(VkPhysicalDevice pd) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_3) return "supports Vulkan " + std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." + std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) + ", 1.3 is required";
    if (graphicsComputeFamily(pd) == UINT32_MAX) return "has no queue family with both graphics and compute";
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    if (!f13.synchronization2) return "lacks synchronization2";
    if (!f13.dynamicRendering) return "lacks dynamicRendering";
    return {};
}

}  // namespace

std::vector<PhysicalDeviceInfo> Context::listDevices() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance;
    ENGINE_VK(vkCreateInstance(&ici, nullptr, &instance));
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    std::vector<VkPhysicalDevice> pds(n);
    vkEnumeratePhysicalDevices(instance, &n, pds.data());
    std::vector<PhysicalDeviceInfo> out;
    for (uint32_t i = 0; i < n; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        std::string why = unsuitableReason(pds[i]);
        out.push_back({i, p.deviceName, p.deviceType, p.apiVersion, why.empty(), why});
    }
    vkDestroyInstance(instance, nullptr);
    return out;
}

Context::Context(const ContextDesc& desc) {
    messengerState_ = std::make_unique<Messenger>();
    messengerState_->onMessage = desc.onMessage;
    messengerState_->verbose = desc.verbose;
    state_ = std::make_unique<DeviceState>();
    state_->budget = desc.deviceMemoryBudgetBytes;
    try {
        createInstance(desc);
        pickPhysicalDevice(desc);
        createDevice(desc);
    } catch (...) {
        destroy();
        throw;
    }
}

Context::~Context() { destroy(); }

void Context::destroy() {
    if (device_) {
        vkDeviceWaitIdle(device_);  // shutdown only (a lost device returns at once)
        registerDevice(device_, nullptr);
        if (uploadPool_) vkDestroyCommandPool(device_, uploadPool_, nullptr);
        vkDestroyDevice(device_, nullptr);
        device_ = VK_NULL_HANDLE;
    }
    if (messenger_) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy) destroy(instance_, messenger_, nullptr);
        messenger_ = VK_NULL_HANDLE;
    }
    if (instance_) {
        vkDestroyInstance(instance_, nullptr);
        instance_ = VK_NULL_HANDLE;
    }
}

void Context::createInstance(const ContextDesc& desc) {
    validation_ = desc.validation;
    const char* layerName = "VK_LAYER_KHRONOS_validation";
    if (validation_ && !hasLayer(layerName))
        throw Error(ErrorCode::Unsupported, "validation requested but VK_LAYER_KHRONOS_validation is not installed (Debian: apt-get install vulkan-validationlayers)");

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = desc.applicationName.c_str();
    app.pEngineName = "vkml";
    app.apiVersion = VK_API_VERSION_1_3;

    std::vector<const char*> extensions = desc.instanceExtensions;
    if (validation_) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

    VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                          (desc.verbose ? uint32_t(VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) : 0u);
    mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                      VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    mci.pfnUserCallback = debugCallback;
    mci.pUserData = messengerState_.get();

    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT vf{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    vf.enabledValidationFeatureCount = desc.synchronizationValidation ? 1 : 0;
    vf.pEnabledValidationFeatures = enables;
    vf.pNext = &mci;

    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    if (validation_) {
        ici.enabledLayerCount = 1;
        ici.ppEnabledLayerNames = &layerName;
        ici.pNext = &vf;
    }
    VkResult r = vkCreateInstance(&ici, nullptr, &instance_);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw Error(ErrorCode::Unsupported, "no Vulkan driver found (VK_ERROR_INCOMPATIBLE_DRIVER); on a GPU-less Debian machine install mesa-vulkan-drivers for lavapipe", r);
    ENGINE_VK(r);
    if (validation_) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
        if (!create) throw Error(ErrorCode::Unsupported, "vkCreateDebugUtilsMessengerEXT is unavailable although the validation layer is enabled");
        ENGINE_VK(create(instance_, &mci, nullptr, &messenger_));
    }
}

void Context::pickPhysicalDevice(const ContextDesc& desc) {
    uint32_t n = 0;
    ENGINE_VK(vkEnumeratePhysicalDevices(instance_, &n, nullptr));
    if (n == 0) throw Error(ErrorCode::Unsupported, "no Vulkan physical device found; on a GPU-less Debian machine install mesa-vulkan-drivers for lavapipe");
    std::vector<VkPhysicalDevice> pds(n);
    ENGINE_VK(vkEnumeratePhysicalDevices(instance_, &n, pds.data()));

    auto describe = [&](uint32_t i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        return std::string(p.deviceName);
    };
    auto require = [&](uint32_t i) {
        std::string why = unsuitableReason(pds[i]);
        if (!why.empty()) throw Error(ErrorCode::Unsupported, "Vulkan device " + std::to_string(i) + " (" + describe(i) + ") cannot be used: it " + why);
        physicalDevice_ = pds[i];
    };
    if (desc.deviceIndex) {
        if (*desc.deviceIndex >= n)
            throw Error("device index " + std::to_string(*desc.deviceIndex) + " is out of range: " + std::to_string(n) + " Vulkan device(s) present");
        require(*desc.deviceIndex);
        return;
    }
    if (!desc.deviceNameContains.empty()) {
        for (uint32_t i = 0; i < n; ++i)
            if (describe(i).find(desc.deviceNameContains) != std::string::npos) return require(i);
        throw Error("no Vulkan device name contains '" + desc.deviceNameContains + "'");
    }
    int best = -1;
    for (uint32_t i = 0; i < n; ++i) {
        if (!unsuitableReason(pds[i]).empty()) continue;
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU) { best = int(i); break; }
        if (best < 0) best = int(i);
    }
    if (best < 0) {
        std::string reasons;
        for (uint32_t i = 0; i < n; ++i) reasons += "\n  " + std::to_string(i) + ": " + describe(i) + " " + unsuitableReason(pds[i]);
        throw Error(ErrorCode::Unsupported, "no suitable Vulkan device (Vulkan 1.3 with graphics+compute, synchronization2, dynamic rendering):" + reasons);
    }
    physicalDevice_ = pds[best];
}

void Context::createDevice(const ContextDesc& desc) {
    vkGetPhysicalDeviceProperties(physicalDevice_, &properties_);
    deviceName_ = properties_.deviceName;
    auto exts = deviceExtensions(physicalDevice_);

    VkPhysicalDeviceVulkan11Features s11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features s12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &s11};
    VkPhysicalDeviceVulkan13Features s13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &s12};
    VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &s13};
    vkGetPhysicalDeviceFeatures2(physicalDevice_, &supported);

    VkPhysicalDeviceVulkan11Features e11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &e11};
    VkPhysicalDeviceVulkan13Features e13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &e12};
    VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &e13};
    e13.synchronization2 = VK_TRUE;
    e13.dynamicRendering = VK_TRUE;
    e13.subgroupSizeControl = s13.subgroupSizeControl;
    e13.computeFullSubgroups = s13.computeFullSubgroups;
    e13.maintenance4 = s13.maintenance4;
    e13.pipelineCreationCacheControl = s13.pipelineCreationCacheControl;  // required by 1.3; lets tools probe caches
    e12.shaderFloat16 = s12.shaderFloat16;
    e12.shaderInt8 = s12.shaderInt8;
    e12.storageBuffer8BitAccess = s12.storageBuffer8BitAccess;
    e12.hostQueryReset = s12.hostQueryReset;
    e12.timelineSemaphore = s12.timelineSemaphore;
    e12.scalarBlockLayout = s12.scalarBlockLayout;
    e12.vulkanMemoryModel = s12.vulkanMemoryModel;
    e11.storageBuffer16BitAccess = s11.storageBuffer16BitAccess;
    e11.uniformAndStorageBuffer16BitAccess = s11.uniformAndStorageBuffer16BitAccess;
    e11.storagePushConstant16 = s11.storagePushConstant16;
    enabled.features.shaderInt16 = supported.features.shaderInt16;
    enabled.features.shaderInt64 = supported.features.shaderInt64;
    enabled.features.shaderStorageImageWriteWithoutFormat = supported.features.shaderStorageImageWriteWithoutFormat;
    enabled.features.shaderStorageBufferArrayDynamicIndexing = supported.features.shaderStorageBufferArrayDynamicIndexing;
    enabled.features.samplerAnisotropy = supported.features.samplerAnisotropy;
    enabled.features.fillModeNonSolid = supported.features.fillModeNonSolid;
    enabled.features.robustBufferAccess = VK_FALSE;  // bounds are validated on the CPU; keep the fast path

    std::vector<const char*> extensions = desc.deviceExtensions;
    VkPhysicalDeviceCooperativeMatrixFeaturesNV coopSupported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    VkPhysicalDeviceCooperativeMatrixFeaturesNV coopEnabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV};
    if (hasExtension(exts, VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &coopSupported};
        vkGetPhysicalDeviceFeatures2(physicalDevice_, &f2);
        // Cooperative-matrix shaders with scoped barriers declare the VulkanMemoryModel
        // capability: the extension is only usable together with that feature (enabled above).
        if (coopSupported.cooperativeMatrix && e12.vulkanMemoryModel) {
            coopEnabled.cooperativeMatrix = VK_TRUE;
            e11.pNext = &coopEnabled;
            extensions.push_back(VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME);
        }
    }
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR execSupported{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR execEnabled{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    if (desc.pipelineStatistics && hasExtension(exts, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &execSupported};
        vkGetPhysicalDeviceFeatures2(physicalDevice_, &f2);
        if (execSupported.pipelineExecutableInfo) {
            execEnabled.pipelineExecutableInfo = VK_TRUE;
            execEnabled.pNext = e11.pNext;
            e11.pNext = &execEnabled;
            extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        }
    }
    for (const char* e : desc.deviceExtensions)
        if (!hasExtension(exts, e)) throw Error(ErrorCode::Unsupported, std::string("device ") + deviceName_ + " lacks required extension " + e);
    // The driver's view of memory use, next to the context's own accounting (soak runs report both).
    const bool memoryBudget = hasExtension(exts, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    if (memoryBudget) extensions.push_back(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);

    queueFamily_ = graphicsComputeFamily(physicalDevice_);
    float priority = 1.0f;
    std::vector<VkDeviceQueueCreateInfo> queues;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queueFamily_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    queues.push_back(qci);
    if (desc.wantAsyncComputeQueue) {
        asyncQueueFamily_ = asyncComputeFamily(physicalDevice_);
        if (asyncQueueFamily_ != UINT32_MAX) {
            qci.queueFamilyIndex = asyncQueueFamily_;
            queues.push_back(qci);
        }
    }

    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &enabled};
    dci.queueCreateInfoCount = uint32_t(queues.size());
    dci.pQueueCreateInfos = queues.data();
    dci.enabledExtensionCount = uint32_t(extensions.size());
    dci.ppEnabledExtensionNames = extensions.data();
    ENGINE_VK(vkCreateDevice(physicalDevice_, &dci, nullptr, &device_));
    registerDevice(device_, this);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
    if (asyncQueueFamily_ != UINT32_MAX) vkGetDeviceQueue(device_, asyncQueueFamily_, 0, &asyncQueue_);

    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
    vkGetPhysicalDeviceProperties2(physicalDevice_, &p2);
    uint32_t nfam = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &nfam, nullptr);
    std::vector<VkQueueFamilyProperties> fams(nfam);
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &nfam, fams.data());

    features_.shaderFloat16 = e12.shaderFloat16;
    features_.storageBuffer16BitAccess = e11.storageBuffer16BitAccess;
    features_.cooperativeMatrixNV = coopEnabled.cooperativeMatrix;
    features_.pipelineExecutableInfo = execEnabled.pipelineExecutableInfo;
    features_.subgroupSizeControl = e13.subgroupSizeControl;
    features_.timestamps = fams[queueFamily_].timestampValidBits > 0 && properties_.limits.timestampPeriod > 0;
    features_.timestampPeriodNs = properties_.limits.timestampPeriod;
    features_.timestampValidBits = fams[queueFamily_].timestampValidBits;
    features_.memoryBudget = memoryBudget;
    features_.subgroupSize = subgroup.subgroupSize;
    features_.maxComputeSharedMemorySize = properties_.limits.maxComputeSharedMemorySize;

    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = queueFamily_;
    ENGINE_VK(vkCreateCommandPool(device_, &pci, nullptr, &uploadPool_));
}

uint32_t Context::memoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const {
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & required) == required) return i;
    throw Error(ErrorCode::Unsupported, "no memory type with property flags " + std::to_string(required) + " among type bits " + std::to_string(typeBits));
}

void Context::submitAndWait(const std::function<void(VkCommandBuffer)>& record) const {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = uploadPool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    ENGINE_VK(vkAllocateCommandBuffers(device_, &ai, &cmd));
    VkFence fence = VK_NULL_HANDLE;
    try {
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        ENGINE_VK(vkBeginCommandBuffer(cmd, &bi));
        record(cmd);
        ENGINE_VK(vkEndCommandBuffer(cmd));
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        ENGINE_VK(vkCreateFence(device_, &fci, nullptr, &fence));
        VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        cbi.commandBuffer = cmd;
        VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        si.commandBufferInfoCount = 1;
        si.pCommandBufferInfos = &cbi;
        ENGINE_VK_ON(*this, vkQueueSubmit2(queue_, 1, &si, fence));
        ENGINE_VK_ON(*this, vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX));
    } catch (...) {
        if (fence) { vkWaitForFences(device_, 1, &fence, VK_TRUE, UINT64_MAX); vkDestroyFence(device_, fence, nullptr); }
        vkFreeCommandBuffers(device_, uploadPool_, 1, &cmd);
        throw;
    }
    vkDestroyFence(device_, fence, nullptr);
    vkFreeCommandBuffers(device_, uploadPool_, 1, &cmd);
}

uint64_t Context::validationMessageCount() const { return messengerState_->count.load(); }

}  // namespace engine
