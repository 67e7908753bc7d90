// engine::CameraPath: built-in paths unchanged, keyframe interpolation (through the keyframes,
// clamped, Catmull-Rom smoothness), cuts, the automatic orbit, and clear errors for malformed
// keyframe files. CPU only.
#include "engine/camera_path.h"
#include "engine/error.h"
#include "engine/renderer.h"
#include "gltf_builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

namespace {

using engine::CameraKeyframe;
using engine::CameraPath;
using glm::vec3;

void expectNear(vec3 a, vec3 b, float tolerance = 1e-5f) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}

std::vector<CameraKeyframe> fourKeys() {
    return {{0.0f, {0, 2, 10}, {0, 1, 0}, 60.0f, false},
            {2.0f, {5, 3, 5}, {1, 1, 0}, 50.0f, false},
            {3.0f, {8, 2, 0}, {2, 0, -1}, 40.0f, false},
            {6.0f, {4, 4, -6}, {0, 1, -2}, 70.0f, false}};
}

// Throws engine::Error whose message contains `expected`.
void expectError(const std::function<void()>& f, const std::string& expected) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one containing: " << expected;
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << "message: " << e.what() << "\nexpected: " << expected;
    }
}

TEST(CameraPath, BuiltInPathsMatchTheNamedFunctions) {
    for (uint32_t i = 0; i < engine::cameraPathCount(); ++i) {
        CameraPath p = CameraPath::builtIn(i);
        EXPECT_EQ(p.name(), engine::cameraPathName(i));
        for (float t : {0.0f, 1.3f, 17.0f}) {
            expectNear(p.pose(t).position, engine::camera(i, t).position, 0.0f);
            expectNear(p.pose(t).target, engine::camera(i, t).target, 0.0f);
        }
    }
    expectError([] { CameraPath::builtIn(99); }, "camera path 99 does not exist");
}

TEST(CameraPath, FrameParamsOverloadsAgree) {
    engine::FrameParams a = engine::FrameParams::onPath(2, 7, 30.0f, 1.5f);
    engine::FrameParams b = engine::FrameParams::onPath(CameraPath::builtIn(2), 7, 30.0f, 1.5f);
    expectNear(a.camera.position, b.camera.position, 0.0f);
    expectNear(a.previousCamera.position, b.previousCamera.position, 0.0f);
    EXPECT_EQ(a.frameSeed, b.frameSeed);
}

TEST(CameraPath, PassesThroughEveryKeyframe) {
    auto keys = fourKeys();
    CameraPath p = CameraPath::keyframed(keys);
    for (const CameraKeyframe& k : keys) {
        engine::CameraPose pose = p.pose(k.time);
        expectNear(pose.position, k.position);
        expectNear(pose.target, k.target);
        EXPECT_NEAR(pose.fovYDegrees, k.fovYDegrees, 1e-4f);
    }
    // Between keyframes: a proper blend, with the field of view linear.
    engine::CameraPose mid = p.pose(2.5f);
    EXPECT_NEAR(mid.fovYDegrees, 45.0f, 1e-4f);
    EXPECT_GT(glm::distance(mid.position, keys[1].position), 0.1f);
    EXPECT_GT(glm::distance(mid.position, keys[2].position), 0.1f);
}

TEST(CameraPath, ClampsBeforeTheFirstAndAfterTheLastKeyframe) {
    auto keys = fourKeys();
    CameraPath p = CameraPath::keyframed(keys);
    expectNear(p.pose(-5.0f).position, keys.front().position, 0.0f);
    expectNear(p.pose(100.0f).position, keys.back().position, 0.0f);
    expectNear(p.pose(100.0f).target, keys.back().target, 0.0f);
    EXPECT_EQ(p.pose(1e9f).fovYDegrees, keys.back().fovYDegrees);  // no looping
}

