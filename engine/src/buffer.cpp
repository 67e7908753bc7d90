#include "engine/buffer.h"

#include "engine/context.h"
#include "engine/error.h"

#include <string>
#include <utility>

namespace engine {

namespace {
const char* usageName(MemoryUsage m) {
    return m == MemoryUsage::DeviceLocal ? "device-local" : m == MemoryUsage::Upload ? "host-visible upload" : "read-back";
}
}  // namespace

Buffer::Buffer(const Context& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUsage memory, std::string_view name)
    : ctx_(&ctx), device_(ctx.device()), size_(size) {
    if (size == 0) throw Error("cannot create a buffer of 0 bytes");
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ENGINE_VK(vkCreateBuffer(device_, &bci, nullptr, &buffer_));
    try {
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device_, buffer_, &req);
        uint32_t type = 0;
        if (memory == MemoryUsage::DeviceLocal) {
            type = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        } else if (memory == MemoryUsage::Upload) {
            type = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        } else {
            try {
                type = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
            } catch (const Error&) {
                type = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
            }
        }
        VkPhysicalDeviceMemoryProperties mp;
        vkGetPhysicalDeviceMemoryProperties(ctx.physicalDevice(), &mp);
        coherent_ = mp.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = req.size;
        mai.memoryTypeIndex = type;
        memory_ = ctx.allocateMemory(mai, name.empty() ? "a " + std::string(usageName(memory)) + " buffer of " + std::to_string(size) + " bytes"
                                                   : std::string(name));
        ENGINE_VK(vkBindBufferMemory(device_, buffer_, memory_, 0));
        if (memory != MemoryUsage::DeviceLocal) ENGINE_VK_ON(ctx, vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_));
    } catch (...) {
        release();
        throw;
    }
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& o) noexcept { *this = std::move(o); }

Buffer& Buffer::operator=(Buffer&& o) noexcept {
    if (this != &o) {
        release();
        ctx_ = std::exchange(o.ctx_, nullptr);
        device_ = std::exchange(o.device_, VK_NULL_HANDLE);
        buffer_ = std::exchange(o.buffer_, VK_NULL_HANDLE);
        memory_ = std::exchange(o.memory_, VK_NULL_HANDLE);
        size_ = std::exchange(o.size_, 0);
        mapped_ = std::exchange(o.mapped_, nullptr);
        coherent_ = o.coherent_;
    }
    return *this;
}

void Buffer::release() {
    if (!device_) return;
    if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_) ctx_->freeMemory(memory_);
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
}

void Buffer::flush() const {
    if (coherent_ || !mapped_) return;
    VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    r.memory = memory_;
    r.size = VK_WHOLE_SIZE;
    ENGINE_VK(vkFlushMappedMemoryRanges(device_, 1, &r));
}

void Buffer::invalidate() const {
    if (coherent_ || !mapped_) return;
    VkMappedMemoryRange r{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE};
    r.memory = memory_;
    r.size = VK_WHOLE_SIZE;
    ENGINE_VK(vkInvalidateMappedMemoryRanges(device_, 1, &r));
}

}  // namespace engine
