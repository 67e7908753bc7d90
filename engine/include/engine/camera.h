#pragma once
/// \file
/// Deterministic camera paths through the demo scene. A path is a pure function of time, so
/// any frame of any path can be re-rendered at any resolution (low/high-resolution pairs for
/// training, held-out paths for evaluation) without replaying earlier frames.
#include "engine/export.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>

ENGINE_API_BEGIN
namespace engine {

/// Default clip planes (metres): the procedural scene's and the named paths'. Depth is the
/// standard (not inverted) Vulkan depth of a perspective projection with a pose's planes: 0 at
/// CameraPose::zNear, 1 at zFar.
inline constexpr float kCameraNear = 0.05f;  ///< near clip plane, metres
inline constexpr float kCameraFar = 200.0f;  ///< far clip plane, metres

/// Where a camera is and where it looks. Positions are double precision: geo-referenced and
/// large-world scenes sit 1e5..1e7 m from the origin, where a float cannot place a camera to
/// better than a centimetre .. a metre (cameraMatrices() subtracts the camera position in double).
struct CameraPose {
    glm::dvec3 position{0, 2, 10};  ///< eye, world space
    glm::dvec3 target{0, 1, 0};  ///< point looked at
    float fovYDegrees = 60.0f;  ///< vertical field of view
    /// Clip planes: scenes of other scales (glTF orbits, keyframe files) set their own, and
    /// consumers of depth (temporal upscalers) must take them from the pose.
    float zNear = kCameraNear;  ///< near clip plane, metres
    float zFar = kCameraFar;  ///< far clip plane, metres
};

/// The matrices of a pose at a resolution, for positions relative to a scene origin
/// (SceneGeometry::origin; "local" below is world - origin). Composed in double and rounded to
/// float once: the GPU only sees camera-relative magnitudes, so geometry far from the world
/// origin neither wobbles nor gets wrong motion vectors.
struct CameraMatrices {
    glm::mat4 view{1};  ///< local -> view
    glm::mat4 proj{1};  ///< view -> clip (jittered)
    glm::mat4 viewProj{1};  ///< local -> clip
    glm::mat4 invViewProj{1};  ///< clip -> local
    glm::vec3 position{0};  ///< eye, local (world - origin)
};

/// Named paths: "orbit", "fence_walk", "text_dolly", "flyover", "low_sweep", "spheres_pan".
uint32_t cameraPathCount();
/// The name of path `path` (< cameraPathCount()).
const char* cameraPathName(uint32_t path);
/// Index of a path by name, or UINT32_MAX.
uint32_t cameraPathIndex(const std::string& name);

/// The pose of `path` at time `t` seconds (paths loop; any t is valid). Throws engine::Error
/// when `path` is out of range.
CameraPose camera(uint32_t path, float t);
/// Seconds between the jumps of a path that wraps around discontinuously (a camera cut at every
/// non-zero multiple), 0 for a continuous path. Throws engine::Error when `path` is out of range.
float cameraPathWrapPeriod(uint32_t path);
// Named paths as engine::CameraPath values (keyframe files, cuts, automatic orbits): camera_path.h.

/// The up vector of a camera looking along `forward`: world +y; looking straight up or down
/// (within 0.8 degrees), +z or -z, as a camera tilted there from a level view along -z has it.
glm::vec3 cameraUp(glm::vec3 forward);

/// Vulkan conventions: depth 0 (near) .. 1 (far), +y down in clip space. The view matrix looks
/// from `pose.position` at `pose.target` with cameraUp(). `jitterPixels`
/// offsets the projection by a sub-pixel amount (for temporal upscalers; 0 = none): content moves
/// by +jitterPixels in the image (engine/jitter.h states the convention). The matrices act on
/// positions relative to `origin` (world = origin + local): the view's translation is
/// origin - pose.position, taken in double before anything is rounded to float.
CameraMatrices cameraMatrices(const CameraPose& pose, uint32_t width, uint32_t height,
                              glm::vec2 jitterPixels = glm::vec2(0), glm::dvec3 origin = glm::dvec3(0));

}  // namespace engine
ENGINE_API_END