TEST(CameraPath, CatmullRomIsSmoothThroughInteriorKeyframes) {
    CameraPath p = CameraPath::keyframed(fourKeys());
    // Velocity just before and just after keyframes 1 (t = 2) and 2 (t = 3) agree (C1), though
    // the segments have different durations.
    const float h = 1e-3f;
    for (float t : {2.0f, 3.0f}) {
        vec3 before = (vec3(p.pose(t).position) - vec3(p.pose(t - h).position)) / h;
        vec3 after = (vec3(p.pose(t + h).position) - vec3(p.pose(t).position)) / h;
        expectNear(before, after, 0.05f * glm::length(before) + 0.01f);
        vec3 targetBefore = (vec3(p.pose(t).target) - vec3(p.pose(t - h).target)) / h;
        vec3 targetAfter = (vec3(p.pose(t + h).target) - vec3(p.pose(t).target)) / h;
        expectNear(targetBefore, targetAfter, 0.05f * glm::length(targetBefore) + 0.01f);
    }
    // Interior tangent = central difference: velocity at keyframe 1 = (p2 - p0) / (t2 - t0).
    vec3 velocity = (vec3(p.pose(2.0f + h).position) - vec3(p.pose(2.0f - h).position)) / (2 * h);
    expectNear(velocity, (vec3(8, 2, 0) - vec3(0, 2, 10)) / 3.0f, 0.01f);
    // Collinear, evenly spaced keyframes give a straight line at constant speed.
    CameraPath line = CameraPath::keyframed({{0, {0, 1, 0}, {0, 1, -5}}, {1, {1, 1, 0}, {1, 1, -5}}, {2, {2, 1, 0}, {2, 1, -5}}});
    expectNear(line.pose(0.25f).position, vec3(0.25f, 1, 0));
    expectNear(line.pose(1.5f).position, vec3(1.5f, 1, 0));
}

TEST(CameraPath, CutsJumpWithoutInterpolatingAndAreReported) {
    auto keys = fourKeys();
    keys[2].cut = true;  // at t = 3
    CameraPath p = CameraPath::keyframed(keys);
    // Until the cut the camera holds keyframe 1; at the cut it is at keyframe 2.
    expectNear(p.pose(2.5f).position, keys[1].position, 0.0f);
    expectNear(p.pose(2.999f).position, keys[1].position, 0.0f);
    expectNear(p.pose(3.0f).position, keys[2].position);
    // The new shot starts from keyframe 2 with a one-sided tangent: no influence of keyframe 1.
    auto shot = std::vector<CameraKeyframe>(keys.begin() + 2, keys.end());
    shot[0].cut = false;
    CameraPath alone = CameraPath::keyframed(shot);
    expectNear(p.pose(4.0f).position, alone.pose(4.0f).position);
    // The segment before the cut keeps its own one-sided end (no look across the cut).
    CameraPath before = CameraPath::keyframed(std::vector<CameraKeyframe>(keys.begin(), keys.begin() + 2));
    expectNear(p.pose(1.0f).position, before.pose(1.0f).position);

    EXPECT_TRUE(p.cutBetween(2.9f, 3.0f));   // (t0, t1] includes t1
    EXPECT_FALSE(p.cutBetween(3.0f, 3.1f));  // excludes t0
    EXPECT_FALSE(p.cutBetween(0.0f, 2.99f));
    EXPECT_TRUE(p.cutBetween(-10.0f, 10.0f));
    EXPECT_FALSE(CameraPath::keyframed(fourKeys()).cutBetween(-10.0f, 10.0f));

    // FrameParams: across the cut the previous camera is the current one (no motion vectors).
    engine::FrameParams atCut = engine::FrameParams::onPath(p, 90, 30.0f);  // t = 3.0
    expectNear(atCut.previousCamera.position, atCut.camera.position, 0.0f);
    engine::FrameParams after = engine::FrameParams::onPath(p, 92, 30.0f);
    EXPECT_GT(glm::distance(after.previousCamera.position, after.camera.position), 0.0f);
    EXPECT_FALSE(after.cameraCut);
    // Whatever the start time and rate, a cut marks exactly one frame: float rounding of the
    // frame times must neither drop it nor report it twice (t - 1/fps computed from frame i's
    // time can fall just below frame i - 1's time, and 9.9 s + 2 frames at 10 fps did).
    CameraPath late = CameraPath::keyframed({{0, {0, 1, 5}, {0, 1, 0}}, {10, {5, 1, 5}, {0, 1, 0}, 60, true}, {20, {9, 1, 5}, {0, 1, 0}}});
    for (float fps : {10.0f, 24.0f, 30.0f, 60.0f})
        for (int k = 0; k < 150; ++k) {
            float start = 9.0f + 0.0066f * float(k);  // up to 9.99: the cut at 10 s lies ahead
            int cuts = 0;
            for (uint32_t i = 1; i < uint32_t(4.0f * fps); ++i) cuts += engine::FrameParams::onPath(late, i, fps, start).cameraCut;
            ASSERT_EQ(cuts, 1) << fps << " fps from t = " << start;
        }
}

