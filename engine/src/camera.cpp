#include "engine/camera.h"

#include "engine/error.h"

#define GLM_FORCE_DEPTH_ZERO_TO_ONE
#include <glm/gtc/matrix_transform.hpp>

#include <array>
#include <cmath>

namespace engine {
namespace {

constexpr float kTwoPi = 6.28318530718f;

// Each path exercises something upscalers get wrong: thin wires and fences against the sky,
// glyphs coming into focus, moire on a checkered ground at grazing angles, moving highlights.
CameraPose orbit(float t) {
    float a = kTwoPi * t / 40.0f;
    return {{14.0f * std::sin(a), 5.0f, 14.0f * std::cos(a)}, {0, 1.0f, 0}, 55.0f};
}
CameraPose fenceWalk(float t) {
    float x = -10.0f + std::fmod(t * 0.8f, 20.0f);
    return {{x, 1.6f, 7.5f}, {x + 3.0f, 1.2f, 2.0f}, 60.0f};
}
CameraPose textDolly(float t) {
    float d = 13.0f - 8.0f * (0.5f - 0.5f * std::cos(kTwoPi * t / 16.0f));
    return {{1.5f * std::sin(kTwoPi * t / 23.0f), 2.2f, -6.0f + d}, {0, 2.0f, -6.0f}, 50.0f};
}
CameraPose flyover(float t) {
    float a = kTwoPi * t / 30.0f;
    glm::vec3 p{10.0f * std::cos(a), 11.0f, 6.0f * std::sin(a)};
    return {p, {0.4f * p.x, 0, 0.4f * p.z - 1.0f}, 60.0f};
}
CameraPose lowSweep(float t) {
    float a = kTwoPi * t / 25.0f;
    return {{-12.0f + 3.0f * std::sin(a), 0.45f, 9.0f}, {4.0f, 0.2f, -4.0f + 6.0f * std::sin(a)}, 65.0f};
}
CameraPose spheresPan(float t) {
    float a = kTwoPi * t / 20.0f;
    return {{6.0f + 4.0f * std::sin(a), 2.5f, -1.0f + 1.5f * std::cos(a)}, {6.5f, 0.9f, -3.5f}, 45.0f};
}

struct PathEntry {
    const char* name;
    CameraPose (*pose)(float);
    float wrapPeriod;  // seconds between discontinuous jumps (0: continuous)
};
constexpr std::array<PathEntry, 6> kPaths{{
    {"orbit", orbit, 0.0f},
    {"fence_walk", fenceWalk, 25.0f},  // fmod(t * 0.8, 20): back to the start every 25 s
    {"text_dolly", textDolly, 0.0f},
    {"flyover", flyover, 0.0f},
    {"low_sweep", lowSweep, 0.0f},
    {"spheres_pan", spheresPan, 0.0f},
}};

}  // namespace

uint32_t cameraPathCount() { return uint32_t(kPaths.size()); }

const char* cameraPathName(uint32_t path) { return path < kPaths.size() ? kPaths[path].name : "(invalid)"; }

uint32_t cameraPathIndex(const std::string& name) {
    for (uint32_t i = 0; i < kPaths.size(); ++i)
        if (name == kPaths[i].name) return i;
    return UINT32_MAX;
}

CameraPose camera(uint32_t path, float t) {
    if (path >= kPaths.size())
        throw Error("camera path " + std::to_string(path) + " does not exist (0.." + std::to_string(kPaths.size() - 1) + ")");
    return kPaths[path].pose(t);
}

float cameraPathWrapPeriod(uint32_t path) {
    if (path >= kPaths.size())
        throw Error("camera path " + std::to_string(path) + " does not exist (0.." + std::to_string(kPaths.size() - 1) + ")");
    return kPaths[path].wrapPeriod;
}

glm::vec3 cameraUp(glm::vec3 forward) {
    // World +y, except looking (almost) straight up or down, where it is parallel to the view:
    // then the camera's up is where it points after tilting there from a level view along -z.
    const float len = glm::length(forward);
    if (std::fabs(forward.y) <= 0.9999f * len) return glm::vec3(0, 1, 0);
    return glm::vec3(0, 0, forward.y > 0.0f ? 1.0f : -1.0f);
}


CameraMatrices cameraMatrices(const CameraPose& pose, uint32_t width, uint32_t height, glm::vec2 jitterPixels, glm::dvec3 origin) {
    // Everything in double, rounded to float once at the end: the view's translation
    // origin - eye is small wherever the camera is near the geometry, however far both are from
    // the world origin (at 1e6 m a float step is 6 cm; composing there in float made geometry
    // wobble and motion vectors wrong).
    const glm::dvec3 forward = pose.target - pose.position;
    const glm::dmat4 rotation = glm::lookAt(glm::dvec3(0.0), forward, glm::dvec3(cameraUp(glm::vec3(glm::normalize(forward)))));
    const glm::dmat4 view = glm::translate(rotation, origin - pose.position);
    const double aspect = double(width) / double(height);
    glm::dmat4 proj = glm::perspective(glm::radians(double(pose.fovYDegrees)), aspect, double(pose.zNear), double(pose.zFar));
    proj[1][1] *= -1.0;  // Vulkan clip space has +y down
    // A sub-pixel shift in NDC is 2 * pixels / size. Column 2 multiplies view-space z, and
    // clip w = -z, so subtracting here shifts NDC by +jitter.
    proj[2][0] -= 2.0 * double(jitterPixels.x) / double(width);
    proj[2][1] -= 2.0 * double(jitterPixels.y) / double(height);
    const glm::dmat4 viewProj = proj * view;
    CameraMatrices m;
    m.position = glm::vec3(pose.position - origin);
    m.view = glm::mat4(view);
    m.proj = glm::mat4(proj);
    m.viewProj = glm::mat4(viewProj);
    m.invViewProj = glm::mat4(glm::inverse(viewProj));
    return m;
}

}  // namespace engine
