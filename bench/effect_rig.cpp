#include "effect_rig.h"

#include "bridge/effect_upscaler.h"
#include "engine/error.h"
#include "engine/jitter.h"

#include <stdexcept>

namespace bench {

VkImageView EffectRig::create(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage) {
    vkutil::Image& image = images_.emplace_back();
    ENGINE_VK(image.create(ctx_.physicalDevice(), ctx_.device(), format, extent, usage));
    return image.view();
}

EffectRig::EffectRig(engine::Context& ctx, effects::UpscalerMode mode, VkExtent2D render, VkExtent2D display, const std::string& modelPath,
                     bool bundle)
    : ctx_(ctx) {
    effects::UpscalerDesc d;
    d.device = bridge::effectDevice(ctx, false);
    d.device.primaryCommandBuffers = bundle;
    d.maxRenderSize = render;
    d.displaySize = display;
    d.mode = mode;
    d.modelPath = modelPath;
    auto up = effects::Upscaler::create(d);
    if (!up) throw std::runtime_error(up.error().message);
    upscaler_ = std::move(*up);
    const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT;
    const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    inputs_.color = {create(VK_FORMAT_R16G16B16A16_SFLOAT, render, sampled), read, render, VK_FORMAT_R16G16B16A16_SFLOAT};
    inputs_.depth = {create(VK_FORMAT_D32_SFLOAT, render, sampled), read, render, VK_FORMAT_D32_SFLOAT};
    inputs_.motion = {create(VK_FORMAT_R16G16_SFLOAT, render, sampled), read, render, VK_FORMAT_R16G16_SFLOAT};
    inputs_.output = {create(VK_FORMAT_R16G16B16A16_SFLOAT, display, VK_IMAGE_USAGE_STORAGE_BIT), VK_IMAGE_LAYOUT_GENERAL, display,
                      VK_FORMAT_R16G16B16A16_SFLOAT};
    inputs_.renderSize = render;
}

EffectRig::~EffectRig() {
    upscaler_.reset();  // before the images it was created to read and write
    images_.clear();
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
