#include "vkutil/create_info.h"
#include "vkutil/descriptors.h"

#include "loader.h"

namespace vkutil {

using detail::kLoader;

void DescriptorWrites::update(VkDevice device) const { update(kLoader, device); }

VkResult DescriptorPool::create(VkDevice device, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes, VkDescriptorPoolCreateFlags flags) {
    return create(kLoader, device, maxSets, sizes, flags);
}

VkResult DescriptorPool::createSets(VkDevice device, VkDescriptorSetLayout layout, VkDescriptorPoolSize perSet, std::span<VkDescriptorSet> sets) {
    return createSets(kLoader, device, layout, perSet, sets);
}

VkResult createSampler(VkDevice device, VkFilter filter, VkSampler* sampler) { return createSampler(kLoader, device, filter, sampler); }

}  // namespace vkutil