TEST(CameraPath, BuiltInFenceWalkReportsItsWrapAround) {
    CameraPath fence = CameraPath::builtIn(engine::cameraPathIndex("fence_walk"));
    EXPECT_TRUE(fence.cutBetween(24.99f, 25.01f));
    EXPECT_TRUE(fence.cutBetween(-25.01f, -24.99f));
    EXPECT_FALSE(fence.cutBetween(-0.5f, 0.5f));  // continuous through t = 0
    EXPECT_FALSE(fence.cutBetween(1.0f, 24.9f));
    // The wrap is a real jump: 1/30 s apart, the camera moves 20 m.
    EXPECT_GT(glm::distance(fence.pose(24.99f).position, fence.pose(25.01f).position), 10.0f);
    EXPECT_FALSE(CameraPath::builtIn(0).cutBetween(0.0f, 1000.0f));
}

TEST(CameraPath, OrbitFramesTheBoundsAndFitsClipPlanes) {
    vec3 lo(-0.02f, 0.0f, -0.01f), hi(0.02f, 0.05f, 0.01f);  // a 5 cm object
    CameraPath p = CameraPath::orbitAround(lo, hi);
    vec3 centre = 0.5f * (lo + hi);
    float radius = 0.5f * glm::length(hi - lo);
    for (float t : {0.0f, 10.0f, 25.0f}) {
        engine::CameraPose pose = p.pose(t);
        expectNear(pose.target, centre);
        float d = glm::distance(vec3(pose.position), centre);
        EXPECT_GT(d, radius * 1.5f);
        EXPECT_GT(pose.position.y, centre.y);
        EXPECT_LT(pose.zNear, d - radius);
        EXPECT_GT(pose.zFar, d + radius);
    }
    EXPECT_GT(glm::distance(p.pose(0).position, p.pose(10).position), radius);
    expectError([] { CameraPath::orbitAround(vec3(1), vec3(0)); }, "bounds are empty");
}

// Orbits of any scale and place: a model in micrometres, one 100 km across, one 1e7 m out.
// The bounding sphere fills the same part of the view, the planes hold it with a far/near
// ratio near 10, and the camera moves smoothly (float centres rounded a 1e7 m one to 1 m).
TEST(CameraPath, OrbitsAnyScaleAndPlace) {
    struct Box {
        glm::dvec3 lo, hi;
    };
    const Box boxes[] = {{glm::dvec3(-1e-6), glm::dvec3(1e-6)},
                         {glm::dvec3(0.0), glm::dvec3(1e-4, 2e-4, 5e-5)},
                         {glm::dvec3(-5e4, 0, -5e4), glm::dvec3(5e4, 2e3, 5e4)},
                         {glm::dvec3(1e7, 200, -3e6), glm::dvec3(1e7 + 2, 201, -3e6 + 1)}};
    for (const Box& box : boxes) {
        CameraPath p = CameraPath::orbitAround(box.lo, box.hi);
        const glm::dvec3 centre = 0.5 * (box.lo + box.hi);
        const double radius = 0.5 * glm::length(box.hi - box.lo);
        for (float t : {0.0f, 10.0f, 25.0f}) {
            engine::CameraPose pose = p.pose(t);
            const double d = glm::distance(pose.position, centre);
            EXPECT_NEAR(radius / d, std::sin(glm::radians(25.0)), 1e-6) << "radius " << radius;
            EXPECT_NEAR(glm::distance(pose.target, centre), 0.0, 1e-9 * std::max(1.0, glm::length(centre)));
            EXPECT_LT(pose.zNear, d - radius);
            EXPECT_GT(pose.zFar, d + radius);
            EXPECT_LT(pose.zFar / pose.zNear, 20.0f);
        }
        // 1/30 s apart: the camera moves by the orbit's arc, smoothly.
        const double arc = glm::distance(p.pose(0.0f).position, centre) * std::cos(glm::radians(25.0)) * 2.0 * M_PI / 40.0 / 30.0;
        for (int f = 1; f < 4; ++f) {
            double step = glm::distance(p.pose(float(f) / 30.0f).position, p.pose(float(f - 1) / 30.0f).position);
            EXPECT_NEAR(step, arc, 1e-3 * arc) << "radius " << radius << ", frame " << f;
        }
    }
}

