#include "effect_harness.h"

#include "engine/buffer.h"
#include "engine/error.h"

#include <cstring>
#include <stdexcept>

namespace fxtest {
namespace {

uint32_t componentsOf(VkFormat f) {
    switch (f) {
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT: return 1;
    case VK_FORMAT_R32G32_SFLOAT: return 2;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 4;
    default: throw std::runtime_error("test images are 32-bit float formats");
    }
}

void barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage,
             VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess, VkImageAspectFlags aspect) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = srcStage;
    b.srcAccessMask = srcAccess;
    b.dstStageMask = dstStage;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {aspect, 0, 1, 0, 1};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace

TestImage::TestImage(engine::Context& ctx, VkFormat format, VkExtent2D extent, bool output)
    : ctx_(ctx), format_(format), extent_(extent), output_(output) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {extent.width, extent.height, 1};
    ci.mipLevels = ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.usage = output ? VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT
                      : VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ENGINE_VK(vkCreateImage(ctx.device(), &ci, nullptr, &image_));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(ctx.device(), image_, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    ENGINE_VK(vkAllocateMemory(ctx.device(), &ai, nullptr, &memory_));
    ENGINE_VK(vkBindImageMemory(ctx.device(), image_, memory_, 0));
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = image_;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = {VkImageAspectFlags(format == VK_FORMAT_D32_SFLOAT ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT), 0, 1, 0, 1};
    ENGINE_VK(vkCreateImageView(ctx.device(), &vi, nullptr, &view_));
    if (output) {
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            barrier(cmd, image_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE, 0,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
        });
    }
}

TestImage::~TestImage() {
    vkDestroyImageView(ctx_.device(), view_, nullptr);
    vkDestroyImage(ctx_.device(), image_, nullptr);
    vkFreeMemory(ctx_.device(), memory_, nullptr);
}

uint32_t TestImage::components() const { return componentsOf(format_); }

void TestImage::fill(const std::vector<float>& texels) {
    const size_t n = size_t(extent_.width) * extent_.height * components();
    if (texels.size() != n) throw std::runtime_error("TestImage::fill: wrong texel count");
    engine::Buffer staging(ctx_, n * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, engine::MemoryUsage::Upload);
    std::memcpy(staging.mapped(), texels.data(), n * 4);
    staging.flush();
    const VkImageAspectFlags aspect = format_ == VK_FORMAT_D32_SFLOAT ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        // Earlier compute reads of the previous contents come before the copy overwrites them.
        barrier(cmd, image_, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0,
                VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, aspect);
        VkBufferImageCopy region{};
        region.imageSubresource = {aspect, 0, 0, 1};
        region.imageExtent = {extent_.width, extent_.height, 1};
        vkCmdCopyBufferToImage(cmd, staging.handle(), image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        barrier(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, aspect);
    });
}

std::vector<float> TestImage::read() {
    const size_t n = size_t(extent_.width) * extent_.height * components();
    engine::Buffer staging(ctx_, n * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        barrier(cmd, image_, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {extent_.width, extent_.height, 1};
        vkCmdCopyImageToBuffer(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.handle(), 1, &region);
        barrier(cmd, image_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
    });
    staging.invalidate();
    std::vector<float> out(n);
    std::memcpy(out.data(), staging.mapped(), n * 4);
    return out;
}

effects::ImageInput TestImage::input() const {
    return {view_, output_ ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, extent_, format_};
}

effects::EffectDevice effectDevice(engine::Context& ctx) {
    effects::EffectDevice d;
    d.instance = ctx.instance();
    d.physicalDevice = ctx.physicalDevice();
    d.device = ctx.device();
    d.queueFamilyIndex = ctx.queueFamily();
    d.getInstanceProcAddr = vkGetInstanceProcAddr;
    d.shaderStorageBufferArrayDynamicIndexingEnabled = true;
    d.storageBuffer16BitAccessEnabled = ctx.features().storageBuffer16BitAccess;
    d.shaderFloat16Enabled = ctx.features().shaderFloat16;
    d.cooperativeMatrixNVEnabled = ctx.features().cooperativeMatrixNV;
    d.debugChecks = true;
    return d;
}

void run(engine::Context& ctx, const std::function<void(VkCommandBuffer)>& fn) { ctx.submitAndWait(fn); }

}  // namespace fxtest
