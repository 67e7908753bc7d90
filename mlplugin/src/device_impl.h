#pragma once
// Internal: the Device implementation and what binding tables, the recorder and dispatchables
// need from it (function table, layouts, the shared pipeline cache, the "null" buffer).
#include "kernel.h"
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
// the device is destroyed.
class PipelineCache {
public:
    PipelineCache(const VulkanFunctions& fns, VkDevice device, VkPipelineLayout layout)
        : fns_(fns), device_(device), layout_(layout) {}
    ~PipelineCache();
    PipelineCache(const PipelineCache&) = delete;
    PipelineCache& operator=(const PipelineCache&) = delete;

    Result<VkPipeline> get(const PipelineSpec& spec);
    size_t size() const;

private:
    using Key = std::pair<const uint32_t*, std::vector<uint32_t>>;  // SPIR-V words are static data
    Result<VkPipeline> create(const PipelineSpec& spec) const;

    const VulkanFunctions& fns_;
    VkDevice device_;
    VkPipelineLayout layout_;
    mutable std::mutex mutex_;
    std::map<Key, VkPipeline> pipelines_;
};

// One compute pipeline from SPIR-V and specialization constants (the cache's, and tools that
// need creation flags such as VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR).
Result<VkPipeline> createComputePipeline(const VulkanFunctions& fns, VkDevice device, VkPipelineLayout layout, const PipelineSpec& spec,
                                         VkPipelineCreateFlags flags = 0);

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
    void setTuningTable(std::shared_ptr<const TuningTable> table) override { tuning_ = std::move(table); }

    const VulkanFunctions& fns() const { return fns_; }
    VkDevice vkDevice() const { return device_; }
    VkPipelineLayout pipelineLayout() const { return pipelineLayout_; }
    bool debug() const { return flags_ & DeviceFlagDebug; }
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

    VulkanFunctions fns_;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    uint32_t flags_ = 0;
    Capabilities caps_;
    std::shared_ptr<const TuningTable> tuning_;
    FeatureLevel featureLevel_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout pipelineLayout_ = VK_NULL_HANDLE;
    VkBuffer nullBuffer_ = VK_NULL_HANDLE;
    VkDeviceMemory nullMemory_ = VK_NULL_HANDLE;
    std::unique_ptr<PipelineCache> pipelines_;
};

}  // namespace mlplugin::detail
