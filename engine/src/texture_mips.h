#pragma once
// Mip chains for sRGB RGBA8 textures, built on the CPU at load time.
#include <cstdint>
#include <vector>

namespace engine {

// All levels of a width x height sRGB RGBA8 image (level 0 = `rgba` itself) down to 1x1. Each
// level is a box filter of the one above (area-weighted for odd sizes), averaged in linear
// light; colour is weighted by alpha so transparent texels (often black) do not darken the
// edges of alpha-tested cut-outs; alpha is averaged linearly.
std::vector<std::vector<uint8_t>> buildMipChain(std::vector<uint8_t> rgba, uint32_t width, uint32_t height);

}  // namespace engine
