#pragma once
/// \file
/// The Vulkan context: instance, physical device, one graphics+compute queue (plus an optional
/// async compute queue), enabled features. Headless unless the caller passes the instance
/// extensions a surface needs (see window.h).
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

/// Severity of a validation or debug message (ContextDesc::onMessage).
enum class MessageSeverity { Verbose, Info, Warning, Error };

/// How to create a Context.
struct ContextDesc {
    std::string applicationName = "vkml";  ///< VkApplicationInfo::pApplicationName
    /// Khronos validation layer + debug-utils messenger. Synchronization validation is on with it.
    bool validation = false;
    bool synchronizationValidation = true;  ///< with `validation`: also the synchronization checks
    /// Called for every validation/debug message at Warning or above (and Info when `verbose`).
    /// Default: print to stderr.
    std::function<void(MessageSeverity, const char* message)> onMessage;
    bool verbose = false;  ///< also pass Info messages to onMessage
    /// Device choice: by index in vkEnumeratePhysicalDevices order, or by a substring of its
    /// name; otherwise the first discrete GPU, else the first device that qualifies.
    std::optional<uint32_t> deviceIndex;
    std::string deviceNameContains;  ///< pick the first device whose name contains this (when not empty)
    bool wantAsyncComputeQueue = false;  ///< also get a compute-only queue when the device has one
    /// VK_KHR_pipeline_executable_properties when the device has it (tools that print the
    /// driver's per-pipeline statistics: registers, shared memory).
    bool pipelineStatistics = false;
    /// Extra instance/device extensions (a windowed app adds the surface/swapchain ones).
    std::vector<const char*> instanceExtensions;
    std::vector<const char*> deviceExtensions;  ///< extra device extensions
    /// Device memory the engine and the libraries loaded through libraryProcAddr() may hold at
    /// once; 0: no limit but the device's. An allocation that would exceed it fails with
    /// VK_ERROR_OUT_OF_DEVICE_MEMORY without reaching the driver, as on a full device (tests and
    /// upscale_demo --device-memory-budget exercise the out-of-memory paths with it).
    VkDeviceSize deviceMemoryBudgetBytes = 0;
};

/// Device memory allocated through the context (Context::allocateMemory).
struct DeviceMemoryStats {
    VkDeviceSize budget = 0;         ///< ContextDesc::deviceMemoryBudgetBytes (0: none)
    VkDeviceSize inUse = 0;          ///< bytes allocated and not yet freed
    VkDeviceSize peak = 0;           ///< the most inUse ever was
    uint64_t liveAllocations = 0;    ///< VkDeviceMemory objects allocated and not yet freed
    uint64_t allocations = 0;        ///< successful allocations since creation
    uint64_t failedAllocations = 0;  ///< refused by the budget or failed in the driver
    /// VK_EXT_memory_budget (when the device has it): the driver's view of this process's usage
    /// summed over the device-local heaps. 0 without it.
    VkDeviceSize driverUsage = 0;
    VkDeviceSize driverBudget = 0;  ///< what VK_EXT_memory_budget says the process may use (0 without it)
};

/// What the chosen device can do and what was enabled on it.
struct DeviceFeatures {
    bool shaderFloat16 = false;  ///< shaderFloat16 enabled
    bool storageBuffer16BitAccess = false;  ///< storageBuffer16BitAccess enabled
    bool cooperativeMatrixNV = false;  ///< VK_NV_cooperative_matrix enabled
    bool subgroupSizeControl = false;  ///< subgroupSizeControl enabled
    bool pipelineExecutableInfo = false;  ///< VK_KHR_pipeline_executable_properties enabled
    bool timestamps = false;           ///< graphics/compute queue timestamps valid
    bool memoryBudget = false;         ///< VK_EXT_memory_budget enabled (DeviceMemoryStats::driverUsage)
    float timestampPeriodNs = 1.0f;  ///< nanoseconds per timestamp tick
    uint32_t timestampValidBits = 0;  ///< valid bits of the graphics/compute queue family's timestamps
    uint32_t subgroupSize = 0;  ///< default subgroup size
    uint32_t maxComputeSharedMemorySize = 0;  ///< bytes of shared memory per workgroup
};

/// A Vulkan device as listDevices() reports it.
struct PhysicalDeviceInfo {
    uint32_t index;  ///< position in vkEnumeratePhysicalDevices order (ContextDesc::deviceIndex)
    std::string name;  ///< VkPhysicalDeviceProperties::deviceName
    VkPhysicalDeviceType type;  ///< discrete, integrated, CPU, ...
    uint32_t apiVersion;  ///< the Vulkan version the device supports
    bool suitable;  ///< a Context can be created on it
    std::string whyNotSuitable;  ///< when not suitable: the missing version, queue or feature
};

