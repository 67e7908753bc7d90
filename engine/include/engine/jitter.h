#pragma once
// Sub-pixel jitter for temporal upscaling and supersampling.
//
// A temporal upscaler reconstructs output-resolution detail from render-resolution frames whose
// projection moves by a different sub-pixel offset each frame. The offsets follow the Halton
// (2, 3) sequence, which covers the pixel evenly for any prefix length, and repeat after a phase
// count that grows with the square of the upscale ratio (FSR 2's rule: 8 * ratio^2), so that
// every output pixel inside a render pixel receives samples.
//
// Convention (shared with cameraMatrices() and the effects library): a jitter J, in render
// pixels, moves the image by +J: scene content that would appear at pixel position p without
// jitter appears at p + J, so render pixel (i, j) samples the unjittered position
// (i + 0.5 - J.x, j + 0.5 - J.y).
#include <glm/glm.hpp>

#include <cstdint>

namespace engine {

// Element `index` (1-based internally, so index 0 is not the origin) of the Halton sequence in
// `base`, in [0, 1).
float halton(uint32_t index, uint32_t base);

// The jitter phase count for rendering `renderWidth` pixels wide and displaying `displayWidth`:
// ceil(8 * (displayWidth / renderWidth)^2), at least 8, at most 1024.
uint32_t jitterPhaseCount(uint32_t renderWidth, uint32_t displayWidth);

// The jitter of frame `frameIndex`, in render pixels, in [-0.5, 0.5)^2: Halton(2, 3) element
// (frameIndex mod phaseCount) + 1, minus 0.5. `phaseCount` 0 is treated as 1.
glm::vec2 haltonJitter(uint32_t frameIndex, uint32_t phaseCount);

}  // namespace engine
