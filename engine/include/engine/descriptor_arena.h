#pragma once
/// \file
/// DescriptorArena: a VkDescriptorPool from which descriptor sets of ANY layout are allocated
/// for one frame, then released all at once with reset(). Frames owns one per frame slot and
/// resets it only after that slot's fence signalled, so sets are never freed while in use.
///
/// The layout may come from anywhere (the renderer, or an external library such as mlplugin
/// that hands its own VkDescriptorSetLayout): the pool is created with generous per-type
/// capacities (DescriptorArenaDesc) instead of being sized for known layouts.
///
/// Exhaustion is a clear engine::Error naming the arena and the capacity to raise: the arena
/// counts sets itself and also maps VK_ERROR_OUT_OF_POOL_MEMORY / FRAGMENTED_POOL from the
/// driver to the same error. Not thread-safe (one arena per frame per recording thread).
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

/// Size of a DescriptorArena.
struct DescriptorArenaDesc {
    std::string name = "descriptor arena";  ///< used in error messages
    uint32_t maxSets = 256;  ///< sets allocatable between resets
    /// Descriptors of each type the pool can hold in total. Empty: a default mix sized for a
    /// renderer plus an ML network (storage buffers dominate).
    std::vector<VkDescriptorPoolSize> poolSizes;
};

/// A descriptor pool used as a linear allocator: sets are allocated during a frame and all freed
/// at once by reset() when the frame has completed (one arena per frame in flight).
class DescriptorArena {
public:
    /// An arena on `device`; throws engine::Error when the pool cannot be created.
    DescriptorArena(VkDevice device, const DescriptorArenaDesc& desc = {});
    ~DescriptorArena();
    DescriptorArena(const DescriptorArena&) = delete;
    DescriptorArena& operator=(const DescriptorArena&) = delete;

    /// A set of `layout`, valid until the next reset(). Throws engine::Error when exhausted.
    VkDescriptorSet allocate(VkDescriptorSetLayout layout);
    /// Frees every set at once. The caller guarantees the GPU no longer uses them.
    void reset();

    /// Sets allocated since the last reset().
    uint32_t allocatedSets() const { return allocated_; }
    /// DescriptorArenaDesc::maxSets.
    uint32_t capacity() const { return maxSets_; }
    /// The underlying pool.
    VkDescriptorPool pool() const { return pool_; }

private:
    VkDevice device_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::string name_;
    uint32_t maxSets_ = 0;
    uint32_t allocated_ = 0;
};

}  // namespace engine
ENGINE_API_END
