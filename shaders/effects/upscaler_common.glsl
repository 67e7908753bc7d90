// Shared pieces of the upscaler's passes: colour spaces, sample loading, kernels, the history
// fetch and the neighbourhood clip. tools/train/temporal.py mirrors every function used by the
// ML passes (ml_features.comp, ml_resolve.comp); keep the two in step.
#ifndef EFFECTS_UPSCALER_COMMON_GLSL
#define EFFECTS_UPSCALER_COMMON_GLSL

// The exact transfer functions. pow is a log2 and an exp2 on the special-function units, three
// instructions. Polynomials were weighed: the decode needs degree 6 to stay within a quarter of an
// fp16 ulp on 0.04..1 (more instructions than pow), the encode's x^(1/2.4) has no short one on
// 0.003..1 without a range reduction that costs more instructions than it saves. The feature pass
// issues far more instructions than special functions (about 750 vector against 67
// transcendental per pixel in RADV's compile of it), and the resolve is bound by memory, so fewer
// special functions at the price of more instructions would make neither faster.
vec3 srgbToLinear(vec3 c) {
    return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(vec3(0.04045), c));
}
vec3 linearToSrgb(vec3 c) {
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}

vec3 rgbToYCoCg(vec3 c) {
    return vec3(0.25 * c.r + 0.5 * c.g + 0.25 * c.b, 0.5 * c.r - 0.5 * c.b, -0.25 * c.r + 0.5 * c.g - 0.25 * c.b);
}
vec3 yCoCgToRgb(vec3 c) {
    return vec3(c.x + c.y - c.z, c.x + c.z, c.x - c.y - c.z);
}
float luma(vec3 c) { return dot(c, vec3(0.2126, 0.7152, 0.0722)); }

bool finite3(vec3 c) { return !any(isnan(c)) && !any(isinf(c)); }

// The application's colour -> the accumulation space: linear, bounded to 0..1 (HDR values
// through the reversible tonemap c / (1 + max(c))). Non-finite samples count as black.
vec3 toWorkingSpace(vec3 c, uint flags, float exposure) {
    if (!finite3(c)) return vec3(0.0);
    c = max(c, vec3(0.0));
    if ((flags & FLAG_COLOR_SRGB) != 0u) c = srgbToLinear(min(c, vec3(1.0)));
    if ((flags & FLAG_HDR) != 0u) {
        c *= exposure;
        return c / (1.0 + max(c.r, max(c.g, c.b)));
    }
    return min(c, vec3(1.0));
}
// The inverse, for the output image.
vec3 fromWorkingSpace(vec3 c, uint flags, float exposure) {
    c = clamp(c, vec3(0.0), vec3(1.0));
    if ((flags & FLAG_HDR) != 0u) {
        c = c / max(1.0 - max(c.r, max(c.g, c.b)), 1.0 / 65504.0);
        c /= max(exposure, 1e-20);
    }
    if ((flags & FLAG_COLOR_SRGB) != 0u) c = linearToSrgb(min(c, vec3(1.0)));
    return c;
}

// Kernel weights of one render sample for the output pixel centred at `p` (render pixels,
// unjittered). `narrow`: a Gaussian of the output pixel's footprint, so accumulated samples
// converge to the box-filtered image; `wide`: a smooth spatial upsampling filter.
// Each kernel as its x and y factors (weight = factor.x * factor.y; both are Gaussians, so
// separable: the 3x3 neighbourhood needs 3 + 3 exponentials per kernel, not 9).
vec2 narrowWeightXY(vec2 sampleToCentre, vec2 renderPerDisplay, float falloff) {
    vec2 d = sampleToCentre / renderPerDisplay;
    return exp(-falloff * d * d);
}
vec2 wideWeightXY(vec2 sampleToCentre) {
    return exp(-1.5 * sampleToCentre * sampleToCentre);
}

// The Catmull-Rom taps at uv: three positions per axis (t0, t12, t3; the middle two texels
// merged into one bilinear fetch at t12) and their weights.
struct CatmullRomTaps {
    vec2 t0, t12, t3;
    vec2 w0, w12, w3;
};

