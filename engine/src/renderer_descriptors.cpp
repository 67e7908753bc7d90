#include "renderer_descriptors.h"

#include "engine/error.h"

#include <algorithm>

namespace engine {
namespace {
// A handful of passes times a few frame slots; generous so an upscaler swap never runs out.
constexpr uint32_t kMaxSets = 64;

bool same(const DescriptorBinding& a, const DescriptorBinding& b) {
    return a.type == b.type && a.view == b.view && a.sampler == b.sampler && a.layout == b.layout && a.buffer == b.buffer;
}
}  // namespace

DescriptorCache::DescriptorCache(VkDevice device) : device_(device) {
    VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, kMaxSets * 4},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kMaxSets * 2},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kMaxSets},
    };
    VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    ci.maxSets = kMaxSets;
    ci.poolSizeCount = 3;
    ci.pPoolSizes = sizes;
    ENGINE_VK(vkCreateDescriptorPool(device_, &ci, nullptr, &pool_));
}

DescriptorCache::~DescriptorCache() { vkDestroyDescriptorPool(device_, pool_, nullptr); }

void DescriptorCache::reset() {
    ENGINE_VK(vkResetDescriptorPool(device_, pool_, 0));
    entries_.clear();
}

VkDescriptorSet DescriptorCache::get(uint32_t pass, uint32_t slot, VkDescriptorSetLayout layout,
                                     std::span<const DescriptorBinding> bindings) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.pass == pass && e.slot == slot; });
    if (it == entries_.end()) {
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = pool_;
        ai.descriptorSetCount = 1;
        ai.pSetLayouts = &layout;
        VkDescriptorSet set;
        ENGINE_VK(vkAllocateDescriptorSets(device_, &ai, &set));
        entries_.push_back({pass, slot, set, {}});
        it = entries_.end() - 1;
    }
    bool changed = it->bindings.size() != bindings.size() ||
                   !std::equal(bindings.begin(), bindings.end(), it->bindings.begin(), same);
    if (!changed) return it->set;

    std::vector<VkDescriptorImageInfo> images(bindings.size());
    std::vector<VkDescriptorBufferInfo> buffers(bindings.size());
    std::vector<VkWriteDescriptorSet> writes;
    for (uint32_t i = 0; i < bindings.size(); ++i) {
        const DescriptorBinding& b = bindings[i];
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = it->set;
        w.dstBinding = i;
        w.descriptorCount = 1;
        w.descriptorType = b.type;
        if (b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) {
            buffers[i] = {b.buffer, 0, VK_WHOLE_SIZE};
            w.pBufferInfo = &buffers[i];
        } else {
            images[i] = {b.sampler, b.view, b.layout};
            w.pImageInfo = &images[i];
        }
        writes.push_back(w);
    }
    vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(), 0, nullptr);
    it->bindings.assign(bindings.begin(), bindings.end());
    return it->set;
}

}  // namespace engine