// The view matrix of `pose` (64x40, no jitter) has finite entries and an orthonormal basis.
void expectUsableView(const engine::CameraPose& pose) {
    engine::CameraMatrices m = engine::cameraMatrices(pose, 64, 40);
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) ASSERT_TRUE(std::isfinite(m.viewProj[c][r])) << "viewProj[" << c << "][" << r << "]";
    glm::mat3 basis(m.view);
    glm::mat3 gram = glm::transpose(basis) * basis;
    for (int c = 0; c < 3; ++c) expectNear(gram[c], glm::mat3(1.0f)[c], 1e-4f);
    EXPECT_NEAR(glm::determinant(basis), 1.0f, 1e-4f);
    // The target projects to the image centre.
    glm::vec4 clip = m.viewProj * glm::vec4(pose.target, 1.0f);
    EXPECT_NEAR(clip.x / clip.w, 0.0f, 1e-4f);
    EXPECT_NEAR(clip.y / clip.w, 0.0f, 1e-4f);
}

TEST(CameraPath, LooksStraightDownAndUp) {
    // A top-down shot and one looking up: valid keyframes, with the image's top towards -z
    // looking down (+z looking up), as a camera tilted there from a level view along -z.
    CameraPath p = CameraPath::keyframed({{0.0f, {0, 10, 0}, {0, 0, 0}}, {1.0f, {0, 1, 0}, {0, 5, 0}}});
    expectUsableView(p.pose(0.0f));
    expectUsableView(p.pose(1.0f));
    expectNear(engine::cameraUp({0, -3, 0}), vec3(0, 0, -1), 0.0f);
    expectNear(engine::cameraUp({0, 3, 0}), vec3(0, 0, 1), 0.0f);
    expectNear(engine::cameraUp({1, -3, 0}), vec3(0, 1, 0), 0.0f);
    // Continuous with a level view tilted down: a point ahead (-z) on the ground stays in the
    // image's upper half (clip y < 0 is up in Vulkan) just before and at the vertical.
    for (vec3 target : {vec3(0, 0, -0.001f), vec3(0, 0, 0)}) {
        engine::CameraPose pose;
        pose.position = {0, 10, 0};
        pose.target = target;
        engine::CameraMatrices m = engine::cameraMatrices(pose, 64, 40);
        glm::vec4 ahead = m.viewProj * glm::vec4(0, 0, -2, 1);
        EXPECT_LT(ahead.y / ahead.w, 0.0f) << "target z " << target.z;
    }
    // Position and target splines that meet between keyframes: the view stays defined.
    CameraPath crossing = CameraPath::keyframed({{0.0f, {0, 1, 0}, {2, 1, 0}}, {1.0f, {2, 1, 0}, {0, 1, 0}}});
    expectUsableView(crossing.pose(0.5f));
}

TEST(CameraPathFile, FarPlaneReachesAScenePastTheDefaultOnlyWhenTheFileSetsNone) {
    const char* noPlanes = R"({"keyframes": [{"time": 0, "position": [0, 20, 900], "target": [0, 0, 0]},
                                             {"time": 2, "position": [100, 20, 900], "target": [0, 0, 0]}]})";
    // A scene in the defaults' reach: nothing changes.
    CameraPath small = CameraPath::parse(noPlanes, "p");
    EXPECT_EQ(small.fitClipPlanesTo(vec3(-50, 0, 800), vec3(50, 10, 1000)), 1.0f);
    EXPECT_EQ(small.zFar(), engine::kCameraFar);
    EXPECT_EQ(small.zNear(), engine::kCameraNear);
    // A scene in centimetres: far reaches the farthest corner (-2000, 500, -2000) from the path's
    // end (farther from there than from any earlier point), near moves by the same factor.
    CameraPath large = CameraPath::parse(noPlanes, "p");
    float scale = large.fitClipPlanesTo(vec3(-2000, 0, -2000), vec3(2000, 500, 2000));
    float reach = glm::distance(vec3(100, 20, 900), vec3(-2000, 500, -2000));
    EXPECT_NEAR(large.zFar(), 1.05f * reach, 1e-3f * reach);
    EXPECT_NEAR(scale, large.zFar() / engine::kCameraFar, 1e-4f * scale);
    EXPECT_NEAR(large.zNear(), engine::kCameraNear * scale, 1e-6f * scale);
    EXPECT_EQ(large.pose(1.0f).zFar, large.zFar());
    // Planes the file sets are the author's: kept.
    CameraPath own = CameraPath::parse(R"({"far": 150, "keyframes": [{"time": 0, "position": [0, 20, 900], "target": [0, 0, 0]}]})", "p");
    EXPECT_EQ(own.fitClipPlanesTo(vec3(-2000), vec3(2000)), 1.0f);
    EXPECT_EQ(own.zFar(), 150.0f);
    // Built-in paths, orbits (fitted already) and boxes that are not boxes: unchanged.
    CameraPath builtIn = CameraPath::builtIn(0);
    EXPECT_EQ(builtIn.fitClipPlanesTo(vec3(-1e5f), vec3(1e5f)), 1.0f);
    CameraPath orbit = CameraPath::orbitAround(vec3(-1), vec3(1));
    EXPECT_EQ(orbit.fitClipPlanesTo(vec3(-1e5f), vec3(1e5f)), 1.0f);
    EXPECT_EQ(small.fitClipPlanesTo(vec3(std::nanf("")), vec3(1e5f)), 1.0f);
    EXPECT_EQ(small.fitClipPlanesTo(vec3(1e5f), vec3(-1e5f)), 1.0f);
}