CatmullRomTaps catmullRomTaps(vec2 uv, vec2 texSize) {
    vec2 pos = uv * texSize;
    vec2 centre = floor(pos - 0.5) + 0.5;
    vec2 f = pos - centre;
    CatmullRomTaps c;
    c.w0 = f * (-0.5 + f * (1.0 - 0.5 * f));
    vec2 w1 = 1.0 + f * f * (-2.5 + 1.5 * f);
    vec2 w2 = f * (0.5 + f * (2.0 - 1.5 * f));
    c.w3 = f * f * (-0.5 + 0.5 * f);
    c.w12 = w1 + w2;
    c.t0 = (centre - 1.0) / texSize;
    c.t3 = (centre + 2.0) / texSize;
    c.t12 = (centre + w2 / c.w12) / texSize;
    return c;
}

// Catmull-Rom resampling of `tex` at `uv` with 9 bilinear taps (the 4x4 weights folded in pairs).
vec4 catmullRom(sampler2D tex, vec2 uv, vec2 texSize) {
    CatmullRomTaps c = catmullRomTaps(uv, texSize);
    vec4 r = vec4(0.0);
    r += textureLod(tex, vec2(c.t0.x, c.t0.y), 0.0) * c.w0.x * c.w0.y;
    r += textureLod(tex, vec2(c.t12.x, c.t0.y), 0.0) * c.w12.x * c.w0.y;
    r += textureLod(tex, vec2(c.t3.x, c.t0.y), 0.0) * c.w3.x * c.w0.y;
    r += textureLod(tex, vec2(c.t0.x, c.t12.y), 0.0) * c.w0.x * c.w12.y;
    r += textureLod(tex, vec2(c.t12.x, c.t12.y), 0.0) * c.w12.x * c.w12.y;
    r += textureLod(tex, vec2(c.t3.x, c.t12.y), 0.0) * c.w3.x * c.w12.y;
    r += textureLod(tex, vec2(c.t0.x, c.t3.y), 0.0) * c.w0.x * c.w3.y;
    r += textureLod(tex, vec2(c.t12.x, c.t3.y), 0.0) * c.w12.x * c.w3.y;
    r += textureLod(tex, vec2(c.t3.x, c.t3.y), 0.0) * c.w3.x * c.w3.y;
    return r;
}

// The same Catmull-Rom filter with its four corner taps dropped and the rest renormalised (5
// bilinear taps; the corners carry the smallest weights), as real-time TAA resolves do: the TAAU
// resolve measured 5% faster with it on the H100 and no less sharp (bench/RESULTS.md).
vec4 catmullRom5(sampler2D tex, vec2 uv, vec2 texSize) {
    CatmullRomTaps c = catmullRomTaps(uv, texSize);
    float wUp = c.w12.x * c.w0.y, wLeft = c.w0.x * c.w12.y, wMid = c.w12.x * c.w12.y;
    float wRight = c.w3.x * c.w12.y, wDown = c.w12.x * c.w3.y;
    vec4 r = textureLod(tex, vec2(c.t12.x, c.t0.y), 0.0) * wUp;
    r += textureLod(tex, vec2(c.t0.x, c.t12.y), 0.0) * wLeft;
    r += textureLod(tex, vec2(c.t12.x, c.t12.y), 0.0) * wMid;
    r += textureLod(tex, vec2(c.t3.x, c.t12.y), 0.0) * wRight;
    r += textureLod(tex, vec2(c.t12.x, c.t3.y), 0.0) * wDown;
    return r / (wUp + wLeft + wMid + wRight + wDown);
}

// Clips `history` towards the centre of the box [lo, hi] (in YCoCg), along the line to it.
vec3 clipToBox(vec3 history, vec3 lo, vec3 hi) {
    vec3 centre = 0.5 * (lo + hi), extent = max(0.5 * (hi - lo), vec3(1e-5));
    vec3 offset = history - centre;
    vec3 units = abs(offset / extent);
    float m = max(units.x, max(units.y, units.z));
    return m > 1.0 ? centre + offset / m : history;
}

#endif
