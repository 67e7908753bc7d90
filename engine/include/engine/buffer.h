#pragma once
/// \file
/// A buffer with its own memory allocation. For long-lived resources (weights, readback,
/// uploads); per-frame transients come from the frame graph, which aliases their memory.
/// The memory comes from Context::allocateMemory: an allocation beyond the context's budget or
/// the device's memory throws engine::Error (ErrorCode::OutOfMemory) naming the size, and a
/// failed construction leaks nothing. The Context must outlive the buffer.
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <string_view>

ENGINE_API_BEGIN
namespace engine {

class Context;

/// Which memory a Buffer lives in.
enum class MemoryUsage {
    DeviceLocal,   ///< GPU only
    Upload,        ///< host-visible, coherent, written by the CPU
    Readback,      ///< host-visible, cached if possible, read by the CPU
};

/// A VkBuffer and its own VkDeviceMemory; move-only, destroyed with the object (the GPU must be done
/// with it: retire it through DeferredDeletion while frames are in flight).
class Buffer {
public:
    /// No buffer.
    Buffer() = default;
    /// A buffer of `size` bytes with `usage`, in `memory`; throws engine::Error on failure
    /// (ErrorCode::OutOfMemory beyond the budget or the device). `name` says what the buffer is
    /// for in error messages ("upload ring", "MlPass 'x' weights").
    Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory, std::string_view name = {});
    ~Buffer();
    /// Takes over `other`'s buffer.
    Buffer(Buffer&& other) noexcept;
    /// Destroys this buffer and takes over `other`'s.
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    /// The VkBuffer (VK_NULL_HANDLE when empty).
    VkBuffer handle() const { return buffer_; }
    /// Bytes.
    VkDeviceSize size() const { return size_; }
    /// Persistently mapped pointer for Upload/Readback buffers, nullptr for DeviceLocal.
    void* mapped() const { return mapped_; }
    /// Makes host writes visible / device writes visible to the host for non-coherent memory.
    void flush() const;
    /// Makes device writes visible to the host (non-coherent Readback memory).
    void invalidate() const;

private:
    void release();
    const Context* ctx_ = nullptr;  // its allocateMemory/freeMemory account for the memory
    VkDevice device_ = VK_NULL_HANDLE;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    void* mapped_ = nullptr;
    bool coherent_ = true;
};

}  // namespace engine
ENGINE_API_END
