#pragma once
/// \file
/// A camera path: the camera pose as a pure function of time, so any frame of any path can be
/// re-rendered at any resolution without replaying earlier frames. Three kinds:
///   - built-in: one of the named paths through the procedural scene (camera.h);
///   - keyframed: keyframes from a JSON file (or code), interpolated with Catmull-Rom splines
///     on position and target, linearly on the field of view, clamped before the first and
///     after the last keyframe (no looping); a keyframe with `cut` starts a new shot;
///   - orbit: an automatic orbit around a bounding box (glTF scenes without a path file).
///
/// JSON file format (docs/RENDERER.md):
///   {"keyframes": [{"time": 0.0, "position": [x, y, z], "target": [x, y, z], "fov_y_deg": 60,
///                   "cut": false}, ...],
///    "name": "optional", "near": 0.05, "far": 200}
/// `fov_y_deg` (default 60), `cut` (default false), `name`, `near` and `far` are optional;
/// unknown fields are ignored with a named warning (warnings()): a file written for another tool
/// still plays, and a misspelt field is reported rather than dropped silently.
///
/// Errors: construction and loading throw engine::Error naming the file and the field
/// ("camera path 'x.json': keyframes[3].position: expected an array of 3 numbers").
/// CameraPath is a small value type: copyable, immutable after construction, thread-safe to read.
#include "engine/camera.h"
#include "engine/export.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

/// A pose of a keyframed camera path at a time.
struct CameraKeyframe {
    float time = 0.0f;  ///< seconds; strictly increasing along a path
    glm::dvec3 position{0.0};  ///< eye, world space (double: large-world coordinates)
    glm::dvec3 target{0.0, 0.0, -1.0};  ///< point looked at
    float fovYDegrees = 60.0f;  ///< (0, 180)
    /// A camera cut: the path holds the previous keyframe's pose until this keyframe's time and
    /// then jumps to it. Splines never reach across a cut (each shot is interpolated on its own).
    bool cut = false;
};

/// Limits on keyframed paths (files larger or longer are rejected with an error).
inline constexpr uint64_t kMaxCameraPathFileBytes = 1u << 20;
inline constexpr uint32_t kMaxCameraKeyframes = 10000;  ///< keyframes of one path
inline constexpr uint32_t kMaxCameraPathWarnings = 32;  ///< warnings kept per file (one per unknown field)
/// Largest coordinate a keyframe may have, metres (beyond, double precision itself gets coarse).
inline constexpr double kMaxCameraCoordinate = 1e12;
/// Largest far/near ratio a path renders with. The depth buffer is standard-Z D32: depth is
/// about 1 - near/z, so beyond ~1e7 geometry rounds onto the far plane and disappears; at 1e6
/// depth still resolves about 6% of the distance at the far plane. fitClipPlanesTo() brings wider
/// planes of a file within it (far pulled in to the scene, then near moved out) with a warning.
inline constexpr float kMaxClipPlaneRatio = 1e6f;

/// A camera as a function of time: a built-in named path, keyframes (spline-interpolated, with
/// cuts) or an orbit around a scene.
class CameraPath {
public:
    CameraPath();  ///< built-in path 0 ("orbit")

    /// The named path `index` of camera.h. Throws engine::Error when it does not exist.
    static CameraPath builtIn(uint32_t index);
    /// Validates the keyframes (at least one; finite numbers; strictly increasing times; position
    /// != target; a field of view in (0, 180); 0 < near < far) and throws engine::Error naming
    /// `name` and the keyframe otherwise.
    static CameraPath keyframed(std::vector<CameraKeyframe> keyframes, std::string name = "keyframes",
                                float zNear = CameraPose{}.zNear, float zFar = CameraPose{}.zFar);
    /// A 40 s orbit around the box [boundsMin, boundsMax] (world space, any scale and distance
    /// from the origin): the whole box in view from 25 degrees above its centre, clip planes
    /// fitted to its size (far/near about 10). Throws engine::Error for an empty or non-finite box.
    static CameraPath orbitAround(glm::dvec3 boundsMin, glm::dvec3 boundsMax);
    /// Parses a JSON keyframe file (format above). Throws engine::Error naming the file and field.
    static CameraPath load(const std::string& file);
    /// Fits a keyframed path's clip planes to a scene of box [boundsMin, boundsMax] (world space).
    /// A file that sets no planes: the default far plane (200 m) would cut a larger scene, so it
    /// moves out to the box's farthest corner from anywhere on the path (5% margin), and the near
    /// plane by the same factor (the default depth precision, in the scene's units); a scene
    /// whose farthest point stays within 2 m (a model in millimetres) moves both in the same way
    /// (the near plane at most 1/40 of the way there, as the defaults are at 2 m), so the
    /// 5 cm default does not clip it away. A file whose planes are more than kMaxClipPlaneRatio
    /// apart: its far plane comes in to the scene's farthest corner (nothing lies beyond), then,
    /// if still too far apart, its near plane moves out to far / kMaxClipPlaneRatio; warnings()
    /// says so. Returns how far the far plane moved (1: unchanged, also for built-in paths,
    /// orbits, planes the scene fits and empty or non-finite boxes).
    float fitClipPlanesTo(glm::dvec3 boundsMin, glm::dvec3 boundsMax);
    /// Same, from text in memory; `what` names the source in error messages.
    static CameraPath parse(const std::string& json, const std::string& what);

    /// The clip planes every pose of this path has.
    float zNear() const { return zNear_; }
    float zFar() const { return zFar_; }  ///< far clip plane
    /// The pose at `t` seconds.
    CameraPose pose(float t) const;
    /// True when the path has a camera cut at some time in (t0, t1]: a frame at t1 whose previous
    /// frame was at t0 must not reuse temporal history. Built-in paths: `fence_walk` wraps
    /// around every 25 s (t != 0); the others have none. Orbits have none.
    bool cutBetween(float t0, float t1) const;

    /// "orbit", "fence_walk", ... for built-in paths; the file name or given name otherwise.
    const std::string& name() const { return name_; }
    /// True for a named path of camera.h.
    bool isBuiltIn() const { return kind_ == Kind::BuiltIn; }
    /// The index of a built-in path (meaningful when isBuiltIn()).
    uint32_t builtInIndex() const { return builtIn_; }
    /// The keyframes (empty for built-in paths and orbits).
    const std::vector<CameraKeyframe>& keyframes() const { return keys_; }
    /// What a loaded file had that this format ignores, one line per unknown field, naming the
    /// first keyframe that has it ("keyframes[2]: unknown field 'up' ignored (expected ...)"),
    /// for the caller to print.
    /// Empty for other paths and for files without such fields.
    const std::vector<std::string>& warnings() const { return warnings_; }

private:
    enum class Kind { BuiltIn, Keyframed, Orbit };
    CameraPose keyframedPose(float t) const;

    Kind kind_ = Kind::BuiltIn;
    uint32_t builtIn_ = 0;
    std::vector<CameraKeyframe> keys_;
    glm::dvec3 orbitCentre_{0.0};
    double orbitRadius_ = 1.0;
    float zNear_ = CameraPose{}.zNear, zFar_ = CameraPose{}.zFar;
    bool clipPlanesGiven_ = false;  ///< set by the file (or keyframed()'s caller)
    std::string name_;
    std::vector<std::string> warnings_;
};

}  // namespace engine
ENGINE_API_END
