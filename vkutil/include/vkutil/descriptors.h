#pragma once
// Descriptor writes and an owned descriptor pool.
//
//   vkutil::DescriptorWrites(set)
//       .images(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, sources)   // a span: must outlive update()
//       .buffer(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {tensor, 0, bytes}) // one info: copied
//       .update(device);
//
// DescriptorWrites allocates nothing (fixed capacity; exceeding it is a programming error that
// aborts with a message, in release builds too), so it may be used on per-frame paths. It is
// neither copyable nor movable: its writes point into it.
//
// As in pipeline.h, the Vulkan calls go through the loader (update(device), create(device, ...):
// the vkutil library) or through a function table (update(vk, device), create(vk, device, ...):
// header-only, for libraries that load Vulkan through the application's vkGetInstanceProcAddr).
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
    DescriptorWrites& buffer(uint32_t binding, VkDescriptorType type, const VkDescriptorBufferInfo& info) {
        VkWriteDescriptorSet& w = add(binding, type, 1, 0);
        bufferInfos_[count_ - 1] = info;
        w.pBufferInfo = &bufferInfos_[count_ - 1];
        return *this;
    }
    DescriptorWrites& image(uint32_t binding, VkDescriptorType type, const VkDescriptorImageInfo& info) {
        VkWriteDescriptorSet& w = add(binding, type, 1, 0);
        imageInfos_[count_ - 1] = info;
        w.pImageInfo = &imageInfos_[count_ - 1];
        return *this;
    }
    // Consecutive array elements from `arrayElement`; the infos are referenced, not copied.
    DescriptorWrites& buffers(uint32_t binding, VkDescriptorType type, std::span<const VkDescriptorBufferInfo> infos, uint32_t arrayElement = 0) {
        add(binding, type, uint32_t(infos.size()), arrayElement).pBufferInfo = infos.data();
        return *this;
    }
    DescriptorWrites& images(uint32_t binding, VkDescriptorType type, std::span<const VkDescriptorImageInfo> infos, uint32_t arrayElement = 0) {
        add(binding, type, uint32_t(infos.size()), arrayElement).pImageInfo = infos.data();
        return *this;
    }

    uint32_t count() const { return count_; }
    void update(VkDevice device) const;  // the loader's vkUpdateDescriptorSets
    template <class Vk>
    void update(const Vk& vk, VkDevice device) const {
        if (count_) vk.vkUpdateDescriptorSets(device, count_, writes_.data(), 0, nullptr);
    }

private:
    VkWriteDescriptorSet& add(uint32_t binding, VkDescriptorType type, uint32_t count, uint32_t arrayElement) {
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
    DescriptorPool& operator=(DescriptorPool&& other) noexcept {
        if (this != &other) {
            destroy();
            device_ = std::exchange(other.device_, VK_NULL_HANDLE);
            pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
            allocate_ = other.allocate_;
            destroy_ = other.destroy_;
        }
        return *this;
    }
    DescriptorPool(const DescriptorPool&) = delete;
    DescriptorPool& operator=(const DescriptorPool&) = delete;

    // Through the loader.
    VkResult create(VkDevice device, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes, VkDescriptorPoolCreateFlags flags = 0);
    // Through `vk` (vkCreateDescriptorPool, vkDestroyDescriptorPool, vkAllocateDescriptorSets).
    template <class Vk>
    VkResult create(const Vk& vk, VkDevice device, uint32_t maxSets, std::span<const VkDescriptorPoolSize> sizes,
                    VkDescriptorPoolCreateFlags flags = 0) {
        destroy();
        VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        ci.flags = flags;
        ci.maxSets = maxSets;
        ci.poolSizeCount = uint32_t(sizes.size());
        ci.pPoolSizes = sizes.data();
        VkDescriptorPool pool = VK_NULL_HANDLE;
        const VkResult r = vk.vkCreateDescriptorPool(device, &ci, nullptr, &pool);
        if (r != VK_SUCCESS) return r;
        device_ = device;
        pool_ = pool;
        allocate_ = vk.vkAllocateDescriptorSets;
        destroy_ = vk.vkDestroyDescriptorPool;
        return r;
    }
    // One set per layout, written to sets[0 .. layouts.size()). Nothing to do for no layouts.
    VkResult allocate(std::span<const VkDescriptorSetLayout> layouts, VkDescriptorSet* sets) const {
        if (layouts.empty()) return VK_SUCCESS;
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = pool_;
        ai.descriptorSetCount = uint32_t(layouts.size());
        ai.pSetLayouts = layouts.data();
        return allocate_(device_, &ai, sets);
    }
    // create() with room for exactly sets.size() sets of `layout`, each holding `perSet`
    // descriptors, then allocate() them all into `sets` (none: an empty pool of one set).
    VkResult createSets(VkDevice device, VkDescriptorSetLayout layout, VkDescriptorPoolSize perSet, std::span<VkDescriptorSet> sets);
    template <class Vk>
    VkResult createSets(const Vk& vk, VkDevice device, VkDescriptorSetLayout layout, VkDescriptorPoolSize perSet, std::span<VkDescriptorSet> sets) {
        const uint32_t count = std::max<uint32_t>(uint32_t(sets.size()), 1);
        const VkDescriptorPoolSize size{perSet.type, perSet.descriptorCount * count};
        if (VkResult r = create(vk, device, count, {&size, 1}); r != VK_SUCCESS) return r;
        std::array<VkDescriptorSetLayout, 32> layouts;  // allocated 32 sets at a time
        layouts.fill(layout);
        for (size_t first = 0; first < sets.size(); first += layouts.size()) {
            const size_t n = std::min(layouts.size(), sets.size() - first);
            if (VkResult r = allocate({layouts.data(), n}, sets.data() + first); r != VK_SUCCESS) return r;
        }
        return VK_SUCCESS;
    }
    void destroy() {
        if (pool_) destroy_(device_, pool_, nullptr);
        pool_ = VK_NULL_HANDLE;
        device_ = VK_NULL_HANDLE;
    }

    VkDescriptorPool handle() const { return pool_; }
    // Gives up ownership: the caller destroys the returned pool (an owner whose handle must stay
    // a plain VkDescriptorPool, e.g. behind an installed header).
    VkDescriptorPool release() {
        device_ = VK_NULL_HANDLE;
        return std::exchange(pool_, VK_NULL_HANDLE);
    }
    explicit operator bool() const { return pool_ != VK_NULL_HANDLE; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    PFN_vkAllocateDescriptorSets allocate_ = nullptr;
    PFN_vkDestroyDescriptorPool destroy_ = nullptr;
};

}  // namespace vkutil
