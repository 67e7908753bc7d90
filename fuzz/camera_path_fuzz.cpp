// Fuzz target: camera-path JSON files (engine/camera_path.h: CameraPath::parse, nlohmann-json,
// then keyframe validation). An accepted path is evaluated over and around its time range: every
// pose must be finite with a valid field of view and clip planes, whatever the keyframes.
#include "engine/camera_path.h"
#include "engine/error.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::abort();
}

bool finite(glm::dvec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string json(reinterpret_cast<const char*>(data), size);
    try {
        engine::CameraPath path = engine::CameraPath::parse(json, "fuzz.json");
        const auto& keys = path.keyframes();
        if (keys.empty()) fail("a keyframed path without keyframes");
        float t0 = keys.front().time, t1 = keys.back().time;
        for (int i = -2; i <= 34; ++i) {
            float t = t0 + (t1 - t0) * float(i) / 32.0f;
            if (!std::isfinite(t)) continue;
            engine::CameraPose pose = path.pose(t);
            if (!finite(pose.position) || !finite(pose.target)) fail("a pose that is not finite at t = " + std::to_string(t));
            if (!(pose.fovYDegrees > 0.0f && pose.fovYDegrees < 180.0f)) fail("field of view " + std::to_string(pose.fovYDegrees));
            if (!(pose.zNear > 0.0f && pose.zFar > pose.zNear && std::isfinite(pose.zFar))) fail("clip planes out of order");
            (void)path.cutBetween(t0, t);
        }
    } catch (const engine::Error&) {
    }
    return 0;
}
