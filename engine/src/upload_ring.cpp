#include "engine/upload_ring.h"

#include "engine/context.h"
#include "engine/error.h"

#include <algorithm>

namespace engine {

namespace {
VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }
}  // namespace

UploadRing::UploadRing(const Context& ctx, const UploadRingDesc& desc)
    : bytesPerFrame_(desc.bytesPerFrame), frames_(desc.framesInFlight) {
    if (desc.framesInFlight == 0 || desc.bytesPerFrame == 0)
        throw Error("upload ring: framesInFlight and bytesPerFrame must be non-zero");
    const VkPhysicalDeviceLimits& limits = ctx.properties().limits;
    defaultAlignment_ = std::max<VkDeviceSize>(
        {16, limits.minUniformBufferOffsetAlignment, limits.minStorageBufferOffsetAlignment, limits.nonCoherentAtomSize});
    // Each region starts aligned, so offsets aligned within a region are aligned in the buffer.
    bytesPerFrame_ = alignUp(desc.bytesPerFrame, defaultAlignment_);
    buffer_ = Buffer(ctx, bytesPerFrame_ * frames_, desc.usage, MemoryUsage::Upload,
                     "upload ring (" + std::to_string(frames_) + " frame slots of " + std::to_string(bytesPerFrame_) + " bytes)");
}

void UploadRing::beginFrame(uint32_t slot) {
    if (slot >= frames_)
        throw Error("upload ring: frame slot " + std::to_string(slot) + " out of range (" + std::to_string(frames_) + " slots)");
    slot_ = slot;
    cursor_ = 0;
}

UploadAllocation UploadRing::allocate(VkDeviceSize size, VkDeviceSize alignment) {
    if (alignment == 0) alignment = defaultAlignment_;
    if ((alignment & (alignment - 1)) != 0)
        throw Error("upload ring: alignment " + std::to_string(alignment) + " is not a power of two");
    const VkDeviceSize start = alignUp(cursor_, alignment);
    if (size == 0 || start + size > bytesPerFrame_)
        throw Error(ErrorCode::OutOfMemory, "upload ring: cannot allocate " + std::to_string(size) + " bytes: " + std::to_string(cursor_) + " of " +
                    std::to_string(bytesPerFrame_) + " bytes of this frame are used (raise UploadRingDesc::bytesPerFrame)");
    cursor_ = start + size;
    const VkDeviceSize offset = VkDeviceSize(slot_) * bytesPerFrame_ + start;
    return {buffer_.handle(), offset, size, static_cast<uint8_t*>(buffer_.mapped()) + offset};
}

}  // namespace engine
