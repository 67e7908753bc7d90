#include "mlplugin/half.h"

#include <cassert>
#include <cmath>
#include <cstring>

namespace mlplugin {

uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t absx = x & 0x7fffffffu;
    if (absx > 0x7f800000u) return uint16_t(sign | 0x7e00u);   // NaN
    if (absx >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds to >= 65520: infinity
    if (absx < 0x38800000u) {                                   // subnormal or zero
        float a;
        std::memcpy(&a, &absx, 4);
        return uint16_t(sign | uint32_t(std::nearbyint(a * 16777216.0f)));  // exact scaling by 2^24
    }
    uint32_t half = (((absx >> 23) - 112) << 10) | ((absx >> 13) & 0x3ffu);
    uint32_t rest = absx & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry into the exponent is correct
    return uint16_t(sign | half);
}

float halfToFloat(uint16_t h) {
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    float magnitude = exp == 0 ? std::ldexp(float(mant), -24)
                    : exp == 31 ? (mant ? NAN : INFINITY)
                                : std::ldexp(float(mant | 0x400u), int(exp) - 25);
    return (h & 0x8000u) ? -magnitude : magnitude;
}

void floatsToHalves(std::span<const float> in, std::span<uint16_t> out) {
    assert(out.size() >= in.size());
    for (size_t i = 0; i < in.size(); ++i) out[i] = floatToHalf(in[i]);
}

void halvesToFloats(std::span<const uint16_t> in, std::span<float> out) {
    assert(out.size() >= in.size());
    for (size_t i = 0; i < in.size(); ++i) out[i] = halfToFloat(in[i]);
}

}  // namespace mlplugin
