#include "texture_mips.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace engine {
namespace {

const std::array<float, 256>& srgbToLinear() {
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t{};
        for (int i = 0; i < 256; ++i) {
            float c = float(i) / 255.0f;
            t[size_t(i)] = c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
        }
        return t;
    }();
    return table;
}

uint8_t linearToSrgb(float v) {
    v = std::clamp(v, 0.0f, 1.0f);
    float c = v <= 0.0031308f ? v * 12.92f : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
    return uint8_t(std::lround(c * 255.0f));
}

struct Tap {
    uint32_t index;
    float weight;
};

// The source texels under destination texel d (src/dst = scale), weighted by overlap.
std::vector<std::vector<Tap>> taps(uint32_t src, uint32_t dst) {
    std::vector<std::vector<Tap>> out(dst);
    double scale = double(src) / double(dst);
    for (uint32_t d = 0; d < dst; ++d) {
        double lo = d * scale, hi = (d + 1) * scale;
        for (uint32_t s = uint32_t(lo); s < src && double(s) < hi; ++s) {
            double w = std::min(hi, double(s + 1)) - std::max(lo, double(s));
            if (w > 1e-9) out[d].push_back({s, float(w / scale)});
        }
    }
    return out;
}

std::vector<uint8_t> downsample(const std::vector<uint8_t>& src, uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh) {
    const auto& lin = srgbToLinear();
    auto tx = taps(sw, dw), ty = taps(sh, dh);
    std::vector<uint8_t> dst(size_t(dw) * dh * 4);
    for (uint32_t y = 0; y < dh; ++y) {
        for (uint32_t x = 0; x < dw; ++x) {
            float rgb[3] = {0, 0, 0}, plain[3] = {0, 0, 0}, alpha = 0;
            for (const Tap& a : ty[y]) {
                for (const Tap& b : tx[x]) {
                    const uint8_t* t = &src[(size_t(a.index) * sw + b.index) * 4];
                    float w = a.weight * b.weight, ta = float(t[3]) / 255.0f;
                    for (int c = 0; c < 3; ++c) {
                        rgb[c] += w * ta * lin[t[c]];
                        plain[c] += w * lin[t[c]];
                    }
                    alpha += w * ta;
                }
            }
            uint8_t* o = &dst[(size_t(y) * dw + x) * 4];
            for (int c = 0; c < 3; ++c) o[c] = linearToSrgb(alpha > 1e-6f ? rgb[c] / alpha : plain[c]);
            o[3] = uint8_t(std::lround(std::clamp(alpha, 0.0f, 1.0f) * 255.0f));
        }
    }
    return dst;
}

}  // namespace

std::vector<std::vector<uint8_t>> buildMipChain(std::vector<uint8_t> rgba, uint32_t width, uint32_t height) {
    std::vector<std::vector<uint8_t>> levels;
    levels.push_back(std::move(rgba));
    uint32_t w = width, h = height;
    while (w > 1 || h > 1) {
        uint32_t nw = std::max(1u, w / 2), nh = std::max(1u, h / 2);
        levels.push_back(downsample(levels.back(), w, h, nw, nh));
        w = nw;
        h = nh;
    }
    return levels;
}

}  // namespace engine
