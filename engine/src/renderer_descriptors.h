#pragma once
// Descriptor sets for the renderer's passes: one set per (pass, frame slot), written when first
// used and rewritten only when a view behind it changes (a re-baked graph, a new swapchain
// image). A slot's set is only touched while that slot's previous frame has completed, which
// is the frames-in-flight contract of Renderer::record().
#include <vkutil/descriptors.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <vector>

namespace engine {

struct DescriptorBinding {
    VkDescriptorType type;
    VkImageView view = VK_NULL_HANDLE;      // images
    VkSampler sampler = VK_NULL_HANDLE;     // combined image samplers
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkBuffer buffer = VK_NULL_HANDLE;       // storage buffers (whole range)
};

class DescriptorCache {
public:
    explicit DescriptorCache(VkDevice device);
    ~DescriptorCache();
    DescriptorCache(const DescriptorCache&) = delete;
    DescriptorCache& operator=(const DescriptorCache&) = delete;

    // The set for (pass, slot) holding `bindings` (binding i = bindings[i]).
    VkDescriptorSet get(uint32_t pass, uint32_t slot, VkDescriptorSetLayout layout, std::span<const DescriptorBinding> bindings);
    // Frees every set (after a re-bake, when no frame in flight uses them any more).
    void reset();

private:
    struct Entry {
        uint32_t pass, slot;
        VkDescriptorSet set;
        std::vector<DescriptorBinding> bindings;
    };
    VkDevice device_;
    vkutil::DescriptorPool pool_;
    std::vector<Entry> entries_;
};

}  // namespace engine