// A model in millimetres seen from a few millimetres: the 5 cm default near plane would clip all
// of it, so both planes come in (near at most 1/40 of the way to its farthest point).
TEST(CameraPathFile, ClipPlanesComeInForASceneWithinTwoMetres) {
    CameraPath p = CameraPath::parse(R"({"keyframes": [{"time": 0, "position": [0, 0.002, 0.004], "target": [0, 0, 0]},
                                                       {"time": 2, "position": [0.003, 0.002, 0.003], "target": [0, 0, 0]}]})",
                                     "mm");
    const glm::dvec3 lo(-0.001, 0, -0.001), hi(0.001, 0.001, 0.001);
    float moved = p.fitClipPlanesTo(lo, hi);
    EXPECT_LT(moved, 1.0f);
    for (float t : {0.0f, 1.0f, 2.0f}) {
        engine::CameraPose pose = p.pose(t);
        const glm::dvec3 eye = pose.position;
        const glm::dvec3 closest = glm::clamp(eye, lo, hi);
        EXPECT_LT(pose.zNear, 0.5 * glm::distance(eye, closest)) << "t = " << t;  // nothing in front of the box is clipped
        for (int corner = 0; corner < 8; ++corner)
            EXPECT_GT(pose.zFar, glm::distance(eye, glm::dvec3(corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z)));
        EXPECT_NEAR(pose.zFar / pose.zNear, engine::kCameraFar / engine::kCameraNear, 1.0f);
    }
    EXPECT_TRUE(p.warnings().empty());
    // A scene of a few metres keeps the defaults (the training distribution of the upscalers).
    CameraPath room = CameraPath::parse(R"({"keyframes": [{"time": 0, "position": [0, 1.6, 3], "target": [0, 1, 0]}]})", "room");
    EXPECT_EQ(room.fitClipPlanesTo(glm::dvec3(-3, 0, -3), glm::dvec3(3, 3, 3)), 1.0f);
    EXPECT_EQ(room.zNear(), engine::kCameraNear);
}

// A file's own planes 1e15 apart: with standard-Z fp32 depth, everything beyond ~17 m of a 1e-6
// near plane rounds onto the far plane and vanishes. The far plane comes in to the scene, the
// near plane out to far / kMaxClipPlaneRatio, and a warning says so with the numbers.
TEST(CameraPathFile, ExtremeClipPlaneRatiosAreBroughtWithinTheDepthPrecision) {
    const char* text = R"({"near": 1e-6, "far": 1e9, "keyframes": [{"time": 0, "position": [0, 2, 40], "target": [0, 0, 0]},
                                                                   {"time": 4, "position": [30, 2, 30], "target": [0, 0, 0]}]})";
    CameraPath p = CameraPath::parse(text, "extreme");
    EXPECT_EQ(p.zNear(), 1e-6f);  // parsed as written
    p.fitClipPlanesTo(glm::dvec3(-50, 0, -50), glm::dvec3(50, 10, 50));
    const float farthest = glm::distance(vec3(30, 2, 30), vec3(-50, 10, -50));  // from the path's end
    EXPECT_GT(p.zFar(), farthest);
    EXPECT_LT(p.zFar(), 1.1f * farthest);
    EXPECT_NEAR(p.zFar() / p.zNear(), engine::kMaxClipPlaneRatio, 1.0f);
    ASSERT_EQ(p.warnings().size(), 1u);
    EXPECT_NE(p.warnings()[0].find("near 1e-06 and far 1e+09 are more than 1000000 apart"), std::string::npos) << p.warnings()[0];
    // The geometry 90 m away has a depth below 1 with these planes.
    engine::CameraPose pose = p.pose(0.0f);
    engine::CameraMatrices m = engine::cameraMatrices(pose, 64, 40);
    glm::vec4 clip = m.viewProj * glm::vec4(0, 0, -50, 1);
    EXPECT_LT(clip.z / clip.w, 1.0f);
    // Wide but within the limit: kept as the file says.
    CameraPath ok = CameraPath::parse(R"({"near": 0.001, "far": 900, "keyframes": [{"time": 0, "position": [0, 2, 40], "target": [0, 0, 0]}]})", "ok");
    EXPECT_EQ(ok.fitClipPlanesTo(glm::dvec3(-50, 0, -50), glm::dvec3(50, 10, 50)), 1.0f);
    EXPECT_EQ(ok.zNear(), 0.001f);
    EXPECT_EQ(ok.zFar(), 900.0f);
}

