#pragma once
/// \file
/// glTF 2.0 scenes (.gltf with external or data: URI buffers and images, and .glb), parsed by
/// tinygltf and converted into a static SceneGeometry (scene.h): every mesh instance
/// pre-transformed to world space, one draw per material.
///
/// Supported: triangle lists, strips and fans (indexed or not) with POSITION, NORMAL (flat normals computed
/// when missing) and the TEXCOORD_n set of the base colour texture (float, or normalized unsigned
/// byte/short; KHR_mesh_quantization's integer types for all three; sparse accessors), with its
/// KHR_texture_transform applied at load; morph targets at their default weights; the default scene's
/// node hierarchy (else all root nodes) with matrix or TRS transforms and EXT_mesh_gpu_instancing; metallic-roughness
/// materials: base colour factor and texture (PNG or JPEG, mipmapped on load, with the sampler's
/// wrap and filter modes; or KHR_materials_pbrSpecularGlossiness's diffuse factor and texture,
/// roughness = 1 - glossiness), metallic and roughness factors, alphaMode MASK with alphaCutoff, and
/// doubleSided (single-sided materials cull back faces). The engine's sun and sky light the
/// scene; it has no SDF shadow primitives, so sun and point-light shadows find no occluders.
///
/// Everything else is ignored with ONE named warning per feature in SceneGeometry::warnings
/// (extensions, other textures, vertex colours beyond COLOR_0,
/// skins, animations, cameras, points and lines, BLEND
/// drawn as opaque, images that are not PNG or JPEG, external images whose file is missing and
/// that no drawn material uses). A required extension that changes how
/// geometry or images are stored (Draco, meshopt, KTX2/Basis, WebP) is an
/// error: the file cannot be drawn without it.
///
/// Safety: a malformed or hostile file gets an engine::Error naming the file and the problem
/// (accessor index, count, byte range, ...), never a crash, an out-of-bounds read or a huge
/// allocation from a lying count. Every accessor, buffer view and buffer range is validated
/// before it is read; vertex, index, texel and file sizes are capped (GltfLimits); image sizes
/// are checked from their headers before decoding; external URIs are read only from inside the
/// model file's folder (no absolute paths, no "..", no URI schemes, no symlink leading out),
/// each under a size cap.
#include "engine/export.h"
#include "engine/scene.h"

#include <cstdint>
#include <string>

ENGINE_API_BEGIN
namespace engine {

/// Size caps for loading a glTF file: a larger file, image or count is an error, never a huge allocation.
struct GltfLimits {
    uint64_t maxFileBytes = 1ull << 30;    ///< the .gltf/.glb and each external file
    uint64_t maxTotalBytes = 2ull << 30;   ///< all files read for one model
    uint64_t maxJsonBytes = 64ull << 20;   ///< the JSON text (of a .gltf, or a .glb's JSON chunk)
    uint32_t maxJsonDepth = 64;            ///< nesting of JSON arrays and objects
    uint64_t maxVertices = 1ull << 24;     ///< after instancing and de-indexing (40 bytes each)
    uint64_t maxIndices = 1ull << 26;  ///< triangle indices after instancing
    uint32_t maxTextureSize = 8192;        ///< texels per side
    uint64_t maxTextureTexels = 1ull << 27;  ///< level 0 of all textures together (x4 bytes, +1/3 for mips); over it, top mip levels are dropped
    uint32_t maxTextures = 1024;  ///< textures of one model (one device allocation each)
};

/// Loads `path` (.gltf or .glb, by content). Throws engine::Error "glTF 'path': ..." on any
/// problem; unsupported features are warnings, not errors.
SceneGeometry loadGltfScene(const std::string& path, const GltfLimits& limits = {});

}  // namespace engine
ENGINE_API_END
