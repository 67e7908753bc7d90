// The device's pipelines: one VkPipeline per (SPIR-V, specialization constants), created
// through one VkPipelineCache (the application's, or the plugin's own).
#include "device_impl.h"

#include <vkutil/pipeline.h>

#include <string>

namespace mlplugin::detail {

PipelineCache::~PipelineCache() {
    for (auto& [key, pipeline] : pipelines_) fns_.vkDestroyPipeline(device_, pipeline, nullptr);
    if (ownsCache_) fns_.vkDestroyPipelineCache(device_, cache_, nullptr);
}

Status PipelineCache::init(VkPipelineCache applicationCache, std::span<const uint8_t> initialData) {
    if (applicationCache) {
        cache_ = applicationCache;
        return {};
    }
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ci.initialDataSize = initialData.size();
    ci.pInitialData = initialData.data();
    if (VkResult r = fns_.vkCreatePipelineCache(device_, &ci, nullptr, &cache_); r != VK_SUCCESS) {
        cache_ = VK_NULL_HANDLE;
        return vulkanError(r, "vkCreatePipelineCache");
    }
    ownsCache_ = true;
    setObjectName(fns_, device_, VK_OBJECT_TYPE_PIPELINE_CACHE, uint64_t(cache_), "mlplugin pipeline cache");
    return {};
}

Result<std::vector<uint8_t>> PipelineCache::vulkanData() const {
    std::lock_guard lock(mutex_);
    for (;;) {  // the size may grow between the two calls if another thread compiles meanwhile
        size_t size = 0;
        if (VkResult r = fns_.vkGetPipelineCacheData(device_, cache_, &size, nullptr); r != VK_SUCCESS)
            return vulkanError(r, "vkGetPipelineCacheData (size)");
        std::vector<uint8_t> data(size);
        VkResult r = fns_.vkGetPipelineCacheData(device_, cache_, &size, data.data());
        if (r == VK_INCOMPLETE) continue;
        if (r != VK_SUCCESS) return vulkanError(r, "vkGetPipelineCacheData");
        data.resize(size);
        return data;
    }
}

size_t PipelineCache::size() const {
    std::lock_guard lock(mutex_);
    return pipelines_.size();
}

Result<VkPipeline> PipelineCache::get(const PipelineSpec& spec) {
    if (spec.spirv.empty()) return invalidArgument(std::string("internal error: pipeline '") + spec.debugName + "' has no SPIR-V");
    std::lock_guard lock(mutex_);
    Key key{spec.spirv.data(), spec.specConstants};
    if (auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;
    Result<VkPipeline> created = create(spec);
    if (created) pipelines_.emplace(std::move(key), *created);
    return created;
}

Result<VkPipeline> createComputePipeline(const VulkanFunctions& fns, VkDevice device, VkPipelineLayout layout, const PipelineSpec& spec,
                                         VkPipelineCreateFlags flags, VkPipelineCache cache) {
    VkPipeline pipeline = VK_NULL_HANDLE;
    const VkResult r = vkutil::createComputePipeline(
        fns, device, {.layout = layout, .spirv = spec.spirv, .specialization = spec.specConstants, .flags = flags, .cache = cache}, &pipeline);
    // A success code, but no pipeline: FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT and a cache miss.
    if (r == VK_PIPELINE_COMPILE_REQUIRED)
        return Error{ErrorCode::Unsupported, std::string("'") + spec.debugName + "' is not in the pipeline cache (VK_PIPELINE_COMPILE_REQUIRED)", r};
    if (r != VK_SUCCESS) return vulkanError(r, std::string("creating the compute pipeline '") + spec.debugName + "'");
    setObjectName(fns, device, VK_OBJECT_TYPE_PIPELINE, uint64_t(pipeline), spec.debugName);
    return pipeline;
}

Result<VkPipeline> PipelineCache::create(const PipelineSpec& spec) const { return createComputePipeline(fns_, device_, layout_, spec, 0, cache_); }

}  // namespace mlplugin::detail