TEST(CameraPath, RejectsBadKeyframes) {
    auto keys = fourKeys();
    keys[2].time = 2.0f;
    expectError([&] { CameraPath::keyframed(keys, "p"); }, "camera path 'p': keyframes[2].time: 2 does not increase strictly (previous keyframe at 2)");
    keys = fourKeys();
    keys[1].target = keys[1].position;
    expectError([&] { CameraPath::keyframed(keys, "p"); }, "keyframes[1]: position and target are the same point");
    keys = fourKeys();
    keys[3].fovYDegrees = 180.0f;
    expectError([&] { CameraPath::keyframed(keys, "p"); }, "keyframes[3].fov_y_deg: 180 is not in (0, 180)");
    expectError([&] { CameraPath::keyframed({}, "p"); }, "needs at least one keyframe");
}

// Writes `text` to a file and loads it; the error must name the file and `expected`.
void expectFileError(const std::string& text, const std::string& expected) {
    testsupport::ScratchDirectory dir;
    std::string file = (dir / "path.json").string();
    std::ofstream(file) << text;
    expectError([&] { CameraPath::load(file); }, "camera path '" + file + "': " + expected);
}

const char* kGoodFile = R"({"name": "walk", "near": 0.1, "far": 50, "keyframes": [
  {"time": 0.0, "position": [0, 2, 10], "target": [0, 1, 0], "fov_y_deg": 60},
  {"time": 4.0, "position": [4, 2, 6], "target": [0, 1, 0]},
  {"time": 6.0, "position": [-3, 1.5, 2], "target": [0, 1, -4], "fov_y_deg": 45, "cut": true}
]})";

TEST(CameraPathFile, LoadsKeyframesNamesAndClipPlanes) {
    testsupport::ScratchDirectory dir;
    std::string file = (dir / "walk.json").string();
    std::ofstream(file) << kGoodFile;
    CameraPath p = CameraPath::load(file);
    EXPECT_EQ(p.name(), "walk");
    ASSERT_EQ(p.keyframes().size(), 3u);
    EXPECT_EQ(p.keyframes()[1].fovYDegrees, 60.0f);  // the default
    EXPECT_TRUE(p.keyframes()[2].cut);
    EXPECT_FALSE(p.keyframes()[1].cut);
    engine::CameraPose pose = p.pose(4.0f);
    expectNear(pose.position, vec3(4, 2, 6));
    EXPECT_EQ(pose.zNear, 0.1f);
    EXPECT_EQ(pose.zFar, 50.0f);
    EXPECT_TRUE(p.cutBetween(5.9f, 6.0f));
}

