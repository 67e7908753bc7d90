#include "engine/jitter.h"

#include <algorithm>
#include <cmath>

namespace engine {

float halton(uint32_t index, uint32_t base) {
    float f = 1.0f, r = 0.0f;
    for (uint32_t i = index; i > 0; i /= base) {
        f /= float(base);
        r += f * float(i % base);
    }
    return r;
}

uint32_t jitterPhaseCount(uint32_t renderWidth, uint32_t displayWidth) {
    if (renderWidth == 0) return 8;
    double ratio = double(displayWidth) / double(renderWidth);
    double phases = std::ceil(8.0 * ratio * ratio);
    return uint32_t(std::clamp(phases, 8.0, 1024.0));
}

glm::vec2 haltonJitter(uint32_t frameIndex, uint32_t phaseCount) {
    uint32_t index = frameIndex % std::max(phaseCount, 1u) + 1;
    return {halton(index, 2) - 0.5f, halton(index, 3) - 0.5f};
}

}  // namespace engine
