#pragma once
/// \file
/// Device: the plugin's view of the application's VkDevice (IDMLDevice). It never creates
/// queues, never submits and never waits: everything it does on the GPU is recorded into
/// command buffers the application owns and submits.
#include "mlplugin/dispatchable.h"
#include "mlplugin/export.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/result.h"
#include "mlplugin/tuning.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

class BindingTable;
class CommandRecorder;
struct BindingTableDesc;

/// DeviceDesc::flags bits.
enum DeviceFlags : uint32_t {
    DeviceFlagNone = 0,  ///< no flag
    /// Validate every binding against the descs (sizes, offsets, alignment, missing/extra
    /// bindings, uninitialized persistent resources, data types) with messages naming the
    /// operator, slot and numbers. Without it the checks that keep the GPU safe still run.
    DeviceFlagDebug = 1u << 0,
};

/// The application's Vulkan objects and what it enabled on them (createDevice).
struct DeviceDesc {
    VkInstance instance = VK_NULL_HANDLE;  ///< the application's instance (Vulkan 1.3)
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;  ///< the GPU `device` was created on
    VkDevice device = VK_NULL_HANDLE;  ///< the application's device; it must outlive the plugin Device
    uint32_t queueFamilyIndex = 0;  ///< the family whose command buffers the plugin records into
    /// The loader entry point the application uses (required): the plugin loads its own
    /// instance/device function table through it.
    PFN_vkGetInstanceProcAddr getInstanceProcAddr = nullptr;
    /// Features the application enabled on `device` (the plugin cannot query them). Required:
    /// shaderStorageBufferArrayDynamicIndexing and the Vulkan 1.3 features synchronization2 (the
    /// plugin records vkCmdPipelineBarrier2) and maintenance4 (its shaders size their workgroups
    /// with specialization constants, SPIR-V LocalSizeId); every Vulkan 1.3 desktop driver has
    /// them. The plugin uses fp16 only when both 16-bit storage and shaderFloat16 were enabled,
    /// and tensor cores only when VK_NV_cooperative_matrix was enabled. mlplugin/device_support.h
    /// says what a physical device offers and builds the feature chain that enables it.
    bool shaderStorageBufferArrayDynamicIndexingEnabled = false;
    bool storageBuffer16BitAccessEnabled = false;  ///< VkPhysicalDevice16BitStorageFeatures::storageBuffer16BitAccess was enabled
    bool shaderFloat16Enabled = false;  ///< VkPhysicalDeviceShaderFloat16Int8Features::shaderFloat16 was enabled
    /// VK_NV_cooperative_matrix, its cooperativeMatrix feature and the Vulkan 1.2 feature
    /// vulkanMemoryModel were enabled (the tensor-core shaders declare the VulkanMemoryModel capability)
    bool cooperativeMatrixNVEnabled = false;
    uint32_t flags = DeviceFlagNone;  ///< DeviceFlags bits

    /// Pipeline caching (optional), way 1: a VkPipelineCache the application owns. Creating
    /// pipelines is most of compile time; a cache saved by one run makes the next one's compile a
    /// lookup. The plugin creates every pipeline through this cache (never destroys it, never
    /// serializes it): the application saves and restores it with the rest of its pipelines. It
    /// must outlive the Device and must not have been created with
    /// VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT (the plugin may compile on several
    /// threads). When set, `pipelineCacheData` is not used.
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;
    /// Pipeline caching, way 2: without `pipelineCache` the plugin creates a cache of its own,
    /// seeded with this blob when given: Device::pipelineCacheData() of an earlier run (copied
    /// during createDevice). A blob of another GPU, another driver version, another plugin format
    /// or a damaged one is ignored, never an error: the device starts with an empty cache and
    /// Device::pipelineCacheOrigin() / Device::pipelineCacheRejection() say so.
    std::span<const uint8_t> pipelineCacheData;
};

/// Where the device's pipeline cache came from (Device::pipelineCacheOrigin()).
enum class PipelineCacheOrigin : uint32_t {
    Empty,        ///< no data given: the plugin's own cache, empty at creation
    Restored,     ///< the plugin's own cache, seeded with DeviceDesc::pipelineCacheData
    Rejected,     ///< data was given but not usable (Device::pipelineCacheRejection() says why): started empty
    Application,  ///< DeviceDesc::pipelineCache
};

/// A matrix shape the tensor cores multiply (VK_NV_cooperative_matrix): A[m x k] x B[k x n].
struct CooperativeMatrixShape {
    uint32_t m = 0;  ///< rows of A and of the accumulator
    uint32_t n = 0;  ///< columns of B and of the accumulator
    uint32_t k = 0;  ///< columns of A, rows of B
    DataType inputType = DataType::Float16;  ///< element type of A and B
    DataType accumulatorType = DataType::Float32;  ///< element type of the accumulator
};