TEST(CameraPathFile, MalformedFilesGetErrorsNamingTheField) {
    expectFileError("{\"keyframes\": [", "not valid JSON");
    expectFileError("", "not valid JSON");
    expectFileError("[1, 2]", "expected a JSON object with a \"keyframes\" array");
    expectFileError("{}", "keyframes: missing");
    expectFileError("{\"keyframes\": 3}", "keyframes: expected an array");
    expectFileError("{\"keyframes\": []}", "keyframes: needs at least one keyframe");
    const std::string k0 = R"({"time": 0, "position": [0, 2, 10], "target": [0, 1, 0]})";
    auto file = [&](const std::string& k1) { return "{\"keyframes\": [" + k0 + ", " + k1 + "]}"; };
    expectFileError(file(R"({"time": 1, "position": [1, 2], "target": [0, 1, 0]})"),
                    "keyframes[1].position: expected an array of 3 numbers");
    expectFileError(file(R"({"time": 1, "position": [1, 2, "x"], "target": [0, 1, 0]})"),
                    "keyframes[1].position: expected an array of 3 numbers");
    expectFileError(file(R"({"time": 1, "position": [1, 2, 3]})"), "keyframes[1].target: missing");
    expectFileError(file(R"({"position": [1, 2, 3], "target": [0, 1, 0]})"), "keyframes[1].time: missing");
    expectFileError(file(R"({"time": "1", "position": [1, 2, 3], "target": [0, 1, 0]})"), "keyframes[1].time: expected a number");
    expectFileError(file(R"({"time": 0, "position": [1, 2, 3], "target": [0, 1, 0]})"), "keyframes[1].time: 0 does not increase strictly");
    // Small numbers are printed as written, not rounded to six decimals.
    expectFileError(R"({"keyframes": [{"time": 2e-7, "position": [0, 2, 10], "target": [0, 1, 0]},
                                      {"time": 1e-7, "position": [1, 2, 3], "target": [0, 1, 0]}]})",
                    "keyframes[1].time: 1e-07 does not increase strictly (previous keyframe at 2e-07)");
    expectFileError(file(R"({"time": 1, "position": [1, 2, 3], "target": [0, 1, 0], "fov_y_deg": -5})"), "keyframes[1].fov_y_deg");
    expectFileError(file(R"({"time": 1, "position": [1, 2, 3], "target": [0, 1, 0], "cut": 1})"), "keyframes[1].cut: expected true or false");
    expectFileError(file(R"({"time": 1e300, "position": [1, 2, 3], "target": [0, 1, 0]})"), "keyframes[1].time: 1e+300 is out of the float range");
    expectFileError(file("7"), "keyframes[1]: expected an object");
    expectFileError("{\"keyframes\": [" + k0 + "], \"near\": 0}", "near: 0 is not a positive number");
    expectFileError("{\"keyframes\": [" + k0 + "], \"near\": -2.5}", "near: -2.5 is not a positive number");
    expectFileError("{\"keyframes\": [" + k0 + "], \"near\": 1, \"far\": 0.5}", "far: 0.5 is not larger than near (1)");
    expectFileError("{\"keyframes\": [" + k0 + "], \"near\": 1, \"far\": 1}", "far: 1 is not larger than near (1)");
    expectFileError("{\"keyframes\": [" + k0 + "], \"far\": 1e39}", "far: 1e+39 is out of the float range");
    // Coordinates are doubles (large-world scenes), up to 1e12 m.
    expectFileError(file(R"({"time": 1, "position": [1, 2e13, 3], "target": [0, 1, 0]})"),
                    "keyframes[1].position: coordinate 2e+13 is beyond 1e+12 m");
    expectFileError(file(R"({"time": 1, "position": [1, 2, 3], "target": [0, 1e300, 0]})"),
                    "keyframes[1].target: coordinate 1e+300 is beyond 1e+12 m");
}

// Geo-referenced paths: keyframes 1e7 m from the origin keep millimetres (a float rounds to 1 m
// there), so a slow camera moves smoothly rather than in metre jumps.
TEST(CameraPathFile, LargeCoordinatesKeepTheirPrecision) {
    CameraPath p = CameraPath::parse(R"({"keyframes": [
        {"time": 0, "position": [10000000.0, 500.0, -4000000.0], "target": [10000010.0, 500.0, -4000000.0]},
        {"time": 1, "position": [10000000.01, 500.002, -4000000.0], "target": [10000010.0, 500.0, -4000000.0]}]})",
                                     "geo");
    for (int i = 0; i <= 10; ++i) {
        float t = 0.1f * float(i);
        engine::CameraPose pose = p.pose(t);
        const double s = double(t);  // one shot of two keyframes: a straight line at constant speed
        EXPECT_NEAR(pose.position.x - 1e7, 0.01 * s, 1e-6) << "t = " << t;
        EXPECT_NEAR(pose.position.y - 500.0, 0.002 * s, 1e-6) << "t = " << t;
        // The view of consecutive poses: the target stays at the image centre.
        engine::CameraMatrices m = engine::cameraMatrices(pose, 64, 40, glm::vec2(0), pose.target);
        glm::vec4 clip = m.viewProj * glm::vec4(0, 0, 0, 1);
        EXPECT_NEAR(clip.x / clip.w, 0.0f, 1e-5f);
        EXPECT_NEAR(clip.y / clip.w, 0.0f, 1e-5f);
    }
}

