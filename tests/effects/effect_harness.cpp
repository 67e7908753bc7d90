#include "effect_harness.h"

#include "bridge/effect_upscaler.h"
#include "engine/buffer.h"
#include "engine/error.h"

#include <vkutil/barrier.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace fxtest {
namespace {

uint32_t componentsOrZero(VkFormat f) {
    switch (f) {
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT: return 1;
    case VK_FORMAT_R32G32_SFLOAT: return 2;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 4;
    default: return 0;
    }
}

uint32_t componentsOf(VkFormat f) {
    if (uint32_t n = componentsOrZero(f)) return n;
    throw std::runtime_error("test input images are 32-bit float formats");
}

uint32_t bytesPerTexel(VkFormat f) {
    switch (f) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    case VK_FORMAT_R16G16B16A16_SFLOAT: return 8;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return 4;
    default: return 4 * componentsOf(f);
    }
}

// An unsigned float of 5 exponent bits (bias 15) and `mantissaBits`, or the sign-less part of an
// IEEE half.
float unsignedSmallFloat(uint32_t bits, uint32_t mantissaBits) {
    const uint32_t e = (bits >> mantissaBits) & 31u, m = bits & ((1u << mantissaBits) - 1u);
    const float fraction = float(m) / float(1u << mantissaBits);
    if (e == 0) return std::ldexp(fraction, -14);
    if (e == 31) return m ? NAN : INFINITY;
    return std::ldexp(1.0f + fraction, int(e) - 15);
}

float halfToFloat(uint16_t h) {
    const float magnitude = unsignedSmallFloat(h & 0x7fffu, 10);
    return (h & 0x8000u) ? -magnitude : magnitude;
}

// One texel of an output format as 4 floats (formats without alpha read alpha 1).
void decodeTexel(VkFormat f, const uint8_t* p, float* out) {
    uint32_t packed = 0;
    std::memcpy(&packed, p, 4);
    switch (f) {
    case VK_FORMAT_R16G16B16A16_SFLOAT:
        for (int c = 0; c < 4; ++c) {
            uint16_t h;
            std::memcpy(&h, p + 2 * c, 2);
            out[c] = halfToFloat(h);
        }
        return;
    case VK_FORMAT_R8G8B8A8_UNORM:
        for (int c = 0; c < 4; ++c) out[c] = float(p[c]) / 255.0f;
        return;
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
        for (int c = 0; c < 3; ++c) out[c] = float((packed >> (10 * c)) & 1023u) / 1023.0f;
        out[3] = float(packed >> 30) / 3.0f;
        return;
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
        out[0] = unsignedSmallFloat(packed & 0x7ffu, 6);
        out[1] = unsignedSmallFloat((packed >> 11) & 0x7ffu, 6);
        out[2] = unsignedSmallFloat(packed >> 22, 5);
        out[3] = 1.0f;
        return;
    default: {
        const uint32_t n = componentsOf(f);
        std::memcpy(out, p, 4 * n);
        return;
    }
    }
}

// A whole-image transition (vkutil::imageBarrier with the aspect last, as the calls below read).
void barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage,
             VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess, VkImageAspectFlags aspect) {
    vkutil::imageBarrier(cmd, image, aspect, from, to, srcStage, srcAccess, dstStage, dstAccess);
}

}  // namespace

TestImage::TestImage(engine::Context& ctx, VkFormat format, VkExtent2D extent, bool output)
    : ctx_(ctx), format_(format), extent_(extent), output_(output) {
    const VkImageUsageFlags usage = output ? VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT
                                           : VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ENGINE_VK(image_.create(ctx.physicalDevice(), ctx.device(), format, extent, usage));
    if (output) {
        ctx.submitAndWait([&](VkCommandBuffer cmd) {
            barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_NONE, 0,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
        });
    }
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
        barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0,
                VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, aspect);
        VkBufferImageCopy region{};
        region.imageSubresource = {aspect, 0, 0, 1};
        region.imageExtent = {extent_.width, extent_.height, 1};
        vkCmdCopyBufferToImage(cmd, staging.handle(), image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, aspect);
    });
}

std::vector<float> TestImage::read() {
    const size_t texels = size_t(extent_.width) * extent_.height;
    const bool packed = bytesPerTexel(format_) != 4 * componentsOrZero(format_);
    const size_t n = texels * (packed ? 4 : components());
    engine::Buffer staging(ctx_, texels * bytesPerTexel(format_), VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {extent_.width, extent_.height, 1};
        vkCmdCopyImageToBuffer(cmd, image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging.handle(), 1, &region);
        barrier(cmd, image_.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COPY_BIT, 0,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
    });
    staging.invalidate();
    std::vector<float> out(n);
    const auto* bytes = static_cast<const uint8_t*>(staging.mapped());
    if (!packed) {
        std::memcpy(out.data(), bytes, n * 4);
        return out;
    }
    for (size_t i = 0; i < texels; ++i) decodeTexel(format_, bytes + i * bytesPerTexel(format_), &out[4 * i]);
    return out;
}

effects::ImageInput TestImage::input() const {
    return {image_.view(), output_ ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, extent_, format_};
}

const std::vector<OutputFormat>& outputFormats() {
    static const std::vector<OutputFormat> formats = {
        {VK_FORMAT_R16G16B16A16_SFLOAT, "R16G16B16A16_SFLOAT", 1.0 / 1024, 1e-6, false, true},
        {VK_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 0.0, 1.0 / 255, true, true},
        {VK_FORMAT_A2B10G10R10_UNORM_PACK32, "A2B10G10R10_UNORM_PACK32", 0.0, 1.0 / 1023, true, true},
        {VK_FORMAT_B10G11R11_UFLOAT_PACK32, "B10G11R11_UFLOAT_PACK32", 1.0 / 32, 1e-5, false, false}};
    return formats;
}

bool storageCapable(engine::Context& ctx, VkFormat format) {
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(ctx.physicalDevice(), format, &props);
    return props.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
}

double worstRoundingUnits(const OutputFormat& f, const std::vector<float>& reference, const std::vector<float>& got) {
    if (got.size() != reference.size()) return INFINITY;
    double worst = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        double expected = reference[i];
        if (f.unorm) expected = std::clamp(expected, 0.0, 1.0);
        if (!f.alpha) expected = i % 4 == 3 ? 1.0 : std::max(expected, 0.0);
        worst = std::max(worst, std::fabs(got[i] - expected) / (std::fabs(expected) * f.relative + f.absolute + 1e-6));
    }
    return worst;
}

effects::EffectDevice effectDevice(engine::Context& ctx) { return bridge::effectDevice(ctx, /*debugChecks*/ true); }

void run(engine::Context& ctx, const std::function<void(VkCommandBuffer)>& fn) { ctx.submitAndWait(fn); }

}  // namespace fxtest
