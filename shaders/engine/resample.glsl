// Resampling filters shared by the output stage (upscale.comp) and the demo's split view.
#ifndef ENGINE_RESAMPLE_GLSL
#define ENGINE_RESAMPLE_GLSL

vec4 catmullRomWeights(float t) {
    float t2 = t * t, t3 = t2 * t;
    return vec4(-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1.0, -1.5 * t3 + 2.0 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2);
}

// Catmull-Rom bicubic at `uv` from 16 texel fetches (clamped to the edge), clamped to [0, 1]
// because the filter overshoots at edges.
vec4 sampleCatmullRom(sampler2D source, vec2 uv, ivec2 size) {
    vec2 texel = uv * vec2(size) - 0.5;
    ivec2 base = ivec2(floor(texel));
    vec2 f = texel - vec2(base);
    vec4 wx = catmullRomWeights(f.x), wy = catmullRomWeights(f.y);
    vec4 result = vec4(0);
    for (int j = 0; j < 4; ++j) {
        vec4 row = vec4(0);
        for (int i = 0; i < 4; ++i) row += wx[i] * texelFetch(source, clamp(base + ivec2(i - 1, j - 1), ivec2(0), size - 1), 0);
        result += wy[j] * row;
    }
    return clamp(result, 0.0, 1.0);
}

#endif
