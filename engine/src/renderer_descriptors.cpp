#include "renderer_descriptors.h"

#include "engine/error.h"

#include <vkutil/descriptors.h>

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
    ENGINE_VK(pool_.create(device_, kMaxSets, sizes));
}

DescriptorCache::~DescriptorCache() = default;

void DescriptorCache::reset() {
    ENGINE_VK(vkResetDescriptorPool(device_, pool_.handle(), 0));
    entries_.clear();
}

VkDescriptorSet DescriptorCache::get(uint32_t pass, uint32_t slot, VkDescriptorSetLayout layout,
                                     std::span<const DescriptorBinding> bindings) {
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.pass == pass && e.slot == slot; });
    if (it == entries_.end()) {
        VkDescriptorSet set;
        ENGINE_VK(pool_.allocate({&layout, 1}, &set));
        entries_.push_back({pass, slot, set, {}});
        it = entries_.end() - 1;
    }
    bool changed = it->bindings.size() != bindings.size() ||
                   !std::equal(bindings.begin(), bindings.end(), it->bindings.begin(), same);
    if (!changed) return it->set;

    vkutil::DescriptorWrites writes(it->set);
    for (uint32_t i = 0; i < bindings.size(); ++i) {
        const DescriptorBinding& b = bindings[i];
        if (b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER) writes.buffer(i, b.type, {b.buffer, 0, VK_WHOLE_SIZE});
        else writes.image(i, b.type, {b.sampler, b.view, b.layout});
    }
    writes.update(device_);
    it->bindings.assign(bindings.begin(), bindings.end());
    return it->set;
}

}  // namespace engine
