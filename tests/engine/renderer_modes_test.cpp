// One renderer through many frames with two in flight, switching output mode, denoiser and
// size between frames (what the windowed demo's keys and resizes do): every frame has the size
// of its configuration and the validation layers (with synchronization validation) stay quiet.
#include "vulkan_test.h"

#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/renderer.h"

#include <algorithm>
#include <optional>

namespace {

using testsupport::VulkanTest;

struct Config {
    engine::UpscaleMode mode;
    engine::DenoiseMode denoise;
    uint32_t width, height;
};

TEST_F(VulkanTest, RendererSwitchesModesDenoiserAndSizeBetweenFramesInFlight) {
    const Config configs[] = {
        {engine::UpscaleMode::Bilinear, engine::DenoiseMode::Off, 64, 48},
        {engine::UpscaleMode::Bicubic, engine::DenoiseMode::Atrous, 64, 48},
        {engine::UpscaleMode::Native, engine::DenoiseMode::Atrous, 80, 40},
        {engine::UpscaleMode::Native, engine::DenoiseMode::Off, 48, 64},
        {engine::UpscaleMode::Bicubic, engine::DenoiseMode::Off, 96, 64},
        {engine::UpscaleMode::Bilinear, engine::DenoiseMode::Atrous, 40, 30},
    };
    constexpr uint32_t kFramesInFlight = 2, kFramesPerConfig = 3;
    engine::RendererDesc desc;
    desc.outputWidth = configs[0].width;
    desc.outputHeight = configs[0].height;
    desc.renderScale = 0.5f;
    desc.shadows = engine::ShadowMode::Stochastic;
    engine::GpuTimer timer(ctx(), {.framesInFlight = kFramesInFlight});
    engine::Renderer renderer(ctx(), desc);
    engine::Frames frames(ctx(), {.framesInFlight = kFramesInFlight});
    const engine::TargetDesc target{.headless = true, .format = VK_FORMAT_UNDEFINED,
                                    .channels = uint32_t(engine::Channel::Color), .framesInFlight = kFramesInFlight};

    std::vector<std::optional<Config>> pending(kFramesInFlight);  // what each slot's read-back holds
    uint32_t checked = 0, frameIndex = 0;
    auto check = [&](uint32_t slot) {
        if (!pending[slot]) return;
        engine::FrameReadback rb = renderer.readback(slot);
        EXPECT_EQ(rb.frame.width, pending[slot]->width);
        EXPECT_EQ(rb.frame.height, pending[slot]->height);
        auto [lo, hi] = std::minmax_element(rb.frame.pixels.begin(), rb.frame.pixels.end());
        EXPECT_GT(int(*hi) - int(*lo), 50) << "frame " << checked << " is flat";
        ++checked;
        pending[slot].reset();
    };
    for (const Config& c : configs) {
        // The old graph's transients and descriptor sets go at build(): no frame may use them.
        frames.waitIdle();
        for (uint32_t s = 0; s < kFramesInFlight; ++s) check(s);
        renderer.resize(c.width, c.height);
        renderer.setUpscaleMode(c.mode);
        renderer.setDenoiseMode(c.denoise);
        renderer.build(target);
        for (uint32_t i = 0; i < kFramesPerConfig; ++i) {
            engine::Frame& f = frames.beginFrame();
            check(f.slot);
            timer.beginFrame(f.cmd, f.slot);
            renderer.record(f.cmd, f.slot, engine::FrameParams::onPath(0, frameIndex++), &timer);
            frames.endFrame();
            pending[f.slot] = c;
        }
    }
    frames.waitIdle();
    for (uint32_t s = 0; s < kFramesInFlight; ++s) check(s);
    EXPECT_EQ(checked, std::size(configs) * kFramesPerConfig);
    EXPECT_EQ(renderer.renderExtent().width, 20u);  // the last configuration: 40x30 at scale 0.5
}

}  // namespace