/// The engine's Vulkan instance, device and queue. Everything else in the engine is created on one;
/// it must outlive them.
class Context {
public:
    /// Throws engine::Error with a clear sentence when no Vulkan 1.3 device qualifies.
    explicit Context(const ContextDesc& desc);
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    /// Lists devices without creating a logical device (for --list-devices).
    static std::vector<PhysicalDeviceInfo> listDevices();

    /// The instance.
    VkInstance instance() const { return instance_; }
    /// The chosen GPU.
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    /// The logical device.
    VkDevice device() const { return device_; }
    /// The graphics+compute queue every frame is submitted on.
    VkQueue queue() const { return queue_; }
    /// The family of queue().
    uint32_t queueFamily() const { return queueFamily_; }
    /// VK_NULL_HANDLE / UINT32_MAX when not requested or not available.
    VkQueue asyncComputeQueue() const { return asyncQueue_; }
    /// The family of asyncComputeQueue().
    uint32_t asyncComputeQueueFamily() const { return asyncQueueFamily_; }

    /// What was enabled.
    const DeviceFeatures& features() const { return features_; }
    /// The device's properties and limits.
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    /// The device's name.
    const std::string& deviceName() const { return deviceName_; }
    /// True when the validation layer is on.
    bool validationEnabled() const { return validation_; }

    /// Memory type index with all of `required` flags among `typeBits`; throws if none.
    uint32_t memoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const;

    /// Records `record` into a temporary command buffer, submits it on the main queue and waits.
    /// For start-up uploads, tests and tools; never used per frame.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

    /// Number of validation messages at Warning or above since creation (tests compare it).
    uint64_t validationMessageCount() const;

    /// \name Device memory
    /// Every vkAllocateMemory of the engine (Buffer, frame-graph transients) and of libraries
    /// loaded through libraryProcAddr() goes through here: counted, and refused with
    /// VK_ERROR_OUT_OF_DEVICE_MEMORY when it would exceed the budget. Thread-safe.
    /// @{
    /// Allocates like vkAllocateMemory, within the budget.
    VkResult tryAllocateMemory(const VkMemoryAllocateInfo& info, VkDeviceMemory* memory) const;
    /// Throws engine::Error (ErrorCode::OutOfMemory) with a sentence naming `what` and the numbers:
    /// "out of device memory: frame graph transient memory needs 12.0 MiB, budget 8.0 MiB (2.5 MiB in use)".
    VkDeviceMemory allocateMemory(const VkMemoryAllocateInfo& info, const std::string& what) const;
    /// Frees what allocateMemory/tryAllocateMemory allocated (VK_NULL_HANDLE is ignored).
    void freeMemory(VkDeviceMemory memory) const;
    /// The account so far.
    DeviceMemoryStats memoryStats() const;
    /// A vkGetInstanceProcAddr for libraries that load their own function table on this device
    /// (mlplugin::DeviceDesc::getInstanceProcAddr): it hands out the loader's functions, except
    /// that vkAllocateMemory/vkFreeMemory on this context's VkDevice go through tryAllocateMemory
    /// and freeMemory, so the budget and the accounting cover the library's allocations too.
    PFN_vkGetInstanceProcAddr libraryProcAddr() const;
    /// @}

    /// \name Device loss
    /// Results through which a lost device shows (submits, fence waits, presents, query
    /// read-back, mapping) pass observe() (ENGINE_VK_ON): it remembers a VK_ERROR_DEVICE_LOST
    /// and, once the device is lost, reports VK_ERROR_DEVICE_LOST for every call, as a lost
    /// device does. Nothing made on a lost context can be used again: destroy it all
    /// (destructors tolerate the loss) and create a new Context.
    /// @{
    /// `result`, or VK_ERROR_DEVICE_LOST once the device is lost.
    VkResult observe(VkResult result) const;
    /// Fault injection (tests, upscale_demo --simulate-device-loss): from now on observe()
    /// reports VK_ERROR_DEVICE_LOST. The calls themselves still run, so a fence wait that reports
    /// the loss did wait and tearing down is as safe as after a real loss; the recovery code is
    /// the same.
    void simulateDeviceLoss() const;
    /// A loss was observed (or simulated).
    bool deviceLost() const;
    /// The loss was simulateDeviceLoss()'s.
    bool deviceLossSimulated() const;
    /// @}

    struct Messenger;    ///< debug-messenger state, defined in context.cpp
    struct DeviceState;  ///< memory accounting and device-loss state, defined in device_state.cpp

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
    std::unique_ptr<DeviceState> state_;
};

}  // namespace engine
ENGINE_API_END
