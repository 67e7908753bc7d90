#pragma once
// The golden-test frame: rendered by `upscale_demo --write-golden tests/data/golden_96x64.png`
// and compared against by tests/engine/golden_test.cpp. Change it only together with the
// reference image.
#include "engine/renderer.h"

namespace demo::golden {

inline constexpr uint32_t kWidth = 96;
inline constexpr uint32_t kHeight = 64;
inline constexpr uint32_t kPath = 0;     // "orbit"
inline constexpr float kTime = 2.0f;      // seconds along the path

inline engine::RendererDesc rendererDesc() {
    engine::RendererDesc d;
    d.outputWidth = kWidth;
    d.outputHeight = kHeight;
    d.upscale = engine::UpscaleMode::Native;
    d.shadows = engine::ShadowMode::Analytic;
    return d;
}

inline engine::FrameParams frameParams() { return engine::FrameParams::onPath(kPath, 0, 30.0f, kTime); }

}  // namespace demo::golden