// cameraMatrices() with an origin: the same image of the same relative geometry wherever it is.
TEST(CameraPath, MatricesAreCameraRelative) {
    engine::CameraPose near;
    near.position = {0.3, 0.2, 1.2};
    near.target = {0.0, 0.1, 0.0};
    engine::CameraMatrices reference = engine::cameraMatrices(near, 64, 40, glm::vec2(0.25f, -0.5f));
    for (double offset : {1e5, 1e6, 1e7, 1e9}) {
        engine::CameraPose far = near;
        far.position += glm::dvec3(offset, -offset, 0.5 * offset);
        far.target += glm::dvec3(offset, -offset, 0.5 * offset);
        engine::CameraMatrices m = engine::cameraMatrices(far, 64, 40, glm::vec2(0.25f, -0.5f), glm::dvec3(offset, -offset, 0.5 * offset));
        for (int c = 0; c < 4; ++c) {
            for (int r = 0; r < 4; ++r) EXPECT_NEAR(m.viewProj[c][r], reference.viewProj[c][r], 1e-6f) << offset;
            for (int r = 0; r < 4; ++r) EXPECT_NEAR(m.invViewProj[c][r], reference.invViewProj[c][r], 1e-4f) << offset;
        }
        expectNear(m.position, reference.position, 1e-6f);
    }
}

TEST(CameraPathFile, UnknownFieldsAreNamedWarningsNotErrors) {
    // A file written for another tool, or with a misspelt field: it plays, and each unknown field
    // is named once, at the first keyframe that has it.
    CameraPath p = CameraPath::parse(R"({"fps": 30, "keyframes": [
        {"time": 0, "position": [0, 2, 10], "target": [0, 1, 0], "up": [0, 1, 0]},
        {"time": 1, "position": [1, 2, 10], "target": [0, 1, 0], "up": [0, 1, 0], "fov": 40},
        {"time": 2, "position": [2, 2, 10], "target": [0, 1, 0], "up": [0, 1, 0], "fov": 40}]})",
                                     "other_tool.json");
    ASSERT_EQ(p.keyframes().size(), 3u);
    EXPECT_EQ(p.keyframes()[1].fovYDegrees, 60.0f);  // the misspelt "fov" did not set it
    ASSERT_EQ(p.warnings().size(), 3u);
    EXPECT_EQ(p.warnings()[0], "unknown field 'fps' ignored (expected keyframes, name, near, far)");
    EXPECT_EQ(p.warnings()[1], "keyframes[0]: unknown field 'up' ignored (expected time, position, target, fov_y_deg, cut)");
    EXPECT_EQ(p.warnings()[2], "keyframes[1]: unknown field 'fov' ignored (expected time, position, target, fov_y_deg, cut)");
    // A clean file has none, and neither do the other kinds of path.
    EXPECT_TRUE(CameraPath::parse(R"({"keyframes": [{"time": 0, "position": [0, 2, 10], "target": [0, 1, 0]}]})", "p").warnings().empty());
    EXPECT_TRUE(CameraPath::builtIn(0).warnings().empty());
    // Thousands of distinct unknown fields keep at most kMaxCameraPathWarnings lines.
    std::string many = R"({"keyframes": [{"time": 0, "position": [0, 2, 10], "target": [0, 1, 0])";
    for (int i = 0; i < 1000; ++i) many += ", \"x" + std::to_string(i) + "\": 1";
    many += "}]}";
    EXPECT_EQ(CameraPath::parse(many, "p").warnings().size(), engine::kMaxCameraPathWarnings);
}

TEST(CameraPathFile, CapsFileSizeAndKeyframeCount) {
    // Too many keyframes (under the size cap).
    std::string many = "{\"keyframes\": [";
    for (uint32_t i = 0; i <= engine::kMaxCameraKeyframes; ++i)
        many += (i ? "," : "") + std::string("{\"time\":") + std::to_string(i) + ",\"position\":[0,1,1],\"target\":[0,0,0]}";
    many += "]}";
    ASSERT_LT(many.size(), engine::kMaxCameraPathFileBytes);
    expectFileError(many, "keyframes: 10001 keyframes exceed the limit of 10000");
    // Too large a file: rejected before it is parsed.
    std::string huge = "{\"keyframes\": [], \"name\": \"" + std::string(engine::kMaxCameraPathFileBytes, 'x') + "\"}";
    expectFileError(huge, "the file has 1048605 bytes, more than the limit of 1048576");
    expectError([] { CameraPath::load("/nonexistent/vkml/path.json"); }, "camera path '/nonexistent/vkml/path.json': cannot read the file");
}

}  // namespace