/// What the device offers the plugin, as far as the application enabled it.
struct Capabilities {
    std::string deviceName;  ///< VkPhysicalDeviceProperties::deviceName
    /// The driver's name and version as it reports them ("NVIDIA 580.159.04"): tuning keys
    /// (mlplugin/tuning.h) include it, so measurements do not outlive a driver update.
    std::string driverInfo;
    bool fp16Storage = false;  ///< fp16 tensors can be read and written
    bool fp16Arithmetic = false;  ///< fp16 arithmetic (ExecutionFlagAllowHalfPrecisionComputation has an effect)
    bool cooperativeMatrixNV = false;  ///< tensor-core kernels are used
    std::vector<CooperativeMatrixShape> cooperativeMatrixShapes;  ///< the shapes the driver reports
    uint32_t subgroupSize = 0;  ///< default subgroup size
    uint32_t maxComputeSharedMemoryBytes = 0;  ///< VkPhysicalDeviceLimits::maxComputeSharedMemorySize
    uint64_t maxStorageBufferRange = 0;  ///< largest bindable buffer range
    uint64_t minStorageBufferOffsetAlignment = 0;  ///< bound offsets are multiples of this
};

/// What this device can run: operator kinds and data types (DML_FEATURE_LEVEL analog).
struct FeatureLevel {
    uint32_t level = 1;  ///< feature level; grows as operators are added
    std::vector<std::string> operators;  ///< operatorKind() of every operator this device compiles
    std::vector<DataType> dataTypes;  ///< tensor element types this device supports
};

/// The plugin's device: compiles operators, creates initializers, binding tables and command
/// recorders over the application's VkDevice (createDevice). Not thread-safe; destroy every
/// object it created, and wait for the GPU work recorded with them, before destroying it.
class Device {
public:
    virtual ~Device() = default;

    /// What the device offers (fp16, tensor cores, limits).
    virtual const Capabilities& capabilities() const = 0;
    /// The operators and data types it supports.
    virtual const FeatureLevel& featureLevel() const = 0;
    /// DeviceDesc::flags it was created with.
    virtual uint32_t flags() const = 0;

    /// The layout of one descriptor block: binding 0, an array of kDescriptorsPerSet storage
    /// buffers, compute stage. Binding tables write into sets the application allocates with it
    /// (from a per-frame arena or any pool). Owned by the device.
    virtual VkDescriptorSetLayout descriptorSetLayout() const = 0;

    /// The pipeline cache's current contents in the plugin's format, for
    /// DeviceDesc::pipelineCacheData of a later run (write it to a file beside the application's
    /// own cache). Includes every pipeline compiled so far; call it after compiling. Thread-safe.
    /// With DeviceDesc::pipelineCache: that cache's contents in the same format.
    virtual Result<std::vector<uint8_t>> pipelineCacheData() const = 0;
    /// Where the pipeline cache came from.
    virtual PipelineCacheOrigin pipelineCacheOrigin() const = 0;
    /// Why DeviceDesc::pipelineCacheData was ignored ("written for vendor 0x10de device 0x2330
    /// ..."); empty unless pipelineCacheOrigin() is Rejected.
    virtual const std::string& pipelineCacheRejection() const = 0;

    /// Validates `desc` (errors name the operator and the field) and builds its pipelines.
    virtual Result<std::unique_ptr<CompiledOperator>> compileOperator(const OperatorDesc& desc,
                                                                      uint32_t executionFlags = ExecutionFlagNone) = 0;
    /// An initializer for the persistent resources of `operators` (may be empty, then reset).
    virtual Result<std::unique_ptr<OperatorInitializer>> createOperatorInitializer(std::span<CompiledOperator* const> operators) = 0;
    /// A binding table over `desc.range` for `desc.dispatchable`.
    virtual Result<std::unique_ptr<BindingTable>> createBindingTable(const BindingTableDesc& desc) = 0;
    /// A command recorder.
    virtual Result<std::unique_ptr<CommandRecorder>> createCommandRecorder() = 0;

    /// Measured kernel choices (mlplugin/tuning.h) for operators and graphs compiled after this
    /// call; null: the fixed heuristics. Not synchronized with concurrent compiles.
    virtual void setTuningTable(std::shared_ptr<const TuningTable> table) = 0;
};

/// A plugin device over the application's Vulkan objects. Fails (InvalidArgument) when a
/// handle or getInstanceProcAddr is missing or a required feature was not enabled.
Result<std::unique_ptr<Device>> createDevice(const DeviceDesc& desc);

}  // namespace mlplugin
MLPLUGIN_API_END
