#include "vkutil/descriptors.h"

namespace vkutil {
namespace {

// The loader's exported entry points as a table for the templates.
struct Loader {
    PFN_vkUpdateDescriptorSets vkUpdateDescriptorSets = ::vkUpdateDescriptorSets;
    PFN_vkCreateDescriptorPool vkCreateDescriptorPool = ::vkCreateDescriptorPool;
    PFN_vkDestroyDescriptorPool vkDestroyDescriptorPool = ::vkDestroyDescriptorPool;
    PFN_vkAllocateDescriptorSets vkAllocateDescriptorSets = ::vkAllocateDescriptorSets;
};
const Loader kLoader;

}  // namespace

void DescriptorWrites::update(VkDevice device) const { update(kLoader, device); }

VkResult DescriptorPool::create(VkDevice device, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes, VkDescriptorPoolCreateFlags flags) {
    return create(kLoader, device, maxSets, sizes, flags);
}

VkResult DescriptorPool::createSets(VkDevice device, VkDescriptorSetLayout layout, VkDescriptorPoolSize perSet, std::span<VkDescriptorSet> sets) {
    return createSets(kLoader, device, layout, perSet, sets);
}

}  // namespace vkutil
