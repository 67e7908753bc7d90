#pragma once
// An effects::Upscaler with application images of the right sizes, ready to be recorded: what an
// engine holds per upscaler. For CPU-side measurements (cpu_bench, the recording allocation
// test); its command buffers are never submitted, so the images' contents do not matter.
#include "effects/upscaler.h"
#include "engine/context.h"

#include <memory>
#include <string>
#include <vector>

namespace bench {

class EffectRig {
public:
    // `modelPath` for the ML modes.
    EffectRig(engine::Context& ctx, effects::UpscalerMode mode, VkExtent2D render, VkExtent2D display, const std::string& modelPath = {});
    ~EffectRig();
    EffectRig(const EffectRig&) = delete;
    EffectRig& operator=(const EffectRig&) = delete;

    effects::Upscaler& upscaler() { return *upscaler_; }
    // The inputs of frame `frame` (its jitter and frame slot), images unchanged.
    const effects::UpscalerInputs& inputs(uint32_t frame);

private:
    struct Image {
        VkImage image = VK_NULL_HANDLE;
        VkImageView view = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
    };
    Image create(VkFormat format, VkExtent2D extent, VkImageUsageFlags usage, VkImageAspectFlags aspect);

    engine::Context& ctx_;
    std::unique_ptr<effects::Upscaler> upscaler_;
    std::vector<Image> images_;
    effects::UpscalerInputs inputs_;
};

}  // namespace bench
