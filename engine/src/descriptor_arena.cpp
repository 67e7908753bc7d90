#include "engine/descriptor_arena.h"

#include "engine/error.h"

#include <vkutil/descriptors.h>

namespace engine {

namespace {
std::vector<VkDescriptorPoolSize> defaultPoolSizes() {
    return {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2048},
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 256},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 64},
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 64},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 256},
        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 256},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 256},
        {VK_DESCRIPTOR_TYPE_SAMPLER, 64},
    };
}
}  // namespace

DescriptorArena::DescriptorArena(VkDevice device, const DescriptorArenaDesc& desc)
    : device_(device), name_(desc.name), maxSets_(desc.maxSets) {
    if (desc.maxSets == 0) throw Error(name_ + ": maxSets must be at least 1");
    const std::vector<VkDescriptorPoolSize> sizes = desc.poolSizes.empty() ? defaultPoolSizes() : desc.poolSizes;
    vkutil::DescriptorPool pool;
    if (const VkResult r = pool.create(device_, desc.maxSets, sizes); r != VK_SUCCESS)
        throw Error(name_ + ": vkCreateDescriptorPool failed: " + toString(r), r);
    pool_ = pool.release();  // a plain handle: engine/descriptor_arena.h is an installed header
}

DescriptorArena::~DescriptorArena() {
    if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
}

VkDescriptorSet DescriptorArena::allocate(VkDescriptorSetLayout layout) {
    if (layout == VK_NULL_HANDLE) throw Error(name_ + ": allocate() needs a descriptor set layout (got VK_NULL_HANDLE)");
    if (allocated_ >= maxSets_)
        throw Error(name_ + " is exhausted: all " + std::to_string(maxSets_) +
                        " descriptor sets of this frame are allocated (raise DescriptorArenaDesc::maxSets)",
                    VK_ERROR_OUT_OF_POOL_MEMORY);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    const VkResult r = vkAllocateDescriptorSets(device_, &ai, &set);
    if (r == VK_ERROR_OUT_OF_POOL_MEMORY || r == VK_ERROR_FRAGMENTED_POOL)
        throw Error(name_ + " is exhausted after " + std::to_string(allocated_) +
                        " sets: no room for the descriptors of this layout (raise DescriptorArenaDesc::poolSizes)",
                    r);
    if (r != VK_SUCCESS) throw Error(name_ + ": vkAllocateDescriptorSets failed: " + toString(r), r);
    ++allocated_;
    return set;
}

void DescriptorArena::reset() {
    ENGINE_VK(vkResetDescriptorPool(device_, pool_, 0));
    allocated_ = 0;
}

}  // namespace engine
