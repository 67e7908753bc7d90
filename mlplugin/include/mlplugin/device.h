#pragma once
// Device: the plugin's view of the application's VkDevice (IDMLDevice). It never creates
// queues, never submits and never waits: everything it does on the GPU is recorded into
// command buffers the application owns and submits.
#include "mlplugin/dispatchable.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/result.h"

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

    // Pipeline caching (optional). Creating pipelines is most of compile time; a cache saved by
    // one run makes the next one's compile a lookup. Two ways:
    // - `pipelineCache`: a VkPipelineCache the application owns. The plugin creates every
    //   pipeline through it (never destroys it, never serializes it): the application saves and
    //   restores it with the rest of its pipelines. It must outlive the Device and must not have
    //   been created with VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT (the plugin may
    //   compile on several threads).
    // - otherwise the plugin creates a cache of its own, seeded with `pipelineCacheData` when
    //   given: a blob from Device::pipelineCacheData() of an earlier run (copied during
    //   createDevice). A blob of another GPU, another driver version, another plugin format or a
    //   damaged one is ignored, never an error: the device starts with an empty cache and
    //   pipelineCacheOrigin() / pipelineCacheRejection() say so.
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;
    std::span<const uint8_t> pipelineCacheData;
};

// Where the device's pipeline cache came from (Device::pipelineCacheOrigin()).
enum class PipelineCacheOrigin : uint32_t {
    Empty,        // no data given: the plugin's own cache, empty at creation
    Restored,     // the plugin's own cache, seeded with DeviceDesc::pipelineCacheData
    Rejected,     // data was given but not usable (pipelineCacheRejection() says why): started empty
    Application,  // DeviceDesc::pipelineCache
};

struct CooperativeMatrixShape {
    uint32_t m = 0, n = 0, k = 0;
    DataType inputType = DataType::Float16;
    DataType accumulatorType = DataType::Float32;
};

struct Capabilities {
    std::string deviceName;
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

    // The pipeline cache's current contents in the plugin's format, for DeviceDesc::
    // pipelineCacheData of a later run (write it to a file beside the application's own cache).
    // Includes every pipeline compiled so far; call it after compiling. Thread-safe.
    virtual Result<std::vector<uint8_t>> pipelineCacheData() const = 0;
    virtual PipelineCacheOrigin pipelineCacheOrigin() const = 0;
    // Why DeviceDesc::pipelineCacheData was ignored ("written for vendor 0x10de device 0x2330
    // ..."); empty unless pipelineCacheOrigin() is Rejected.
    virtual const std::string& pipelineCacheRejection() const = 0;

    // Validates `desc` (errors name the operator and the field) and builds its pipelines.
    virtual Result<std::unique_ptr<CompiledOperator>> compileOperator(const OperatorDesc& desc,
                                                                      uint32_t executionFlags = ExecutionFlagNone) = 0;
    // An initializer for the persistent resources of `operators` (may be empty, then reset).
    virtual Result<std::unique_ptr<OperatorInitializer>> createOperatorInitializer(std::span<CompiledOperator* const> operators) = 0;
    virtual Result<std::unique_ptr<BindingTable>> createBindingTable(const BindingTableDesc& desc) = 0;
    virtual Result<std::unique_ptr<CommandRecorder>> createCommandRecorder() = 0;
};

Result<std::unique_ptr<Device>> createDevice(const DeviceDesc& desc);

}  // namespace mlplugin
