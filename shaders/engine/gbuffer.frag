#version 460
// G-buffer pass, fragment stage: procedural high-frequency materials (checkers, stripes,
// glyph rows) evaluated per pixel without filtering, so detail beyond the render resolution
// aliases exactly as an upscaler has to deal with; or textured glTF materials (mipmapped base
// colour, metallic and roughness factors, alpha mask).
#extension GL_GOOGLE_include_directive : require
#include "renderer_shared.h"

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec2 inUv;
layout(location = 2) flat in uint inMaterial;
layout(location = 3) in vec4 inColor;
layout(location = 4) in vec4 inPixels;      // this position, homogeneous render pixels
layout(location = 5) in vec4 inPrevPixels;  // previous position, the same way

// The alpha-masked pipeline variant (glTF alphaMode MASK) discards; the opaque one has no
// discard, so early depth testing stays on for everything else.
layout(constant_id = 0) const bool ALPHA_MASK = false;
// A storage buffer, not a uniform buffer: on lavapipe (Mesa 22.3) every draw whose fragment
// shader reads a uniform buffer leaked about 1 MB (docs/RELIABILITY.md, soak).
layout(set = 0, binding = 0) readonly buffer Material { MaterialParams material; };
layout(set = 0, binding = 1) uniform sampler2D baseColorTexture;  // sRGB format: reads linear
layout(push_constant) uniform Push { GBufferPush pc; };

layout(location = 0) out vec4 outAlbedo;  // rgb albedo (linear), a roughness
layout(location = 1) out vec4 outNormal;  // xyz world normal, w metalness
layout(location = 2) out vec2 outMotion;  // render pixels: previous position - this position

uint hash(uint x) {
    x ^= x >> 16; x *= 0x7feb352du;
    x ^= x >> 15; x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// Rows of 5x7 pseudo-glyphs with word gaps: text-like structure without a font.
float glyphs(vec2 uv) {
    ivec2 cell = ivec2(floor(uv));
    vec2 local = fract(uv) * vec2(6.0, 9.0);  // 5x7 glyph plus one column / two rows of spacing
    ivec2 dot = ivec2(floor(local)) - ivec2(0, 1);
    if (dot.x >= 5 || dot.y < 0 || dot.y >= 7) return 0.0;
    uint h = hash(uint(cell.x) * 73856093u ^ uint(cell.y) * 19349663u);
    if (h % 6u == 0u) return 0.0;  // a space between words
    // Each glyph: a vertical stem choice plus random dots, symmetric-ish like letters.
    uint bits = hash(h);
    int mx = dot.x < 3 ? dot.x : 4 - dot.x;  // mirror columns 3,4 onto 1,0
    bool mirrored = (h & 0x100u) != 0u;
    int col = mirrored ? mx : dot.x;
    uint bit = uint(col * 7 + dot.y) % 32u;
    bool on = ((bits >> bit) & 1u) != 0u;
    if ((h & 0x3u) == 1u && dot.x == 0) on = true;            // stem
    if ((h & 0xcu) == 4u && (dot.y == 0 || dot.y == 6)) on = true;  // bars
    return on ? 1.0 : 0.0;
}

void main() {
    vec3 albedo = inColor.rgb;
    float roughness = 0.6;
    float metalness = 0.0;
    if (material.kind == MATERIAL_KIND_TEXTURED) {
        // glTF: base colour = factor x texture x COLOR_0 (white when the mesh has none).
        vec4 base = material.baseColorFactor * texture(baseColorTexture, inUv, pc.textureLodBias) * inColor;
        if (ALPHA_MASK && base.a < material.alphaCutoff) discard;
        albedo = base.rgb;
        roughness = material.roughness;
        metalness = material.metallic;
    } else if (inMaterial == MATERIAL_GROUND) {
        vec2 p = inUv;
        float checker = mod(floor(p.x * 2.0) + floor(p.y * 2.0), 2.0);
        vec2 grid = abs(fract(p + 0.5) - 0.5);
        float line = min(grid.x, grid.y) < 0.015 ? 1.0 : 0.0;
        albedo *= mix(mix(0.25, 0.85, checker), 0.05, line);
        roughness = mix(0.8, 0.35, checker);
    } else if (inMaterial == MATERIAL_STRIPES) {
        float s = fract((inUv.x + inUv.y) * 4.0);
        albedo = s < 0.5 ? albedo : vec3(0.92);
        roughness = 0.45;
    } else if (inMaterial == MATERIAL_TEXT) {
        albedo = mix(albedo, vec3(0.03, 0.03, 0.05), glyphs(inUv));
        roughness = 0.5;
    } else if (inMaterial == MATERIAL_METAL) {
        roughness = 0.18;
        metalness = 1.0;
    } else if (inMaterial == MATERIAL_WIRE) {
        roughness = 0.35;
        metalness = 0.7;
    }
    outAlbedo = vec4(albedo, roughness);
    outNormal = vec4(normalize(inNormal), metalness);
    // Both positions carry this frame's jitter, so it cancels; both are interpolated the same way,
    // so their interpolation errors cancel too (GBufferPush).
    outMotion = inPrevPixels.xy / inPrevPixels.w - inPixels.xy / inPixels.w;
}
