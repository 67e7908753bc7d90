#pragma once
// Device: the plugin's view of the application's VkDevice (IDMLDevice). It never creates
// queues, never submits and never waits: everything it does on the GPU is recorded into
// command buffers the application owns and submits.
#include "mlplugin/dispatchable.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/result.h"
#include "mlplugin/tuning.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace mlplugin {

class BindingTable;
class CommandRecorder;
struct BindingTableDesc;

enum DeviceFlags : uint32_t {
    DeviceFlagNone = 0,
    // Validate every binding against the descs (sizes, offsets, alignment, missing/extra
    // bindings, uninitialized persistent resources, data types) with messages naming the
    // operator, slot and numbers. Without it the checks that keep the GPU safe still run.
    DeviceFlagDebug = 1u << 0,
};

struct DeviceDesc {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queueFamilyIndex = 0;  // the family whose command buffers the plugin records into
    // The loader entry point the application uses (required): the plugin loads its own
    // instance/device function table through it.
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
    // Features the application enabled on `device` (the plugin cannot query them). Required:
    // shaderStorageBufferArrayDynamicIndexing (every Vulkan 1.3 desktop driver has it). The plugin
    // uses fp16 only when both 16-bit storage and shaderFloat16 were enabled, and tensor cores
    // only when VK_NV_cooperative_matrix was enabled.
    bool shaderStorageBufferArrayDynamicIndexingEnabled = false;
    bool storageBuffer16BitAccessEnabled = false;
    bool shaderFloat16Enabled = false;
    bool cooperativeMatrixNVEnabled = false;
    uint32_t flags = DeviceFlagNone;
};

struct CooperativeMatrixShape {
    uint32_t m = 0, n = 0, k = 0;
    DataType inputType = DataType::Float16;
    DataType accumulatorType = DataType::Float32;
};

struct Capabilities {
    std::string deviceName;
    // The driver's name and version as it reports them ("NVIDIA 580.159.04"): tuning keys
    // (mlplugin/tuning.h) include it, so measurements do not outlive a driver update.
    std::string driverInfo;
    bool fp16Storage = false;
    bool fp16Arithmetic = false;
    bool cooperativeMatrixNV = false;
    std::vector<CooperativeMatrixShape> cooperativeMatrixShapes;
    uint32_t subgroupSize = 0;
    uint32_t maxComputeSharedMemoryBytes = 0;
    uint64_t maxStorageBufferRange = 0;
    uint64_t minStorageBufferOffsetAlignment = 0;
};

// What this device can run: operator kinds and data types (DML_FEATURE_LEVEL analog).
struct FeatureLevel {
    uint32_t level = 1;
    std::vector<std::string> operators;
    std::vector<DataType> dataTypes;
};

class Device {
public:
    virtual ~Device() = default;

    virtual const Capabilities& capabilities() const = 0;
    virtual const FeatureLevel& featureLevel() const = 0;
    virtual uint32_t flags() const = 0;

    // The layout of one descriptor block: binding 0, an array of kDescriptorsPerSet storage
    // buffers, compute stage. Binding tables write into sets the application allocates with it
    // (from a per-frame arena or any pool). Owned by the device.
    virtual VkDescriptorSetLayout descriptorSetLayout() const = 0;

    // Validates `desc` (errors name the operator and the field) and builds its pipelines.
    virtual Result<std::unique_ptr<CompiledOperator>> compileOperator(const OperatorDesc& desc,
                                                                      uint32_t executionFlags = ExecutionFlagNone) = 0;
    // An initializer for the persistent resources of `operators` (may be empty, then reset).
    virtual Result<std::unique_ptr<OperatorInitializer>> createOperatorInitializer(std::span<CompiledOperator* const> operators) = 0;
    virtual Result<std::unique_ptr<BindingTable>> createBindingTable(const BindingTableDesc& desc) = 0;
    virtual Result<std::unique_ptr<CommandRecorder>> createCommandRecorder() = 0;

    // Measured kernel choices (mlplugin/tuning.h) for operators and graphs compiled after this
    // call; null: the fixed heuristics. Not synchronized with concurrent compiles.
    virtual void setTuningTable(std::shared_ptr<const TuningTable> table) = 0;
};

Result<std::unique_ptr<Device>> createDevice(const DeviceDesc& desc);

}  // namespace mlplugin
