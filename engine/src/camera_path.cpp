#include "engine/camera_path.h"

#include "engine/error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>

namespace engine {
namespace {

constexpr float kTwoPi = 6.28318530718f;
constexpr float kOrbitPeriodSeconds = 40.0f;
constexpr float kOrbitFovDegrees = 50.0f;
constexpr float kOrbitElevation = 0.436332f;  // 25 degrees

bool finite(glm::dvec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool validBox(glm::dvec3 lo, glm::dvec3 hi) { return finite(lo) && finite(hi) && !glm::any(glm::greaterThan(lo, hi)); }

// A number as a person wrote it ("2", "0.001", "1e-07"), not std::to_string's fixed six decimals,
// which print 1e-7 as "0.000000".
std::string number(double v, int digits = 7) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    return text;
}

// The first coordinate of `v` that is not finite or beyond kMaxCameraCoordinate, or "".
std::string coordinateProblem(glm::dvec3 v) {
    for (int c = 0; c < 3; ++c) {
        if (!std::isfinite(v[c])) return "must be finite";
        if (std::fabs(v[c]) > kMaxCameraCoordinate)
            return "coordinate " + number(v[c], 10) + " is beyond " + number(kMaxCameraCoordinate) + " m";
    }
    return "";
}

void validateKeyframes(const std::vector<CameraKeyframe>& keys, const std::string& what, float zNear, float zFar) {
    auto fail = [&](const std::string& msg) { throw Error("camera path '" + what + "': " + msg); };
    if (keys.empty()) fail("keyframes: needs at least one keyframe");
    if (keys.size() > kMaxCameraKeyframes)
        fail("keyframes: " + std::to_string(keys.size()) + " keyframes exceed the limit of " + std::to_string(kMaxCameraKeyframes));
    if (!(zNear > 0.0f && std::isfinite(zNear))) fail("near: " + number(zNear) + " is not a positive number");
    if (!(zFar > zNear && std::isfinite(zFar))) fail("far: " + number(zFar) + " is not larger than near (" + number(zNear) + ")");
    for (size_t i = 0; i < keys.size(); ++i) {
        const CameraKeyframe& k = keys[i];
        std::string at = "keyframes[" + std::to_string(i) + "]";
        if (!std::isfinite(k.time)) fail(at + ".time: must be a finite number");
        if (i > 0 && !(k.time > keys[i - 1].time))
            fail(at + ".time: " + number(k.time) + " does not increase strictly (previous keyframe at " + number(keys[i - 1].time) + ")");
        if (std::string problem = coordinateProblem(k.position); !problem.empty()) fail(at + ".position: " + problem);
        if (std::string problem = coordinateProblem(k.target); !problem.empty()) fail(at + ".target: " + problem);
        // Distinct at the positions' own precision (a camera 1e6 m out still needs a direction).
        const double len = glm::length(k.target - k.position);
        const double scale = std::max({1.0, glm::length(k.position), glm::length(k.target)});
        if (!(len > 1e-12 * scale)) fail(at + ": position and target are the same point");
        if (!(k.fovYDegrees > 0.0f && k.fovYDegrees < 180.0f)) fail(at + ".fov_y_deg: " + number(k.fovYDegrees) + " is not in (0, 180)");
    }
}

// Tangents (units per second) of a time-parameterised Catmull-Rom spline: central differences
// inside a shot, one-sided at its first and last keyframe. A cut keyframe starts a new shot.
glm::dvec3 tangent(const std::vector<CameraKeyframe>& keys, size_t k, glm::dvec3 CameraKeyframe::*field) {
    bool hasPrev = k > 0 && !keys[k].cut;
    bool hasNext = k + 1 < keys.size() && !keys[k + 1].cut;
    size_t a = hasPrev ? k - 1 : k, b = hasNext ? k + 1 : k;
    if (a == b) return glm::dvec3(0.0);
    return (keys[b].*field - keys[a].*field) / double(keys[b].time - keys[a].time);
}

// In double: keyframes 1e6 m out keep sub-millimetre steps between frames.
glm::dvec3 hermite(glm::dvec3 p0, glm::dvec3 m0, glm::dvec3 p1, glm::dvec3 m1, double h, double s) {
    double s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * h * m0 + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * h * m1;
}

glm::dvec3 readVec3(const nlohmann::json& j, const std::string& field, const std::string& fail) {
    if (!j.is_array() || j.size() != 3 || !std::all_of(j.begin(), j.end(), [](const nlohmann::json& v) { return v.is_number(); }))
        throw Error(fail + field + ": expected an array of 3 numbers");
    return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()};
}

float readNumber(const nlohmann::json& j, const std::string& field, const std::string& fail) {
    if (!j.is_number()) throw Error(fail + field + ": expected a number");
    float v = j.get<float>();
    if (!std::isfinite(v)) throw Error(fail + field + ": " + j.dump() + " is out of the float range");
    return v;
}

// Fields this format does not know are ignored and named in `warnings`, once per field (the first
// keyframe that has it stands for the rest): a file written for another tool (an "up" vector, a
// frame rate) still plays, and a misspelt field is reported rather than dropped silently.
struct UnknownFields {
    std::vector<std::string> warnings;
    std::vector<std::string> seen;  // "scope/field"

