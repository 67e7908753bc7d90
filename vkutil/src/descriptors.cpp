#include "vkutil/descriptors.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace vkutil {

VkWriteDescriptorSet& DescriptorWrites::add(uint32_t binding, VkDescriptorType type, uint32_t count, uint32_t arrayElement) {
    if (count_ == kMaxWrites) {  // a programming error; never write past the arrays, also in release builds
        std::fputs("vkutil::DescriptorWrites: more than kMaxWrites writes for one set\n", stderr);
        std::abort();
    }
    VkWriteDescriptorSet& w = writes_[count_++];
    w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set_;
    w.dstBinding = binding;
    w.dstArrayElement = arrayElement;
    w.descriptorCount = count;
    w.descriptorType = type;
    return w;
}

DescriptorWrites& DescriptorWrites::buffer(uint32_t binding, VkDescriptorType type, const VkDescriptorBufferInfo& info) {
    VkWriteDescriptorSet& w = add(binding, type, 1, 0);
    bufferInfos_[count_ - 1] = info;
    w.pBufferInfo = &bufferInfos_[count_ - 1];
    return *this;
}

DescriptorWrites& DescriptorWrites::image(uint32_t binding, VkDescriptorType type, const VkDescriptorImageInfo& info) {
    VkWriteDescriptorSet& w = add(binding, type, 1, 0);
    imageInfos_[count_ - 1] = info;
    w.pImageInfo = &imageInfos_[count_ - 1];
    return *this;
}

DescriptorWrites& DescriptorWrites::buffers(uint32_t binding, VkDescriptorType type, std::span<const VkDescriptorBufferInfo> infos,
                                            uint32_t arrayElement) {
    add(binding, type, uint32_t(infos.size()), arrayElement).pBufferInfo = infos.data();
    return *this;
}

DescriptorWrites& DescriptorWrites::images(uint32_t binding, VkDescriptorType type, std::span<const VkDescriptorImageInfo> infos,
                                           uint32_t arrayElement) {
    add(binding, type, uint32_t(infos.size()), arrayElement).pImageInfo = infos.data();
    return *this;
}

void DescriptorWrites::update(VkDevice device) const {
    if (count_) vkUpdateDescriptorSets(device, count_, writes_.data(), 0, nullptr);
}

DescriptorPool& DescriptorPool::operator=(DescriptorPool&& other) noexcept {
    if (this != &other) {
        destroy();
        device_ = std::exchange(other.device_, VK_NULL_HANDLE);
        pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
    }
    return *this;
}

VkResult DescriptorPool::create(VkDevice device, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes, VkDescriptorPoolCreateFlags flags) {
    destroy();
    VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    ci.flags = flags;
    ci.maxSets = maxSets;
    ci.poolSizeCount = uint32_t(sizes.size());
    ci.pPoolSizes = sizes.data();
    VkResult r = vkCreateDescriptorPool(device, &ci, nullptr, &pool_);
    if (r == VK_SUCCESS) device_ = device;
    else pool_ = VK_NULL_HANDLE;
    return r;
}

VkResult DescriptorPool::allocate(std::span<const VkDescriptorSetLayout> layouts, VkDescriptorSet* sets) const {
    if (layouts.empty()) return VK_SUCCESS;
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = uint32_t(layouts.size());
    ai.pSetLayouts = layouts.data();
    return vkAllocateDescriptorSets(device_, &ai, sets);
}

VkResult DescriptorPool::createSets(VkDevice device, VkDescriptorSetLayout layout, VkDescriptorPoolSize perSet, std::span<VkDescriptorSet> sets) {
    const uint32_t count = std::max<uint32_t>(uint32_t(sets.size()), 1);
    const VkDescriptorPoolSize size{perSet.type, perSet.descriptorCount * count};
    if (VkResult r = create(device, count, {&size, 1}); r != VK_SUCCESS) return r;
    return allocate(std::vector<VkDescriptorSetLayout>(sets.size(), layout), sets.data());
}

void DescriptorPool::destroy() {
    if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
    pool_ = VK_NULL_HANDLE;
    device_ = VK_NULL_HANDLE;
}

}  // namespace vkutil
