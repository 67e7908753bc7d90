// Headless read-back: a transfer pass copies the 8-bit frame and the requested float channels
// into imported host buffers (one set per frame slot); readback() converts them on the CPU.
#include "engine/context.h"
#include "engine/error.h"
#include "renderer_internal.h"

#include <cstring>

namespace engine {

const char* toString(Channel c) {
    switch (c) {
    case Channel::Color: return "color";
    case Channel::Depth: return "depth";
    case Channel::Normal: return "normal";
    case Channel::Albedo: return "albedo";
    case Channel::Motion: return "motion";
    case Channel::SunVisibility: return "sun_visibility";
    case Channel::Output: return "output";
    }
    return "?";
}

uint32_t texelBytes(VkFormat format) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_R16G16_SFLOAT:
    case VK_FORMAT_D32_SFLOAT: return 4;
    case VK_FORMAT_R16G16B16A16_SFLOAT: return 8;
    case VK_FORMAT_R16_SFLOAT: return 2;
    default: throw Error(ErrorCode::Unsupported, "read-back of format " + std::to_string(int(format)) + " is not supported");
    }
}

namespace {

constexpr Channel kAllChannels[] = {Channel::Color, Channel::Depth, Channel::Normal, Channel::Albedo,
                                    Channel::Motion, Channel::SunVisibility, Channel::Output};

uint32_t components(Channel c) {
    switch (c) {
    case Channel::Depth:
    case Channel::SunVisibility: return 1;
    case Channel::Motion: return 2;
    default: return 3;
    }
}

// Converts one texel of `format` at `src` to `n` floats.
void toFloats(VkFormat format, const uint8_t* src, uint32_t n, float* dst) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
        for (uint32_t i = 0; i < n; ++i) dst[i] = float(src[i]) / 255.0f;
        return;
    case VK_FORMAT_D32_SFLOAT: std::memcpy(dst, src, 4); return;
    default: {  // 16-bit float formats
        const auto* h = reinterpret_cast<const uint16_t*>(src);
        for (uint32_t i = 0; i < n; ++i) dst[i] = halfToFloat(h[i]);
    }
    }
}

}  // namespace

void Renderer::Impl::addReadback(uint32_t channels) {
    FrameGraph& g = *graph;
    const ExternalState before{VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE};
    const ExternalState afterHost{VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT};
    auto make = [&](Channel c, ResourceHandle image, VkFormat format, VkExtent2D extent, const char* name) {
        ReadbackImage rb{c, image, kInvalidResource, format, extent, {}};
        VkDeviceSize size = VkDeviceSize(extent.width) * extent.height * texelBytes(format);
        for (uint32_t s = 0; s < target.framesInFlight; ++s)
            rb.slots.emplace_back(ctx, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::Readback,
                                  std::string("renderer read-back of '") + name + "' (frame slot " + std::to_string(s) + ")");
        rb.buffer = g.importBuffer(std::string("readback.") + name, rb.slots[0].handle(), size, before, afterHost);
        return rb;
    };
    frameReadback = make(Channel::Color, targetImage, kHeadlessTargetFormat, outputExtent, "frame");
    channelReadbacks.clear();
    for (Channel c : kAllChannels) {
        if (!(channels & uint32_t(c))) continue;
        ResourceHandle image = c == Channel::Color ? stage.color : c == Channel::Depth ? stage.depth
                             : c == Channel::Normal ? stage.normal : c == Channel::Albedo ? stage.albedo
                             : c == Channel::Motion ? stage.motion : c == Channel::SunVisibility ? visibility : stage.output;
        VkFormat format = c == Channel::Color || c == Channel::Output ? kColorFormat : c == Channel::Depth ? kDepthFormat
                        : c == Channel::Normal ? kNormalFormat : c == Channel::Albedo ? kAlbedoFormat
                        : c == Channel::Motion ? kMotionFormat : kVisibilityFormat;
        channelReadbacks.push_back(make(c, image, format, c == Channel::Output ? outputExtent : renderExtent, toString(c)));
    }

    PassDesc pass;
    pass.name = "readback";
    pass.type = PassType::Transfer;
    auto declare = [&](const ReadbackImage& rb) {
        // In native mode Color and Output are the same image: declare each resource once.
        bool seen = false;
        for (const ResourceUse& u : pass.uses) seen |= u.resource == rb.image;
        if (!seen) pass.uses.push_back({rb.image, Access::TransferRead});
        pass.uses.push_back({rb.buffer, Access::TransferWrite});
    };
    declare(frameReadback);
    for (const ReadbackImage& rb : channelReadbacks) declare(rb);
    pass.record = [this](PassContext& pc) {
        auto copy = [&](const ReadbackImage& rb) {
            VkBufferImageCopy region{};
            region.imageSubresource = {VkImageAspectFlags(rb.format == kDepthFormat ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT), 0, 0, 1};
            region.imageExtent = {rb.extent.width, rb.extent.height, 1};
            vkCmdCopyImageToBuffer(pc.commandBuffer(), pc.image(rb.image), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                   pc.buffer(rb.buffer), 1, &region);
        };
        copy(frameReadback);
        for (const ReadbackImage& rb : channelReadbacks) copy(rb);
    };
    g.addPass(std::move(pass));
}

FrameReadback Renderer::readback(uint32_t slot) const {
    const Impl& r = *impl_;
    if (!r.target.headless) throw Error("Renderer::readback: the renderer was built for a window, not headless");
    if (slot >= r.target.framesInFlight) throw Error("Renderer::readback: frame slot " + std::to_string(slot) + " is out of range");
    FrameReadback out;
    const Buffer& frame = r.frameReadback.slots[slot];
    frame.invalidate();
    out.frame.width = r.outputExtent.width;
    out.frame.height = r.outputExtent.height;
    out.frame.channels = 4;
    const auto* bytes = static_cast<const uint8_t*>(frame.mapped());
    out.frame.pixels.assign(bytes, bytes + size_t(out.frame.width) * out.frame.height * 4);
    for (const ReadbackImage& rb : r.channelReadbacks) {
        const Buffer& b = rb.slots[slot];
        b.invalidate();
        FrameReadback::FloatImage img{rb.channel, rb.extent.width, rb.extent.height, components(rb.channel), {}};
        size_t texels = size_t(img.width) * img.height;
        img.data.resize(texels * img.components);
        const auto* src = static_cast<const uint8_t*>(b.mapped());
        uint32_t stride = texelBytes(rb.format);
        for (size_t i = 0; i < texels; ++i) toFloats(rb.format, src + i * stride, img.components, &img.data[i * img.components]);
        out.channels.push_back(std::move(img));
    }
    return out;
}

}  // namespace engine
