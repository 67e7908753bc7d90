#include "effect_rig.h"

#include "bridge/effect_upscaler.h"
#include "engine/error.h"
#include "engine/jitter.h"

#include <stdexcept>

namespace bench {

EffectRig::Image EffectRig::create(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage, VkImageAspectFlags aspect) {
    Image img;
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {extent.width, extent.height, 1};
    ci.mipLevels = ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.usage = usage;
    ENGINE_VK(vkCreateImage(ctx_.device(), &ci, nullptr, &img.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(ctx_.device(), img.image, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = ctx_.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    ENGINE_VK(vkAllocateMemory(ctx_.device(), &ai, nullptr, &img.memory));
    ENGINE_VK(vkBindImageMemory(ctx_.device(), img.image, img.memory, 0));
    VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vi.image = img.image;
    vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vi.format = format;
    vi.subresourceRange = {aspect, 0, 1, 0, 1};
    ENGINE_VK(vkCreateImageView(ctx_.device(), &vi, nullptr, &img.view));
    images_.push_back(img);
    return img;
}

EffectRig::EffectRig(engine::Context& ctx, effects::UpscalerMode mode, VkExtent2D render, VkExtent2D display, const std::string& modelPath)
    : ctx_(ctx) {
    effects::UpscalerDesc d;
    d.device = bridge::effectDevice(ctx, false);
    d.maxRenderSize = render;
    d.displaySize = display;
    d.mode = mode;
    d.modelPath = modelPath;
    auto up = effects::Upscaler::create(d);
    if (!up) throw std::runtime_error(up.error().message);
    upscaler_ = std::move(*up);
    const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT;
    const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    inputs_.color = {create(VK_FORMAT_R16G16B16A16_SFLOAT, render, sampled, VK_IMAGE_ASPECT_COLOR_BIT).view, read, render, VK_FORMAT_R16G16B16A16_SFLOAT};
    inputs_.depth = {create(VK_FORMAT_D32_SFLOAT, render, sampled, VK_IMAGE_ASPECT_DEPTH_BIT).view, read, render, VK_FORMAT_D32_SFLOAT};
    inputs_.motion = {create(VK_FORMAT_R16G16_SFLOAT, render, sampled, VK_IMAGE_ASPECT_COLOR_BIT).view, read, render, VK_FORMAT_R16G16_SFLOAT};
    inputs_.output = {create(VK_FORMAT_R16G16B16A16_SFLOAT, display, VK_IMAGE_USAGE_STORAGE_BIT, VK_IMAGE_ASPECT_COLOR_BIT).view,
                      VK_IMAGE_LAYOUT_GENERAL, display, VK_FORMAT_R16G16B16A16_SFLOAT};
    inputs_.renderSize = render;
}

EffectRig::~EffectRig() {
    upscaler_.reset();
    for (Image& img : images_) {
        vkDestroyImageView(ctx_.device(), img.view, nullptr);
        vkDestroyImage(ctx_.device(), img.image, nullptr);
        vkFreeMemory(ctx_.device(), img.memory, nullptr);
    }
}

const effects::UpscalerInputs& EffectRig::inputs(uint32_t frame) {
    static constexpr uint32_t kPhases = 32;
    glm::vec2 j = engine::haltonJitter(frame, kPhases);
    inputs_.jitterX = j.x;
    inputs_.jitterY = j.y;
    inputs_.frameSlot = frame % upscaler_->desc().framesInFlight;
    inputs_.reset = frame == 0;
    return inputs_;
}

}  // namespace bench
