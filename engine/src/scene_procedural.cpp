// The procedural demo scene: seed 0 (the classic layout) and seeded variations of it.
#include "engine/scene.h"

#include "engine/error.h"
#include "scene_internal.h"

#include <algorithm>
#include <cmath>

namespace engine {
namespace {

using glm::vec2;
using glm::vec3;
using glm::vec4;

constexpr float kPi = 3.14159265359f;

uint32_t rgba(float r, float g, float b) {
    auto c = [](float v) { return uint32_t(std::lround(std::fmin(std::fmax(v, 0.0f), 1.0f) * 255.0f)); };
    return c(r) | c(g) << 8 | c(b) << 16 | 255u << 24;
}

class MeshBuilder {
public:
    explicit MeshBuilder(SceneGeometry& g) : g_(g) {}

    uint32_t vertex(vec3 p, vec3 n, vec2 uv, uint32_t material, uint32_t color) {
        g_.vertices.push_back({p, n, uv, material, color});
        return uint32_t(g_.vertices.size() - 1);
    }
    void quad(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {  // counter-clockwise a b c d
        g_.indices.insert(g_.indices.end(), {a, b, c, a, c, d});
    }

    // A flat rectangle spanned by `u` and `v` around `centre`, facing u x v.
    void rectangle(vec3 centre, vec3 u, vec3 v, vec2 uvScale, uint32_t material, uint32_t color) {
        vec3 n = glm::normalize(glm::cross(u, v));
        uint32_t a = vertex(centre - u - v, n, vec2(0, uvScale.y), material, color);
        uint32_t b = vertex(centre + u - v, n, vec2(uvScale.x, uvScale.y), material, color);
        uint32_t c = vertex(centre + u + v, n, vec2(uvScale.x, 0), material, color);
        uint32_t d = vertex(centre - u + v, n, vec2(0, 0), material, color);
        quad(a, b, c, d);
    }

    // `patternScale` multiplies the pattern frequency (seeded scenes vary it; 1 in seed 0).
    void box(vec3 centre, vec3 half, float rotY, uint32_t material, uint32_t color, float patternScale = 1.0f) {
        vec3 ax{std::cos(rotY), 0, -std::sin(rotY)}, ay{0, 1, 0}, az{std::sin(rotY), 0, std::cos(rotY)};
        vec3 axes[3] = {ax * half.x, ay * half.y, az * half.z};
        // Text faces use one uv unit per glyph cell; other materials one unit per metre.
        float cell = (material == gpu::MATERIAL_TEXT ? 4.0f : 1.0f) * patternScale;
        for (int axis = 0; axis < 3; ++axis) {
            for (float sign : {1.0f, -1.0f}) {
                vec3 n = axes[axis] * sign;
                vec3 u = axes[(axis + 1) % 3], v = axes[(axis + 2) % 3];
                if (sign < 0) std::swap(u, v);
                if (axis == 1) std::swap(u, v);  // keep glyph rows horizontal on side faces
                vec2 scale{2.0f * glm::length(u) * cell, 2.0f * glm::length(v) * cell};
                rectangle(centre + n, u, v, scale, material, color);
            }
        }
    }

    void sphere(vec3 centre, float radius, uint32_t material, uint32_t color, float patternScale = 1.0f) {
        const int rings = 24, segments = 48;
        uint32_t base = uint32_t(g_.vertices.size());
        for (int r = 0; r <= rings; ++r) {
            float theta = kPi * float(r) / rings;
            for (int s = 0; s <= segments; ++s) {
                float phi = 2.0f * kPi * float(s) / segments;
                vec3 n{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
                vec2 uv = patternScale * vec2(float(s) / segments * 2.0f * kPi * radius, float(r) / rings * kPi * radius);
                vertex(centre + radius * n, n, uv, material, color);
            }
        }
        for (int r = 0; r < rings; ++r)
            for (int s = 0; s < segments; ++s) {
                uint32_t a = base + uint32_t(r * (segments + 1) + s), b = a + segments + 1;
                quad(a, a + 1, b + 1, b);
            }
    }

    // An open cylinder: thin wires show no caps at any distance that matters.
    void cylinder(vec3 p0, vec3 p1, float radius, uint32_t material, uint32_t color) {
        const int sides = 8;
        vec3 axis = glm::normalize(p1 - p0);
        vec3 helper = std::fabs(axis.y) < 0.9f ? vec3(0, 1, 0) : vec3(1, 0, 0);
        vec3 t = glm::normalize(glm::cross(axis, helper)), b = glm::cross(axis, t);
        float len = glm::length(p1 - p0);
        uint32_t base = uint32_t(g_.vertices.size());
        for (int s = 0; s <= sides; ++s) {
            float phi = 2.0f * kPi * float(s) / sides;
            vec3 n = std::cos(phi) * t + std::sin(phi) * b;
            vertex(p0 + radius * n, n, vec2(float(s) / sides, 0), material, color);
            vertex(p1 + radius * n, n, vec2(float(s) / sides, len), material, color);
        }
        for (int s = 0; s < sides; ++s) {
            uint32_t a = base + uint32_t(2 * s);
            quad(a, a + 2, a + 3, a + 1);
        }
    }

private:
    SceneGeometry& g_;
};

struct Fence {
    vec3 start, end;
    float wireRadius, height, postSpacing;
    int rails;
};

// Mirrors sdFence in lighting.comp: posts every postSpacing from start, rails evenly up to height.
void tessellateFence(MeshBuilder& mesh, const Fence& f, uint32_t color) {
    vec3 dir = f.end - f.start;
    float length = glm::length(dir);
    dir /= length;
    int posts = int(std::floor(length / f.postSpacing)) + 1;
    for (int k = 0; k < posts; ++k) {
        vec3 base = f.start + dir * (float(k) * f.postSpacing);
        mesh.cylinder(base, base + vec3(0, f.height, 0), f.wireRadius, gpu::MATERIAL_WIRE, color);
    }
    for (int j = 0; j < f.rails; ++j) {
        vec3 up{0, f.height * float(j + 1) / float(f.rails), 0};
        mesh.cylinder(f.start + up, f.end + up, f.wireRadius, gpu::MATERIAL_WIRE, color);
    }
}

vec4 boundingSphere(const gpu::Primitive& p) {
    switch (uint32_t(p.p0.w)) {
    case gpu::PRIM_SPHERE: return vec4(vec3(p.p0), p.p1.w);
    case gpu::PRIM_BOX: return vec4(vec3(p.p0), glm::length(vec3(p.p1)));
    case gpu::PRIM_CAPSULE: return vec4(0.5f * (vec3(p.p0) + vec3(p.p1)), 0.5f * glm::distance(vec3(p.p0), vec3(p.p1)) + p.p1.w);
    default: {  // fence: the box spanned by its two ends and its height
        vec3 halfDiagonal = 0.5f * (vec3(p.p1) - vec3(p.p0)) + vec3(0, 0.5f * p.p2.x, 0);
        return vec4(vec3(p.p0) + halfDiagonal, glm::length(halfDiagonal) + p.p1.w);
    }
    }
}

class SceneBuilder {
public:
    explicit SceneBuilder(SceneGeometry& g) : g_(g), mesh_(g) {}

    void sphere(vec3 c, float r, uint32_t material, uint32_t color, float patternScale = 1.0f) {
        add({vec4(c, float(gpu::PRIM_SPHERE)), vec4(0, 0, 0, r), vec4(0), vec4(0)});
        mesh_.sphere(c, r, material, color, patternScale);
    }
    void box(vec3 c, vec3 half, float rotY, uint32_t material, uint32_t color, float patternScale = 1.0f) {
        add({vec4(c, float(gpu::PRIM_BOX)), vec4(half, 0), vec4(rotY, 0, 0, 0), vec4(0)});
        mesh_.box(c, half, rotY, material, color, patternScale);
    }
    void wire(vec3 a, vec3 b, float r, uint32_t material, uint32_t color) {
        add({vec4(a, float(gpu::PRIM_CAPSULE)), vec4(b, r), vec4(0), vec4(0)});
        mesh_.cylinder(a, b, r, material, color);
    }
    void fence(const Fence& f, uint32_t color) {
        add({vec4(f.start, float(gpu::PRIM_FENCE)), vec4(f.end, f.wireRadius), vec4(f.height, f.postSpacing, float(f.rails), 0), vec4(0)});
        tessellateFence(mesh_, f, color);
    }
    void light(vec3 positionOrDirection, uint32_t type, vec3 color, float w) {
        auto& d = g_.data;
        uint32_t n = uint32_t(d.counts.x);
        if (n >= gpu::MAX_LIGHTS) throw Error("demo scene: more than MAX_LIGHTS lights");
        d.lights[n] = {vec4(positionOrDirection, float(type)), vec4(color, w)};
        d.counts.x = float(n + 1);
    }
    MeshBuilder& mesh() { return mesh_; }

private:
    void add(gpu::Primitive p) {
        p.bounds = boundingSphere(p);
        auto& d = g_.data;
        uint32_t n = uint32_t(d.counts.y);
        if (n >= gpu::MAX_PRIMITIVES) throw Error("demo scene: more than MAX_PRIMITIVES primitives");
        d.primitives[n] = p;
        d.counts.y = float(n + 1);
    }
    SceneGeometry& g_;
    MeshBuilder mesh_;
};

// Highest point of any primitive: shadow rays above it cannot hit anything.
float occluderTop(const gpu::SceneData& d) {
    float top = 0;
    for (uint32_t i = 0; i < uint32_t(d.counts.y); ++i) {
        const gpu::Primitive& p = d.primitives[i];
        switch (uint32_t(p.p0.w)) {
        case gpu::PRIM_SPHERE: top = std::fmax(top, p.p0.y + p.p1.w); break;
        case gpu::PRIM_BOX: top = std::fmax(top, p.p0.y + p.p1.y); break;  // rotated about y only
        case gpu::PRIM_CAPSULE: top = std::fmax(top, std::fmax(p.p0.y, p.p1.y) + p.p1.w); break;
        default: top = std::fmax(top, p.p0.y + p.p2.x + p.p1.w); break;  // fence: height + wire
        }
    }
    return top;
}

// Seed 0: the classic scene (goldens and the named camera paths were made for it).
void buildClassicScene(SceneGeometry& g) {
    g.data.counts = vec4(0, 0, 0, 0);
    g.data.skyZenith = vec4(0.18f, 0.32f, 0.62f, 0);
    g.data.skyHorizon = vec4(0.70f, 0.78f, 0.86f, 0);
    g.data.ambient = vec4(0.10f, 0.12f, 0.16f, 0);
    SceneBuilder s(g);
    using namespace gpu;
    // Ground: not an occluder (nothing lies below it), so it is mesh only.
    s.mesh().rectangle(vec3(0), vec3(40, 0, 0), vec3(0, 0, -40), vec2(80, 80), MATERIAL_GROUND, rgba(0.8f, 0.8f, 0.78f));

    s.box(vec3(0, 1.6f, -6), vec3(4.0f, 1.6f, 0.15f), 0, MATERIAL_TEXT, rgba(0.95f, 0.93f, 0.85f));
    s.box(vec3(-6, 0.75f, -4), vec3(0.75f), 0.5f, MATERIAL_STRIPES, rgba(0.85f, 0.25f, 0.2f));
    s.box(vec3(-3, 0.5f, 5.5f), vec3(1.5f, 0.5f, 0.5f), -0.3f, MATERIAL_PAINT, rgba(0.2f, 0.35f, 0.8f));
    s.box(vec3(3, 1.0f, -1), vec3(0.5f, 1.0f, 0.5f), 0.8f, MATERIAL_STRIPES, rgba(0.9f, 0.8f, 0.2f));
    s.box(vec3(-7.5f, 0.4f, 6), vec3(0.4f), 0.2f, MATERIAL_TEXT, rgba(0.9f, 0.9f, 0.9f));

    s.sphere(vec3(5, 0.9f, -3.5f), 0.9f, MATERIAL_METAL, rgba(1.0f, 0.78f, 0.35f));
    s.sphere(vec3(7.2f, 0.6f, -2.8f), 0.6f, MATERIAL_METAL, rgba(0.95f, 0.95f, 0.95f));
    s.sphere(vec3(6.3f, 0.4f, -5), 0.4f, MATERIAL_PAINT, rgba(0.8f, 0.1f, 0.1f));
    s.sphere(vec3(-4, 0.7f, -1), 0.7f, MATERIAL_STRIPES, rgba(0.2f, 0.7f, 0.3f));

    // A post-and-rail fence, a dense wire grid and a power line: geometry thinner than a pixel
    // at most render resolutions, the classic upscaler failure case.
    s.fence({vec3(-10, 0, 2.5f), vec3(-1, 0, 2.5f), 0.03f, 1.4f, 0.35f, 3}, rgba(0.35f, 0.3f, 0.25f));
    s.fence({vec3(1.5f, 0, 4.5f), vec3(9, 0, 1.5f), 0.012f, 2.2f, 0.14f, 16}, rgba(0.6f, 0.6f, 0.62f));
    s.wire(vec3(-9, 0, -3), vec3(-9, 5, -3), 0.09f, MATERIAL_WIRE, rgba(0.4f, 0.3f, 0.2f));
    s.wire(vec3(9, 0, -9), vec3(9, 5, -9), 0.09f, MATERIAL_WIRE, rgba(0.4f, 0.3f, 0.2f));
    for (int k = 0; k < 3; ++k) {
        float y = 4.6f - 0.25f * float(k);
        s.wire(vec3(-9, y, -3), vec3(9, y, -9), 0.015f, MATERIAL_WIRE, rgba(0.1f, 0.1f, 0.1f));
    }

    s.light(glm::normalize(vec3(0.45f, 0.75f, 0.3f)), LIGHT_DIRECTIONAL, vec3(3.0f, 2.8f, 2.5f), 0.05f);
    s.light(vec3(2, 2.5f, 1), LIGHT_POINT, vec3(6.0f, 3.0f, 1.0f), 10.0f);
    s.light(vec3(-5, 2, 0), LIGHT_POINT, vec3(1.0f, 2.0f, 6.0f), 9.0f);
    s.light(vec3(6, 1.5f, -1.5f), LIGHT_POINT, vec3(5.0f, 1.0f, 4.0f), 7.0f);
    s.light(vec3(0, 3.2f, -3.8f), LIGHT_POINT, vec3(3.0f, 3.0f, 3.0f), 8.0f);
    g.data.counts.z = 1;  // the orange point light casts shadows too
    g.data.counts.w = occluderTop(g.data) + 0.01f;
}


// Deterministic on every platform (std:: distributions are not): splitmix64.
class Rng {
public:
    explicit Rng(uint32_t seed) : state_(0x853C49E6748FEA9Bull ^ (uint64_t(seed) * 0x9E3779B97F4A7C15ull)) {}
    uint32_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return uint32_t((z ^ (z >> 31)) >> 32);
    }
    float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 8) * (1.0f / 16777216.0f); }
    int range(int lo, int hi) { return lo + int(next() % uint32_t(hi - lo + 1)); }  // inclusive
    bool chance(float p) { return uniform(0.0f, 1.0f) < p; }

private:
    uint64_t state_;
};

vec3 hsv(float h, float s, float v) {
    vec3 k = glm::clamp(glm::abs(glm::mod(h * 6.0f + vec3(0, 4, 2), 6.0f) - 3.0f) - 1.0f, 0.0f, 1.0f);
    return v * glm::mix(vec3(1.0f), k, s);
}
uint32_t rgba(vec3 c) { return rgba(c.r, c.g, c.b); }

// Ground footprints already taken (x, z, radius), so objects do not pile into each other.
class Footprints {
public:
    bool free(vec2 p, float r) const {
        return std::none_of(taken_.begin(), taken_.end(), [&](const vec3& t) { return glm::distance(p, vec2(t)) < r + t.z; });
    }
    void take(vec2 p, float r) { taken_.push_back(vec3(p, r)); }
    // A free spot in the box [lo, hi] (x, z), or none after a bounded number of tries.
    bool place(Rng& rng, vec2 lo, vec2 hi, float r, vec2& out) {
        for (int attempt = 0; attempt < 64; ++attempt) {
            vec2 p{rng.uniform(lo.x, hi.x), rng.uniform(lo.y, hi.y)};
            if (free(p, r)) {
                take(p, r);
                out = p;
                return true;
            }
        }
        return false;
    }

private:
    std::vector<vec3> taken_;
};

// Seeds != 0: the landmarks the named camera paths look at stay where they are (a text panel
// near (0, 2, -6), a cluster of spheres near (6, 1, -3.5), fences and wires across the middle),
// while everything else varies: colours, pattern scales, sizes, object count and placement,
// fence geometry (wire radius, spacing, rails), power lines, sun direction and point lights.
void buildSeededScene(SceneGeometry& g, uint32_t seed) {
    using namespace gpu;
    Rng rng(seed);
    auto vary = [&](vec3 c, float amount) { return glm::clamp(c * vec3(rng.uniform(1 - amount, 1 + amount), rng.uniform(1 - amount, 1 + amount), rng.uniform(1 - amount, 1 + amount)), 0.0f, 1.0f); };
    g.data.counts = vec4(0, 0, 0, 0);
    g.data.skyZenith = vec4(vary(vec3(0.18f, 0.32f, 0.62f), 0.2f), 0);
    g.data.skyHorizon = vec4(vary(vec3(0.70f, 0.78f, 0.86f), 0.1f), 0);
    g.data.ambient = vec4(vary(vec3(0.10f, 0.12f, 0.16f), 0.25f), 0);
    SceneBuilder s(g);
    Footprints taken;
    const vec2 areaLo{-11.0f, -10.0f}, areaHi{11.0f, 8.0f};
    const uint32_t surfaceMaterials[] = {MATERIAL_STRIPES, MATERIAL_TEXT, MATERIAL_PAINT, MATERIAL_METAL};
    auto randomMaterial = [&] { return surfaceMaterials[rng.range(0, 3)]; };
    auto randomColor = [&] { return rgba(hsv(rng.uniform(0, 1), rng.uniform(0.2f, 0.9f), rng.uniform(0.5f, 0.95f))); };

    float groundScale = rng.uniform(0.5f, 2.0f);
    s.mesh().rectangle(vec3(0), vec3(40, 0, 0), vec3(0, 0, -40), vec2(80 * groundScale), MATERIAL_GROUND,
                       rgba(vary(vec3(0.8f, 0.8f, 0.78f), 0.15f)));

    // The text panel (text_dolly looks at (0, 2, -6)).
    vec3 panelHalf{rng.uniform(2.5f, 4.5f), rng.uniform(1.0f, 2.0f), 0.15f};
    vec2 panel{rng.uniform(-0.5f, 0.5f), -6.0f + rng.uniform(-0.5f, 0.5f)};
    s.box(vec3(panel.x, panelHalf.y, panel.y), panelHalf, rng.uniform(-0.25f, 0.25f), MATERIAL_TEXT,
          rgba(hsv(rng.uniform(0, 1), rng.uniform(0.0f, 0.3f), rng.uniform(0.8f, 0.97f))), rng.uniform(0.6f, 1.6f));
    taken.take(panel, panelHalf.x);

    // The sphere cluster (spheres_pan looks at (6.5, 0.9, -3.5)).
    for (int n = rng.range(2, 5), i = 0; i < n; ++i) {
        float r = rng.uniform(0.3f, 1.0f);
        vec2 p;
        if (!taken.place(rng, vec2(4.0f, -5.5f), vec2(8.5f, -1.5f), r, p)) continue;
        uint32_t material = rng.chance(0.6f) ? MATERIAL_METAL : randomMaterial();
        s.sphere(vec3(p.x, r, p.y), r, material, randomColor(), rng.uniform(0.5f, 2.0f));
    }

    // Scattered boxes and spheres.
    for (int n = rng.range(4, 12), i = 0; i < n; ++i) {
        bool box = rng.chance(0.6f);
        vec3 half{rng.uniform(0.3f, 1.5f), rng.uniform(0.3f, 1.2f), rng.uniform(0.3f, 1.5f)};
        float radius = box ? std::sqrt(half.x * half.x + half.z * half.z) : rng.uniform(0.3f, 1.1f);
        vec2 p;
        if (!taken.place(rng, areaLo, areaHi, radius, p)) continue;
        uint32_t material = randomMaterial();
        float pattern = rng.uniform(0.5f, 2.0f);
        if (box) s.box(vec3(p.x, half.y, p.y), half, rng.uniform(0.0f, 3.14159f), material, randomColor(), pattern);
        else s.sphere(vec3(p.x, radius, p.y), radius, material, randomColor(), pattern);
    }

    // Fences across the middle (fence_walk walks along z = 7.5 looking towards -z).
    for (int n = rng.range(1, 3), i = 0; i < n; ++i) {
        Fence f;
        f.start = vec3(rng.uniform(-10.0f, 2.0f), 0, rng.uniform(0.0f, 5.0f));
        float angle = rng.uniform(-0.6f, 0.6f), length = rng.uniform(5.0f, 11.0f);
        f.end = f.start + length * vec3(std::cos(angle), 0, std::sin(angle));
        f.wireRadius = rng.uniform(0.008f, 0.04f);
        f.height = rng.uniform(1.0f, 2.5f);
        f.postSpacing = std::max(rng.uniform(0.12f, 0.5f), 6.0f * f.wireRadius);
        f.rails = rng.range(2, 16);
        s.fence(f, rgba(vary(vec3(0.5f, 0.48f, 0.45f), 0.4f)));
    }

    // Power lines: two poles and one to four wires between their tops.
    for (int n = rng.range(0, 2), i = 0; i < n; ++i) {
        vec3 a{rng.uniform(-10.0f, -4.0f), 0, rng.uniform(-9.0f, 6.0f)};
        vec3 b{rng.uniform(4.0f, 10.0f), 0, rng.uniform(-9.0f, 6.0f)};
        float height = rng.uniform(4.0f, 6.0f), poleRadius = rng.uniform(0.06f, 0.1f);
        uint32_t poleColor = rgba(vary(vec3(0.4f, 0.3f, 0.2f), 0.3f));
        s.wire(a, a + vec3(0, height, 0), poleRadius, MATERIAL_WIRE, poleColor);
        s.wire(b, b + vec3(0, height, 0), poleRadius, MATERIAL_WIRE, poleColor);
        float wireRadius = rng.uniform(0.008f, 0.02f);
        for (int wires = rng.range(1, 4), k = 0; k < wires; ++k) {
            float y = height - 0.4f - 0.25f * float(k);
            s.wire(a + vec3(0, y, 0), b + vec3(0, y, 0), wireRadius, MATERIAL_WIRE, rgba(0.1f, 0.1f, 0.1f));
        }
    }

    float elevation = rng.uniform(0.45f, 1.2f), azimuth = rng.uniform(0.0f, 6.2832f);
    vec3 sun{std::cos(elevation) * std::cos(azimuth), std::sin(elevation), std::cos(elevation) * std::sin(azimuth)};
    s.light(sun, LIGHT_DIRECTIONAL, vary(vec3(3.0f, 2.8f, 2.5f), 0.15f) * 1.0f, rng.uniform(0.03f, 0.08f));
    int points = rng.range(2, 4);
    for (int i = 0; i < points; ++i) {
        vec3 p{rng.uniform(areaLo.x, areaHi.x), rng.uniform(1.5f, 3.5f), rng.uniform(areaLo.y, areaHi.y)};
        s.light(p, LIGHT_POINT, hsv(rng.uniform(0, 1), rng.uniform(0.3f, 0.8f), rng.uniform(4.0f, 7.0f)), rng.uniform(7.0f, 10.0f));
    }
    g.data.counts.z = rng.chance(0.7f) ? float(rng.range(1, points)) : -1.0f;
    g.data.counts.w = occluderTop(g.data) + 0.01f;
}

}  // namespace

SceneGeometry buildDemoScene(uint32_t seed) {
    SceneGeometry g;
    g.name = "procedural seed " + std::to_string(seed);
    if (seed == 0) buildClassicScene(g);
    else buildSeededScene(g, seed);
    SceneMaterial procedural;
    procedural.name = "procedural";
    procedural.procedural = true;
    procedural.doubleSided = true;  // open cylinders show their inside at grazing angles
    g.materials = {procedural};
    g.draws = {{0, uint32_t(g.indices.size()), 0}};
    computeBounds(g);
    return g;
}

}  // namespace engine