    void check(const nlohmann::json& object, std::initializer_list<const char*> known, const std::string& scope,
               const std::string& where) {
        for (const auto& item : object.items()) {
            // A plain reference, not a structured binding: clang before 16 cannot capture those.
            const std::string& key = item.key();
            if (std::any_of(known.begin(), known.end(), [&](const char* k) { return key == k; })) continue;
            std::string id = scope + "/" + key;
            if (std::find(seen.begin(), seen.end(), id) != seen.end() || warnings.size() >= kMaxCameraPathWarnings) continue;
            seen.push_back(std::move(id));
            std::string expected;
            for (const char* k : known) expected += (expected.empty() ? "" : ", ") + std::string(k);
            warnings.push_back(where + "unknown field '" + key + "' ignored (expected " + expected + ")");
        }
    }
};

CameraKeyframe readKeyframe(const nlohmann::json& j, size_t index, const std::string& fail, UnknownFields& unknown) {
    std::string at = "keyframes[" + std::to_string(index) + "]";
    if (!j.is_object()) throw Error(fail + at + ": expected an object");
    unknown.check(j, {"time", "position", "target", "fov_y_deg", "cut"}, "keyframes", at + ": ");
    for (const char* required : {"time", "position", "target"})
        if (!j.contains(required)) throw Error(fail + at + "." + required + ": missing");
    CameraKeyframe k;
    k.time = readNumber(j["time"], at + ".time", fail);
    k.position = readVec3(j["position"], at + ".position", fail);
    k.target = readVec3(j["target"], at + ".target", fail);
    if (j.contains("fov_y_deg")) k.fovYDegrees = readNumber(j["fov_y_deg"], at + ".fov_y_deg", fail);
    if (j.contains("cut")) {
        if (!j["cut"].is_boolean()) throw Error(fail + at + ".cut: expected true or false");
        k.cut = j["cut"].get<bool>();
    }
    return k;
}

}  // namespace

CameraPath::CameraPath() : name_(cameraPathName(0)) {}

CameraPath CameraPath::builtIn(uint32_t index) {
    if (index >= cameraPathCount())
        throw Error("camera path " + std::to_string(index) + " does not exist (0.." + std::to_string(cameraPathCount() - 1) + ")");
    CameraPath p;
    p.kind_ = Kind::BuiltIn;
    p.builtIn_ = index;
    p.name_ = cameraPathName(index);
    return p;
}

CameraPath CameraPath::keyframed(std::vector<CameraKeyframe> keyframes, std::string name, float zNear, float zFar) {
    validateKeyframes(keyframes, name, zNear, zFar);
    CameraPath p;
    p.kind_ = Kind::Keyframed;
    p.keys_ = std::move(keyframes);
    p.name_ = std::move(name);
    p.zNear_ = zNear;
    p.zFar_ = zFar;
    p.clipPlanesGiven_ = zNear != CameraPose{}.zNear || zFar != CameraPose{}.zFar;
    return p;
}

CameraPath CameraPath::orbitAround(glm::dvec3 boundsMin, glm::dvec3 boundsMax) {
    if (!validBox(boundsMin, boundsMax)) throw Error("automatic orbit: the scene's bounds are empty or not finite");
    CameraPath p;
    p.kind_ = Kind::Orbit;
    p.name_ = "auto_orbit";
    p.orbitCentre_ = 0.5 * (boundsMin + boundsMax);
    // Scale-free: a model in micrometres or one 100 km across gets the same framing and a
    // far/near ratio of about 10. A point (or a box too thin for the centre's precision) gets
    // a radius just above that precision, so the camera never sits on the centre.
    const double ulpScale = 1e-12 * std::max(1.0, glm::length(p.orbitCentre_));
    p.orbitRadius_ = std::max({0.5 * glm::length(boundsMax - boundsMin), 1e3 * ulpScale, 1e-9});
    const double distance = p.orbitRadius_ / std::sin(0.5 * glm::radians(double(kOrbitFovDegrees)));
    p.zNear_ = float(0.5 * (distance - p.orbitRadius_));
    p.zFar_ = float(2.0 * (distance + p.orbitRadius_));
    if (!(p.zNear_ > 0.0f) || !std::isfinite(p.zFar_))
        throw Error("automatic orbit: the scene's bounds (radius " + number(p.orbitRadius_) + " m) give no usable clip planes");
    return p;
}

