#pragma once
// An effects::Upscaler with application images of the right sizes, ready to be recorded: what an
// engine holds per upscaler. For CPU-side measurements (cpu_bench, the recording allocation
// test); its command buffers are never submitted, so the images' contents do not matter.
#include "effects/upscaler.h"
#include "engine/context.h"

#include <vkutil/image.h>

#include <memory>
#include <string>
#include <vector>

namespace bench {

class EffectRig {
public:
    // `modelPath` for the ML modes.
    // `bundle`: EffectDevice::primaryCommandBuffers (what bridge::effectDevice and so the demo set).
    EffectRig(engine::Context& ctx, effects::UpscalerMode mode, VkExtent2D render, VkExtent2D display, const std::string& modelPath = {},
              bool bundle = true);
    ~EffectRig();
    EffectRig(const EffectRig&) = delete;
    EffectRig& operator=(const EffectRig&) = delete;

    effects::Upscaler& upscaler() { return *upscaler_; }
    // The inputs of frame `frame` (its jitter and frame slot), images unchanged.
    const effects::UpscalerInputs& inputs(uint32_t frame);

private:
    // An image the rig owns; its view.
    VkImageView create(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage);

    engine::Context& ctx_;
    std::unique_ptr<effects::Upscaler> upscaler_;
    std::vector<vkutil::Image> images_;
    effects::UpscalerInputs inputs_;
};

}  // namespace bench
