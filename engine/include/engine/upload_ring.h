#pragma once
/// \file
/// UploadRing: one persistently mapped, host-coherent buffer carved into one region per frame
/// slot. allocate() bumps a cursor in the current slot's region: per-frame constants, small
/// uploads, staging. beginFrame(slot) rewinds that slot's region; Frames calls it after the
/// slot's fence signalled, so the GPU has finished reading what was written there before.
/// Exceeding the region is a clear engine::Error (raise bytesPerFrame).
#include "engine/buffer.h"
#include "engine/export.h"

#include <cstdint>

ENGINE_API_BEGIN
namespace engine {

class Context;

/// Size and usage of an UploadRing.
struct UploadRingDesc {
    uint32_t framesInFlight = 2;  ///< one region per frame slot
    VkDeviceSize bytesPerFrame = 4u << 20;  ///< size of each region
    /// How the uploaded data may be used.
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                               VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
};

/// A range of the upload buffer, mapped.
struct UploadAllocation {
    VkBuffer buffer = VK_NULL_HANDLE;  ///< the ring's buffer
    VkDeviceSize offset = 0;  ///< start of the range
    VkDeviceSize size = 0;  ///< bytes
    void* data = nullptr;  ///< host pointer to write `size` bytes to
};

/// Per-frame upload memory: one host-visible buffer split into one region per frame slot, each a
/// bump allocator reset by beginFrame. Throws engine::Error when a frame asks for more than its
/// region holds.
class UploadRing {
public:
    /// The ring's buffer on `ctx`.
    UploadRing(const Context& ctx, const UploadRingDesc& desc = {});

    /// Starts allocating from slot `slot`'s region (its previous frame must have completed).
    void beginFrame(uint32_t slot);
    /// `alignment` 0: the device's strictest uniform/storage offset alignment (at least 16).
    UploadAllocation allocate(VkDeviceSize size, VkDeviceSize alignment = 0);

    /// The buffer all allocations are ranges of.
    VkBuffer buffer() const { return buffer_.handle(); }
    /// Size of one region.
    VkDeviceSize bytesPerFrame() const { return bytesPerFrame_; }
    /// Bytes allocated in the current region.
    VkDeviceSize usedThisFrame() const { return cursor_; }

private:
    Buffer buffer_;
    VkDeviceSize bytesPerFrame_ = 0;
    VkDeviceSize defaultAlignment_ = 16;
    uint32_t frames_ = 0;
    uint32_t slot_ = 0;
    VkDeviceSize cursor_ = 0;  ///< bytes used in the current slot's region
};

}  // namespace engine
ENGINE_API_END
