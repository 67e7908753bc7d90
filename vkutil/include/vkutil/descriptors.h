#pragma once
// Descriptor writes and an owned descriptor pool.
//
//   vkutil::DescriptorWrites(set)
//       .images(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sources)   // a span: must outlive update()
//       .buffer(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {tensor, 0, bytes}) // one info: copied
//       .update(device);
//
// DescriptorWrites allocates nothing (fixed capacity; exceeding it is a programming error that
// aborts with a message, in release builds too), so it may be used on per-frame paths. It is neither copyable nor movable: its writes
// point into it.
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <span>
#include <utility>

namespace vkutil {

class DescriptorWrites {
public:
    static constexpr uint32_t kMaxWrites = 16;

    explicit DescriptorWrites(VkDescriptorSet set) : set_(set) {}
    DescriptorWrites(const DescriptorWrites&) = delete;
    DescriptorWrites& operator=(const DescriptorWrites&) = delete;

    // One descriptor; the info is copied.
    DescriptorWrites& buffer(uint32_t binding, VkDescriptorType type, const VkDescriptorBufferInfo& info);
    DescriptorWrites& image(uint32_t binding, VkDescriptorType type, const VkDescriptorImageInfo& info);
    // Consecutive array elements from `arrayElement`; the infos are referenced, not copied.
    DescriptorWrites& buffers(uint32_t binding, VkDescriptorType type, std::span<const VkDescriptorBufferInfo> infos, uint32_t arrayElement = 0);
    DescriptorWrites& images(uint32_t binding, VkDescriptorType type, std::span<const VkDescriptorImageInfo> infos, uint32_t arrayElement = 0);

    uint32_t count() const { return count_; }
    void update(VkDevice device) const;

private:
    VkWriteDescriptorSet& add(uint32_t binding, VkDescriptorType type, uint32_t count, uint32_t arrayElement);

    VkDescriptorSet set_;
    uint32_t count_ = 0;
    std::array<VkWriteDescriptorSet, kMaxWrites> writes_{};
    std::array<VkDescriptorBufferInfo, kMaxWrites> bufferInfos_{};
    std::array<VkDescriptorImageInfo, kMaxWrites> imageInfos_{};
};

// An owned VkDescriptorPool: destroying it (or create() again) frees every set allocated from it.
class DescriptorPool {
public:
    DescriptorPool() = default;
    ~DescriptorPool() { destroy(); }
    DescriptorPool(DescriptorPool&& other) noexcept { *this = std::move(other); }
    DescriptorPool& operator=(DescriptorPool&& other) noexcept;
    DescriptorPool(const DescriptorPool&) = delete;
    DescriptorPool& operator=(const DescriptorPool&) = delete;

    VkResult create(VkDevice device, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes, VkDescriptorPoolCreateFlags flags = 0);
    // One set per layout, written to sets[0 .. layouts.size()). Nothing to do for no layouts.
    VkResult allocate(std::span<const VkDescriptorSetLayout> layouts, VkDescriptorSet* sets) const;
    // create() with room for exactly sets.size() sets of `layout`, each holding `perSet`
    // descriptors, then allocate() them all into `sets` (none: an empty pool of one set).
    VkResult createSets(VkDevice device, VkDescriptorSetLayout layout, VkDescriptorPoolSize perSet, std::span<VkDescriptorSet> sets);
    void destroy();

    VkDescriptorPool handle() const { return pool_; }
    explicit operator bool() const { return pool_ != VK_NULL_HANDLE; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

}  // namespace vkutil