CameraPath CameraPath::load(const std::string& file) {
    std::string fail = "camera path '" + file + "': ";
    std::error_code ec;
    auto size = std::filesystem::file_size(file, ec);
    if (ec) throw Error(fail + "cannot read the file: " + ec.message());
    if (size > kMaxCameraPathFileBytes)
        throw Error(fail + "the file has " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(kMaxCameraPathFileBytes));
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in && !in.eof()) throw Error(fail + "cannot read the file");
    return parse(text, file);
}

CameraPath CameraPath::parse(const std::string& text, const std::string& what) {
    std::string fail = "camera path '" + what + "': ";
    if (text.size() > kMaxCameraPathFileBytes)
        throw Error(fail + std::to_string(text.size()) + " bytes exceed the limit of " + std::to_string(kMaxCameraPathFileBytes));
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw Error(fail + "not valid JSON: " + e.what());
    }
    if (!root.is_object()) throw Error(fail + "expected a JSON object with a \"keyframes\" array");
    UnknownFields unknown;
    unknown.check(root, {"keyframes", "name", "near", "far"}, "", "");
    if (!root.contains("keyframes")) throw Error(fail + "keyframes: missing");
    const nlohmann::json& list = root["keyframes"];
    if (!list.is_array()) throw Error(fail + "keyframes: expected an array");
    if (list.size() > kMaxCameraKeyframes)
        throw Error(fail + "keyframes: " + std::to_string(list.size()) + " keyframes exceed the limit of " + std::to_string(kMaxCameraKeyframes));
    std::vector<CameraKeyframe> keys;
    keys.reserve(list.size());
    for (size_t i = 0; i < list.size(); ++i) keys.push_back(readKeyframe(list[i], i, fail, unknown));
    std::string name = what;
    if (root.contains("name")) {
        if (!root["name"].is_string()) throw Error(fail + "name: expected a string");
        name = root["name"].get<std::string>();
    }
    CameraPose defaults;
    float zNear = root.contains("near") ? readNumber(root["near"], "near", fail) : defaults.zNear;
    float zFar = root.contains("far") ? readNumber(root["far"], "far", fail) : defaults.zFar;
    validateKeyframes(keys, what, zNear, zFar);  // errors name the file, not the path's own name
    CameraPath p;
    p.kind_ = Kind::Keyframed;
    p.keys_ = std::move(keys);
    p.name_ = std::move(name);
    p.zNear_ = zNear;
    p.zFar_ = zFar;
    p.clipPlanesGiven_ = root.contains("near") || root.contains("far");
    p.warnings_ = std::move(unknown.warnings);
    return p;
}

float CameraPath::fitClipPlanesTo(glm::dvec3 boundsMin, glm::dvec3 boundsMax) {
    if (kind_ != Kind::Keyframed || !validBox(boundsMin, boundsMax)) return 1.0f;
    // Keyframes and points between them (the spline may bulge past its keyframes a little).
    constexpr int kSamplesPerSegment = 8;
    double farthest = 0.0;
    for (size_t k = 0; k < keys_.size(); ++k) {
        const int samples = k + 1 < keys_.size() ? kSamplesPerSegment : 1;
        for (int i = 0; i < samples; ++i) {
            float t = k + 1 < keys_.size() ? keys_[k].time + (keys_[k + 1].time - keys_[k].time) * float(i) / samples : keys_[k].time;
            glm::dvec3 eye = pose(t).position;
            glm::dvec3 corner = glm::mix(boundsMax, boundsMin, glm::dvec3(glm::greaterThan(glm::abs(eye - boundsMin), glm::abs(eye - boundsMax))));
            farthest = std::max(farthest, glm::distance(eye, corner));
        }
    }
    const double reach = 1.05 * farthest;  // the far plane that covers the whole scene
    if (!(reach > 0.0) || !std::isfinite(reach)) return 1.0f;
    const float oldNear = zNear_, oldFar = zFar_;
    if (!clipPlanesGiven_) {
        // Scale both defaults: out for a scene past 200 m, in for one within 2 m (there the
        // 5 cm near plane would be more than 1/40 of the way to the scene's farthest point).
        constexpr double kSmallReach = double(kCameraFar) / 100.0;
        double scale = reach > zFar_ ? reach / zFar_ : reach < kSmallReach ? reach / kSmallReach : 1.0;
        if (scale == 1.0 || !std::isfinite(float(zNear_ * scale)) || !(float(zNear_ * scale) > 0.0f)) return 1.0f;
        zNear_ = float(zNear_ * scale);
        zFar_ = float(zFar_ * scale);
        return zFar_ / oldFar;
    }
    // The file's own planes: kept unless too far apart for the depth buffer.
    if (!(zFar_ / zNear_ > kMaxClipPlaneRatio)) return 1.0f;
    if (reach < zFar_) zFar_ = std::max(float(reach), zNear_ * 2.0f);  // nothing lies beyond the scene
    if (zFar_ / zNear_ > kMaxClipPlaneRatio) zNear_ = zFar_ / kMaxClipPlaneRatio;
    if (warnings_.size() < kMaxCameraPathWarnings)
        warnings_.push_back("near " + number(oldNear) + " and far " + number(oldFar) + " are more than " + number(kMaxClipPlaneRatio) +
                            " apart, beyond the precision of the depth buffer: rendering with near " + number(zNear_) + ", far " +
                            number(zFar_) + " (the scene reaches " + number(reach) + " m from the path)");
    return zFar_ / oldFar;
}

