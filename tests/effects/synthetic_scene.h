#pragma once
// A synthetic scene for upscaler tests: a textured plane seen head-on, so every quantity has a
// closed form. The world is a pattern g(X, Y) in display-pixel units; at frame n the camera is
// offset by c_n display pixels, so screen position s (display pixels) shows g(s + c_n).
// A render pixel (i, j) with jitter J samples the unjittered render position (i + 0.5 - J),
// i.e. display position (i + 0.5 - J) / scale; its motion (previous position - this position,
// render pixels) is (c_n - c_{n-1}) * scale; depth is constant.
#include <cmath>
#include <cstdint>
#include <vector>

namespace fxtest {

struct Vec2 {
    float x = 0, y = 0;
};

// Low-frequency content: locally almost linear, so the neighbourhood clip never engages.
inline void smoothPattern(double X, double Y, float rgb[3]) {
    const double tau = 6.283185307179586;
    rgb[0] = float(0.5 + 0.3 * std::sin(tau * X / 23.0));
    rgb[1] = float(0.5 + 0.3 * std::sin(tau * (X + Y) / 31.0));
    rgb[2] = float(0.5 + 0.3 * std::cos(tau * Y / 19.0));
}

inline void pattern(double X, double Y, float rgb[3]) {
    // Detail above the render resolution's Nyquist limit at 2x, resolvable at display resolution.
    const double tau = 6.283185307179586;
    double a = std::sin(tau * X / 3.3) * std::sin(tau * Y / 4.1);
    double b = std::sin(tau * (X + 0.7 * Y) / 7.0);
    rgb[0] = float(0.5 + 0.4 * a);
    rgb[1] = float(0.5 + 0.25 * a + 0.2 * b);
    rgb[2] = float(0.5 - 0.3 * b);
}

struct FrameInputs {
    std::vector<float> color;   // RGBA, render size
    std::vector<float> depth;   // render size
    std::vector<float> motion;  // RG, render size
};

// `scale` = render / display.
inline FrameInputs renderFrame(uint32_t rw, uint32_t rh, float scale, Vec2 jitter, Vec2 camera, Vec2 previousCamera, bool smooth = false) {
    FrameInputs f;
    f.color.resize(size_t(rw) * rh * 4);
    f.depth.assign(size_t(rw) * rh, 0.5f);
    f.motion.resize(size_t(rw) * rh * 2);
    for (uint32_t j = 0; j < rh; ++j)
        for (uint32_t i = 0; i < rw; ++i) {
            size_t p = size_t(j) * rw + i;
            double sx = (i + 0.5 - jitter.x) / scale, sy = (j + 0.5 - jitter.y) / scale;
            (smooth ? smoothPattern : pattern)(sx + camera.x, sy + camera.y, &f.color[p * 4]);
            f.color[p * 4 + 3] = 1.0f;
            f.motion[p * 2] = (camera.x - previousCamera.x) * scale;
            f.motion[p * 2 + 1] = (camera.y - previousCamera.y) * scale;
        }
    return f;
}

// The box-filtered (anti-aliased) display-resolution image of frame with camera `camera`: RGB.
// `content`: the pattern the frames show (smoothPattern for Rig::smooth).
inline std::vector<float> reference(uint32_t dw, uint32_t dh, Vec2 camera, int samples = 8,
                                    void (*content)(double, double, float[3]) = pattern) {
    std::vector<float> out(size_t(dw) * dh * 3, 0.0f);
    for (uint32_t y = 0; y < dh; ++y)
        for (uint32_t x = 0; x < dw; ++x)
            for (int sy = 0; sy < samples; ++sy)
                for (int sx = 0; sx < samples; ++sx) {
                    float rgb[3];
                    content(x + (sx + 0.5) / samples + camera.x, y + (sy + 0.5) / samples + camera.y, rgb);
                    for (int c = 0; c < 3; ++c) out[(size_t(y) * dw + x) * 3 + c] += rgb[c] / float(samples * samples);
                }
    return out;
}

// PSNR (dB) of an RGBA output against an RGB reference, over pixels at least `border` from the edges.
inline double psnr(const std::vector<float>& rgba, const std::vector<float>& rgb, uint32_t w, uint32_t h, uint32_t border = 0) {
    double se = 0;
    size_t n = 0;
    for (uint32_t y = border; y + border < h; ++y)
        for (uint32_t x = border; x + border < w; ++x)
            for (int c = 0; c < 3; ++c) {
                double d = double(rgba[(size_t(y) * w + x) * 4 + c]) - rgb[(size_t(y) * w + x) * 3 + c];
                se += d * d;
                ++n;
            }
    return 10.0 * std::log10(1.0 / std::max(se / double(n), 1e-12));
}

}  // namespace fxtest
