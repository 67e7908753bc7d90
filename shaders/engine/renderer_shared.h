// Structs and constants shared by the renderer's C++ code and its GLSL shaders, so the two
// cannot drift apart (C++ side: static_asserts on the sizes in renderer.cpp/scene.cpp).
#ifndef ENGINE_RENDERER_SHARED_H
#define ENGINE_RENDERER_SHARED_H

#ifdef __cplusplus
#include <glm/glm.hpp>
#include <cstdint>
namespace engine::gpu {
using vec2 = glm::vec2;
using vec4 = glm::vec4;
using mat4 = glm::mat4;
using uint = uint32_t;
#define ENGINE_CONST inline constexpr
#else
#define ENGINE_CONST const
#endif

// Materials (procedural patterns evaluated in gbuffer.frag).
ENGINE_CONST uint MATERIAL_GROUND = 0u;   // fine checkers with grid lines
ENGINE_CONST uint MATERIAL_STRIPES = 1u;  // diagonal stripes
ENGINE_CONST uint MATERIAL_TEXT = 2u;     // rows of procedural 5x7 glyphs
ENGINE_CONST uint MATERIAL_METAL = 3u;    // glossy, tinted by the vertex color
ENGINE_CONST uint MATERIAL_PAINT = 4u;    // plain vertex color, medium roughness
ENGINE_CONST uint MATERIAL_WIRE = 5u;     // dark, slightly glossy metal

// How a material's G-buffer values are made (MaterialParams::kind).
ENGINE_CONST uint MATERIAL_KIND_PROCEDURAL = 0u;  // the per-vertex patterns above and vertex tints
ENGINE_CONST uint MATERIAL_KIND_TEXTURED = 1u;    // glTF metallic-roughness: factor x base colour texture

// One material of the G-buffer pass (a storage buffer range per material descriptor set).
struct MaterialParams {
    vec4 baseColorFactor;  // linear RGBA
    uint kind;             // MATERIAL_KIND_*
    float metallic;
    float roughness;
    float alphaCutoff;     // alpha-masked pipeline only: fragments below it are discarded
};

// Analytic primitives mirrored by the mesh generator (raster) and the SDF (shadows).
ENGINE_CONST uint PRIM_SPHERE = 0u;   // p0.xyz centre, p1.w radius
ENGINE_CONST uint PRIM_BOX = 1u;      // p0.xyz centre, p1.xyz half extents, p2.x rotation about +y
ENGINE_CONST uint PRIM_CAPSULE = 2u;  // p0.xyz, p1.xyz end points, p1.w radius
ENGINE_CONST uint PRIM_FENCE = 3u;    // p0.xyz start on the ground, p1.xyz end, p1.w wire radius,
                                      // p2 = (height, post spacing, rail count, 0)

struct Primitive {
    vec4 p0;  // w: PRIM_* as float
    vec4 p1;
    vec4 p2;
    vec4 bounds;  // bounding sphere: xyz centre, w radius (shadow-ray culling)
};

ENGINE_CONST uint LIGHT_DIRECTIONAL = 0u;
ENGINE_CONST uint LIGHT_POINT = 1u;
ENGINE_CONST uint MAX_LIGHTS = 8u;
ENGINE_CONST uint MAX_PRIMITIVES = 64u;

struct Light {
    vec4 position;  // xyz: direction towards the light (directional) or position; w: LIGHT_*
    vec4 color;     // rgb: radiance scale; w: angular radius (directional) or range (point)
};

// Static scene data for the lighting pass (one storage buffer, uploaded once).
struct SceneData {
    vec4 counts;       // x: lights, y: primitives, z: index of the shadowed point light (-1: none),
                       // w: height above which nothing casts shadows
    vec4 skyZenith;    // rgb
    vec4 skyHorizon;   // rgb
    vec4 ambient;      // rgb
    Light lights[MAX_LIGHTS];
    Primitive primitives[MAX_PRIMITIVES];
};

ENGINE_CONST uint SHADOW_OFF = 0u;
ENGINE_CONST uint SHADOW_ANALYTIC = 1u;    // SDF soft-shadow estimate, deterministic, cheap
ENGINE_CONST uint SHADOW_STOCHASTIC = 2u;  // area-light sampling, `shadowSamples` rays per pixel

// Push constants (128 bytes is the guaranteed minimum; each stays within it).
// Vertex and fragment stages share it. The previous-frame matrix keeps only the rows motion
// needs (x, y, w in render pixels; depth is not reprojected), which leaves room for the texture
// LOD bias within the 128 bytes (lavapipe's limit too).
//
// Motion is the difference of two interpolated positions of the same surface point, the previous
// and this frame's (both homogeneous render pixels), not the previous one minus gl_FragCoord:
// interpolated with the same barycentrics, their interpolation errors cancel. Against
// gl_FragCoord they did not: on the H100 a still camera got motion of 1.1e-3 pixels where the
// exact answer is 0 (bench/RESULTS.md, "Twentieth session").
struct GBufferPush {
    mat4 viewProj;
    vec4 prevPixelsRows[3];  // rows x, y, w of the previous view-projection (this frame's jitter) to render pixels
    float textureLodBias;    // added to every texture's mip level (FrameParams::textureLodBias)
    float pad0;
    vec2 pixelScale;         // render size / 2: clip (x + w, y + w) * pixelScale = homogeneous render pixels
};

// The G-buffer pass's background triangle (gbuffer_sky.vert): motion of directions at infinity.
struct SkyMotionPush {
    mat4 reprojection;  // this frame's NDC (x, y, 1, 1) -> previous frame's render pixels (homogeneous)
    vec2 pixelScale;    // render size / 2: (NDC + 1) * pixelScale = this frame's render pixels
    vec2 pad;
};

struct LightingPush {
    mat4 invViewProj;
    vec4 cameraPosition;  // xyz
    uint width;
    uint height;
    uint shadowMode;      // SHADOW_*
    uint shadowSamples;
    uint frameSeed;
    uint lightingEnabled;  // 0: write albedo only (a test of the golden check)
    uint pad0;
    uint pad1;
};

ENGINE_CONST uint UPSCALE_BILINEAR = 0u;
ENGINE_CONST uint UPSCALE_BICUBIC = 1u;

struct UpscalePush {
    uint srcWidth;
    uint srcHeight;
    uint dstWidth;
    uint dstHeight;
};

struct AtrousPush {
    uint width;
    uint height;
    uint step;           // tap spacing in pixels: 1, 2, 4, 8, 16
    uint pad0;
    float sigmaColor2;   // squared colour sigma of this iteration
    float sigmaNormal2;  // squared normal-difference sigma
    float sigmaDepth;    // depth tolerance in units of the depth the local plane predicts
    float sigmaAlbedo2;  // squared albedo-difference sigma
};

struct EncodePush {
    uint applySrgb;  // 1 when the target format is UNORM and the shader must encode sRGB itself
    uint pad0;
    uint pad1;
    uint pad2;
};

#ifdef __cplusplus
}  // namespace engine::gpu
#undef ENGINE_CONST
#endif
#endif