CameraPose CameraPath::pose(float t) const {
    switch (kind_) {
    case Kind::BuiltIn: return camera(builtIn_, t);
    case Kind::Keyframed: return keyframedPose(t);
    case Kind::Orbit: break;
    }
    const double angle = double(kTwoPi) * double(t) / kOrbitPeriodSeconds;
    const double distance = orbitRadius_ / std::sin(0.5 * glm::radians(double(kOrbitFovDegrees)));
    const double elevation = kOrbitElevation;
    glm::dvec3 direction{std::cos(elevation) * std::sin(angle), std::sin(elevation), std::cos(elevation) * std::cos(angle)};
    CameraPose pose;
    pose.position = orbitCentre_ + distance * direction;
    pose.target = orbitCentre_;
    pose.fovYDegrees = kOrbitFovDegrees;
    pose.zNear = zNear_;
    pose.zFar = zFar_;
    return pose;
}

CameraPose CameraPath::keyframedPose(float t) const {
    auto poseOf = [&](const CameraKeyframe& k) {
        CameraPose p;
        p.position = k.position;
        p.target = k.target;
        p.fovYDegrees = k.fovYDegrees;
        p.zNear = zNear_;
        p.zFar = zFar_;
        return p;
    };
    if (!(t > keys_.front().time)) return poseOf(keys_.front());  // also NaN
    if (t >= keys_.back().time) return poseOf(keys_.back());
    // Segment i: keys_[i].time <= t < keys_[i + 1].time.
    size_t i = size_t(std::upper_bound(keys_.begin(), keys_.end(), t, [](float v, const CameraKeyframe& k) { return v < k.time; }) -
                      keys_.begin()) - 1;
    const CameraKeyframe &a = keys_[i], &b = keys_[i + 1];
    if (b.cut) return poseOf(a);  // hold until the cut
    const double h = double(b.time) - double(a.time), s = (double(t) - double(a.time)) / h;
    CameraPose p = poseOf(a);
    p.position = hermite(a.position, tangent(keys_, i, &CameraKeyframe::position), b.position,
                         tangent(keys_, i + 1, &CameraKeyframe::position), h, s);
    p.target = hermite(a.target, tangent(keys_, i, &CameraKeyframe::target), b.target,
                       tangent(keys_, i + 1, &CameraKeyframe::target), h, s);
    p.fovYDegrees = a.fovYDegrees + (b.fovYDegrees - a.fovYDegrees) * float(s);
    // The splines of position and target may meet between keyframes whose views differ
    // (a camera passing through the point it looks at): look along the nearer keyframe's view.
    if (!(glm::length(p.target - p.position) > 1e-12 * std::max(1.0, glm::length(p.position)))) {
        const CameraKeyframe& nearer = s < 0.5f ? a : b;
        p.target = p.position + glm::normalize(nearer.target - nearer.position);
    }
    return p;
}

bool CameraPath::cutBetween(float t0, float t1) const {
    if (!(t1 > t0)) return false;
    if (kind_ == Kind::Keyframed)
        return std::any_of(keys_.begin(), keys_.end(), [&](const CameraKeyframe& k) { return k.cut && k.time > t0 && k.time <= t1; });
    if (kind_ != Kind::BuiltIn) return false;
    float period = cameraPathWrapPeriod(builtIn_);
    if (period <= 0.0f) return false;
    // Jumps at every non-zero multiple k * period in (t0, t1].
    double first = std::floor(double(t0) / period) + 1.0, last = std::floor(double(t1) / period);
    if (last < first) return false;
    return !(first == 0.0 && last == 0.0);
}

}  // namespace engine
