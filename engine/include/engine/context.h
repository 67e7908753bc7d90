#pragma once
// The Vulkan context: instance, physical device, one graphics+compute queue (plus an optional
// async compute queue), enabled features. Headless unless the caller passes the instance
// extensions a surface needs (see window.h).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace engine {

enum class MessageSeverity { Verbose, Info, Warning, Error };

struct ContextDesc {
    std::string applicationName = "vkml";
    // Khronos validation layer + debug-utils messenger. Synchronization validation is on with it.
    bool validation = false;
    bool synchronizationValidation = true;
    // Called for every validation/debug message at Warning or above (and Info when `verbose`).
    // Default: print to stderr.
    std::function<void(MessageSeverity, const char* message)> onMessage;
    bool verbose = false;
    // Device choice: by index in vkEnumeratePhysicalDevices order, or by a substring of its
    // name; otherwise the first discrete GPU, else the first device that qualifies.
    std::optional<uint32_t> deviceIndex;
    std::string deviceNameContains;
    bool wantAsyncComputeQueue = false;
    // VK_KHR_pipeline_executable_properties when the device has it (tools that print the
    // driver's per-pipeline statistics: registers, shared memory).
    bool pipelineStatistics = false;
    // Extra instance/device extensions (a windowed app adds the surface/swapchain ones).
    std::vector<const char*> instanceExtensions;
    std::vector<const char*> deviceExtensions;
};

// What the chosen device can do and what was enabled on it.
struct DeviceFeatures {
    bool shaderFloat16 = false;
    bool storageBuffer16BitAccess = false;
    bool cooperativeMatrixNV = false;  // VK_NV_cooperative_matrix enabled
    bool subgroupSizeControl = false;
    bool pipelineExecutableInfo = false;  // VK_KHR_pipeline_executable_properties enabled
    bool timestamps = false;           // graphics/compute queue timestamps valid
    float timestampPeriodNs = 1.0f;
    uint32_t timestampValidBits = 0;   // of the graphics/compute queue family
    uint32_t subgroupSize = 0;
    uint32_t maxComputeSharedMemorySize = 0;
};

struct PhysicalDeviceInfo {
    uint32_t index;
    std::string name;
    VkPhysicalDeviceType type;
    uint32_t apiVersion;
    bool suitable;
    std::string whyNotSuitable;
};

class Context {
public:
    // Throws engine::Error with a clear sentence when no Vulkan 1.3 device qualifies.
    explicit Context(const ContextDesc& desc);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    // Lists devices without creating a logical device (for --list-devices).
    static std::vector<PhysicalDeviceInfo> listDevices();

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    // VK_NULL_HANDLE / UINT32_MAX when not requested or not available.
    VkQueue asyncComputeQueue() const { return asyncQueue_; }
    uint32_t asyncComputeQueueFamily() const { return asyncQueueFamily_; }

    const DeviceFeatures& features() const { return features_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    const std::string& deviceName() const { return deviceName_; }
    bool validationEnabled() const { return validation_; }

    // Memory type index with all of `required` flags among `typeBits`; throws if none.
    uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const;

    // Records `record` into a temporary command buffer, submits it on the main queue and waits.
    // For start-up uploads, tests and tools; never used per frame.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

    // Number of validation messages at Warning or above since creation (tests compare it).
    uint64_t validationMessageCount() const;

    struct Messenger;  // debug-messenger state, defined in context.cpp

private:
    void createInstance(const ContextDesc& desc);
    void pickPhysicalDevice(const ContextDesc& desc);
    void createDevice(const ContextDesc& desc);
    void destroy();

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = UINT32_MAX;
    VkQueue asyncQueue_ = VK_NULL_HANDLE;
    uint32_t asyncQueueFamily_ = UINT32_MAX;
    VkCommandPool uploadPool_ = VK_NULL_HANDLE;
    DeviceFeatures features_;
    VkPhysicalDeviceProperties properties_{};
    std::string deviceName_;
    bool validation_ = false;
    std::unique_ptr<Messenger> messengerState_;
};

}  // namespace engine
