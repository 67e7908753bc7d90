#pragma once
/// \file
/// What the renderer draws: static world-space triangles with materials and textures, plus the
/// lighting data (sun, sky, point lights, SDF shadow primitives). Two sources:
///   - the procedural demo scene (buildDemoScene): a ground plane, boxes, spheres, thin wires
///     and fences, text panels, lit by a sun and point lights. It is generated from a list of
///     analytic primitives; the same list is tessellated into the triangle mesh and uploaded as
///     signed distance functions for shadow rays, so raster and shadows agree. Seed 0 is the
///     classic scene (goldens, named camera paths); other seeds vary layout, materials, pattern
///     scales, objects, fences and wires around the same landmarks.
///   - glTF 2.0 files (gltf.h: loadGltfScene), pre-transformed to world space, lit by the
///     engine's sun and sky, without shadow primitives (their shadows are off).
/// A SceneGeometry is plain data, built once and shared read-only (the renderer uploads it at
/// construction; RendererDesc::scene).
#include "engine/export.h"
#include "engine/renderer_shared.h"  // shaders/engine/: shared with GLSL

#include <glm/glm.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

/// A vertex of the demo scene (layout shared with gbuffer.vert).
struct Vertex {
    glm::vec3 position;  ///< world space, relative to SceneGeometry::origin
    glm::vec3 normal;  ///< world space, unit length
    glm::vec2 uv;       ///< procedural: pattern coordinates (world units, glyph cells); textured: TEXCOORD_0
    uint32_t material;  ///< procedural pattern gpu::MATERIAL_* (ignored by textured materials)
    uint32_t color;     ///< RGBA8 tint, little-endian (r in the low byte), linear: glTF COLOR_0 (white without)
};
static_assert(sizeof(Vertex) == 40);

/// Texel filter for magnification and minification.
enum class TextureFilter { Nearest, Linear };
/// Filter between mip levels.
enum class MipFilter { None, Nearest, Linear };  ///< None: level 0 only
/// Addressing outside [0, 1].
enum class TextureWrap { Repeat, MirroredRepeat, ClampToEdge };

/// How a texture is sampled (the glTF sampler).
struct SamplerDesc {
    TextureFilter magFilter = TextureFilter::Linear;  ///< magnification
    TextureFilter minFilter = TextureFilter::Linear;  ///< minification
    MipFilter mipFilter = MipFilter::Linear;  ///< between levels
    TextureWrap wrapU = TextureWrap::Repeat;  ///< horizontal addressing
    TextureWrap wrapV = TextureWrap::Repeat;  ///< vertical addressing
    /// Same filters and wrapping.
    bool operator==(const SamplerDesc&) const = default;
};

/// An sRGB-encoded RGBA8 texture with its full mip chain (generated in linear light; alpha
/// averaged linearly). Level i is max(1, width >> i) x max(1, height >> i), rows top to bottom.
struct SceneTexture {
    std::string name;  ///< for messages
    uint32_t width = 0;   ///< level 0 texels
    uint32_t height = 0;  ///< level 0 texels
    std::vector<std::vector<uint8_t>> levels;  ///< RGBA8 texels of each mip level, level 0 first
    SamplerDesc sampler;  ///< how it is sampled
};

/// A material of a scene: the procedural patterns or glTF metallic-roughness.
struct SceneMaterial {
    std::string name;  ///< for messages
    /// Procedural: the demo scene's per-vertex patterns (gpu::MATERIAL_*) and tints; the other
    /// fields are ignored. Otherwise glTF metallic-roughness: albedo = baseColorFactor x texture.
    bool procedural = false;
    glm::vec4 baseColorFactor{1.0f};  ///< RGBA multiplier of the base colour texture
    float metallic = 1.0f;  ///< metallic factor 0..1
    float roughness = 1.0f;  ///< roughness factor 0..1
    int32_t baseColorTexture = -1;  ///< index into SceneGeometry::textures, -1: none (white)
    bool alphaMask = false;         ///< alphaMode MASK: fragments with alpha < alphaCutoff are discarded
    float alphaCutoff = 0.5f;  ///< alphaMask threshold
    bool doubleSided = true;        ///< false: back faces (clockwise seen from the camera) are culled
};

/// One draw: indices [firstIndex, firstIndex + indexCount) with one material.
struct DrawRange {
    uint32_t firstIndex = 0;  ///< first index of the range
    uint32_t indexCount = 0;  ///< indices in the range
    uint32_t material = 0;  ///< index into SceneGeometry::materials
};

/// The demo scene on the CPU.
struct SceneGeometry {
    std::string name;  ///< "procedural seed 0", the glTF file name
    std::vector<Vertex> vertices;  ///< triangle vertices
    std::vector<uint32_t> indices;  ///< three per triangle
    std::vector<SceneMaterial> materials;  ///< referenced by DrawRange::material
    std::vector<SceneTexture> textures;  ///< referenced by SceneMaterial::baseColorTexture
    /// Every index in exactly one range; opaque materials first, then alpha-masked ones.
    std::vector<DrawRange> draws;
    gpu::SceneData data{};  ///< lights, SDF primitives (none for glTF), sky
    /// Where vertex positions (and SceneData's point lights and primitives) are measured from:
    /// world = origin + position. (0, 0, 0) unless the scene lies far from the world origin
    /// (its centre more than 1 km or 1024 radii out: geo-referenced and large-world content),
    /// then the centre of its bounds, so the floats stay small; cameraMatrices() takes it into
    /// account.
    glm::dvec3 origin{0.0};
    glm::dvec3 boundsMin{0.0};  ///< smallest corner of the box around all vertices, world space
    glm::dvec3 boundsMax{0.0};  ///< largest corner of the box around all vertices, world space
    /// Named warnings (one per unsupported feature, not per occurrence), for the caller to print.
    std::vector<std::string> warnings;
};

/// Deterministic: the same geometry on every call and every machine. Seed 0 is the classic
/// demo scene; any other seed a variation of it.
SceneGeometry buildDemoScene(uint32_t seed = 0);

/// Where a scene comes from (command-line tools): the procedural scene with a seed, or a glTF
/// file (.gltf or .glb).
struct SceneDesc {
    uint32_t seed = 0;  ///< procedural scene variation (0: the classic scene)
    std::string gltfPath;  ///< non-empty: load this file (seed ignored)
};
/// Builds or loads the scene; throws engine::Error (naming the file and problem) on failure.
std::shared_ptr<const SceneGeometry> loadScene(const SceneDesc& desc);

}  // namespace engine
ENGINE_API_END
