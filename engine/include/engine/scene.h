#pragma once
/// \file
/// The procedural demo scene: a ground plane, boxes, spheres, thin wires and fences, and a text
/// panel, lit by a sun and several point lights. Everything is generated at start-up from a
/// list of analytic primitives; the same list is tessellated into a triangle mesh for the
/// G-buffer pass and uploaded as signed distance functions for shadow rays, so raster and
/// shadows agree.
#include "engine/buffer.h"

#include "engine/export.h"
#include "engine/renderer_shared.h"  // shaders/engine/: shared with GLSL

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

class Context;

/// A vertex of the demo scene (layout shared with gbuffer.vert).
struct Vertex {
    glm::vec3 position;  ///< world space
    glm::vec3 normal;  ///< world space, unit length
    glm::vec2 uv;       ///< pattern coordinates in world units (text panel: glyph cells)
    uint32_t material;  ///< gpu::MATERIAL_*
    uint32_t color;     ///< RGBA8 tint, little-endian (r in the low byte)
};
static_assert(sizeof(Vertex) == 40);

/// The demo scene on the CPU.
struct SceneGeometry {
    std::vector<Vertex> vertices;  ///< triangle vertices
    std::vector<uint32_t> indices;  ///< three per triangle
    gpu::SceneData data{};  ///< lights, primitives, sky
};

/// Deterministic: the same geometry on every call and every machine.
SceneGeometry buildDemoScene();

/// The scene's GPU buffers, uploaded once with Context::submitAndWait.
class GpuScene {
public:
    /// Uploads `geometry`.
    GpuScene(const Context& ctx, const SceneGeometry& geometry);
    /// Vertex buffer.
    const Buffer& vertices() const { return vertices_; }
    /// Index buffer (uint32).
    const Buffer& indices() const { return indices_; }
    /// Storage buffer holding gpu::SceneData.
    const Buffer& sceneData() const { return sceneData_; }
    /// Number of indices.
    uint32_t indexCount() const { return indexCount_; }

private:
    Buffer vertices_;
    Buffer indices_;
    Buffer sceneData_;
    uint32_t indexCount_ = 0;
};

}  // namespace engine
ENGINE_API_END
