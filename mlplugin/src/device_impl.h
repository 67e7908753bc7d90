#pragma once
// Internal: the Device implementation and what binding tables, the recorder and dispatchables
// need from it (function table, layouts, the shared pipeline cache, the "null" buffer).
#include "kernel.h"
#include "pipeline_cache_data.h"
#include "mlplugin/device.h"
#include "vulkan_functions.h"

#include <map>
#include <mutex>
#include <span>
#include <utility>
#include <vector>

namespace mlplugin::detail {

// Pipelines are shared by every operator of a device: identical shaders with identical
// specialization constants (e.g. two same-shaped convolutions) compile once. They live until
// the device is destroyed. Every pipeline is created through one VkPipelineCache: the
// application's (DeviceDesc::pipelineCache) or one of the plugin's own, which may be seeded
// with a blob of an earlier run.
class PipelineCache {
public:
    PipelineCache(const VulkanFunctions& fns, VkDevice device, VkPipelineLayout layout)
        : fns_(fns), device_(device), layout_(layout) {}
    ~PipelineCache();
    PipelineCache(const PipelineCache&) = delete;
    PipelineCache& operator=(const PipelineCache&) = delete;

    // Uses `applicationCache` when set, else creates the plugin's own cache from `initialData`
    // (Vulkan data, already validated; may be empty).
    Status init(VkPipelineCache applicationCache, std::span<const uint8_t> initialData);
    Result<VkPipeline> get(const PipelineSpec& spec);
    size_t size() const;
    VkPipelineCache handle() const { return cache_; }
    // vkGetPipelineCacheData of the cache.
    Result<std::vector<uint8_t>> vulkanData() const;

private:
    using Key = std::pair<const uint32_t*, std::vector<uint32_t>>;  // SPIR-V words are static data
    Result<VkPipeline> create(const PipelineSpec& spec) const;

    const VulkanFunctions& fns_;
    VkDevice device_;
    VkPipelineLayout layout_;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
    bool ownsCache_ = false;
    mutable std::mutex mutex_;
    std::map<Key, VkPipeline> pipelines_;
};

// One compute pipeline from SPIR-V and specialization constants through `cache` (may be null):
// the cache's, and tools and tests that need creation flags such as
// VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR or VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT.
// vkutil::createComputePipeline over the plugin's function table, with the plugin's errors and
// object names (docs/ARCHITECTURE.md).
Result<VkPipeline> createComputePipeline(const VulkanFunctions& fns, VkDevice device, VkPipelineLayout layout, const PipelineSpec& spec,
                                         VkPipelineCreateFlags flags = 0, VkPipelineCache cache = VK_NULL_HANDLE);

class DeviceImpl final : public Device {
public:
    static Result<std::unique_ptr<Device>> create(const DeviceDesc& desc);
    ~DeviceImpl() override;

    const Capabilities& capabilities() const override { return caps_; }
    const FeatureLevel& featureLevel() const override { return featureLevel_; }
    uint32_t flags() const override { return flags_; }
    VkDescriptorSetLayout descriptorSetLayout() const override { return setLayout_; }

    Result<std::unique_ptr<CompiledOperator>> compileOperator(const OperatorDesc& desc, uint32_t executionFlags) override;
    Result<std::unique_ptr<OperatorInitializer>> createOperatorInitializer(std::span<CompiledOperator* const> operators) override;
    Result<std::unique_ptr<BindingTable>> createBindingTable(const BindingTableDesc& desc) override;
    Result<std::unique_ptr<CommandRecorder>> createCommandRecorder() override;
    Result<std::vector<uint8_t>> pipelineCacheData() const override;
    PipelineCacheOrigin pipelineCacheOrigin() const override { return cacheOrigin_; }
    const std::string& pipelineCacheRejection() const override { return cacheRejection_; }
    void setTuningTable(std::shared_ptr<const TuningTable> table) override { tuning_ = std::move(table); }
    const std::shared_ptr<const TuningTable>& tuningTable() const { return tuning_; }

    const VulkanFunctions& fns() const { return fns_; }
    VkDevice vkDevice() const { return device_; }
    VkPipelineLayout pipelineLayout() const { return pipelineLayout_; }
    bool debug() const { return flags_ & DeviceFlagDebug; }
    uint32_t queueFamilyIndex() const { return queueFamilyIndex_; }
    // Bound to every descriptor a binding table leaves empty: without descriptor indexing all
    // kDescriptorsPerSet array elements must be valid descriptors.
    VkBuffer nullBuffer() const { return nullBuffer_; }
    PlanContext planContext(uint32_t executionFlags) const;
    PipelineCache& pipelines() { return *pipelines_; }

private:
    DeviceImpl() = default;
    Status init(const DeviceDesc& desc);
    Status queryCapabilities(const DeviceDesc& desc);
    bool hasExtension(const char* name) const;
    Status createLayouts();
    Status createNullBuffer();
    Status createPipelineCache(const DeviceDesc& desc);

    VulkanFunctions fns_;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    uint32_t flags_ = 0;
    uint32_t queueFamilyIndex_ = 0;
    Capabilities caps_;
    std::shared_ptr<const TuningTable> tuning_;
    FeatureLevel featureLevel_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout_ = VK_NULL_HANDLE;
    VkBuffer nullBuffer_ = VK_NULL_HANDLE;
    VkDeviceMemory nullMemory_ = VK_NULL_HANDLE;
    std::unique_ptr<PipelineCache> pipelines_;
    PipelineCacheIdentity cacheIdentity_;
    PipelineCacheOrigin cacheOrigin_ = PipelineCacheOrigin::Empty;
    std::string cacheRejection_;
};

}  // namespace mlplugin::detail
