// Procedural scene seeds: seed 0 is exactly the classic scene, other seeds differ from it and
// from each other, a seed always gives the same scene, and the SDF primitives used for
// shadows agree with the triangle mesh for every seed.
#include "engine/renderer.h"
#include "engine/scene.h"
#include "vulkan_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {

using glm::vec3;

uint64_t fnv(uint64_t h, const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

uint64_t hashOf(const engine::SceneGeometry& g) {
    uint64_t h = 14695981039346656037ull;
    h = fnv(h, g.vertices.data(), g.vertices.size() * sizeof(engine::Vertex));
    h = fnv(h, g.indices.data(), g.indices.size() * sizeof(uint32_t));
    return fnv(h, &g.data, sizeof g.data);
}

TEST(SceneSeed, SeedZeroIsTheClassicSceneByteForByte) {
    // Vertices, indices and lighting data of the scene before seeds existed (commit 998e026).
    engine::SceneGeometry g = engine::buildDemoScene(0);
    EXPECT_EQ(g.vertices.size(), 6968u);
    EXPECT_EQ(g.indices.size(), 33018u);
    EXPECT_EQ(hashOf(g), 0xa46e899b261052efull);
    EXPECT_EQ(hashOf(engine::buildDemoScene()), hashOf(g));
    ASSERT_EQ(g.draws.size(), 1u);
    EXPECT_EQ(g.draws[0].indexCount, g.indices.size());
    ASSERT_EQ(g.materials.size(), 1u);
    EXPECT_TRUE(g.materials[0].procedural);
    EXPECT_TRUE(g.textures.empty());
}

TEST(SceneSeed, SameSeedSameSceneOtherSeedsDiffer) {
    std::vector<uint64_t> hashes;
    for (uint32_t seed : {0u, 1u, 2u, 3u, 77u, 4000000000u}) {
        uint64_t h = hashOf(engine::buildDemoScene(seed));
        EXPECT_EQ(h, hashOf(engine::buildDemoScene(seed))) << "seed " << seed << " is not deterministic";
        EXPECT_EQ(std::count(hashes.begin(), hashes.end(), h), 0) << "seed " << seed << " repeats an earlier seed's scene";
        hashes.push_back(h);
    }
    // Variety beyond colours: object counts and lights differ across seeds.
    std::vector<float> primitives, lights;
    for (uint32_t seed = 1; seed <= 12; ++seed) {
        engine::SceneGeometry g = engine::buildDemoScene(seed);
        primitives.push_back(g.data.counts.y);
        lights.push_back(g.data.counts.x);
        EXPECT_LE(g.data.counts.y, float(engine::gpu::MAX_PRIMITIVES));
    }
    EXPECT_GT(*std::max_element(primitives.begin(), primitives.end()), *std::min_element(primitives.begin(), primitives.end()));
    EXPECT_GT(*std::max_element(lights.begin(), lights.end()), *std::min_element(lights.begin(), lights.end()));
}

// C++ mirror of shaders/engine/sdf.glsl, as the distance to the primitive's surface: |sd|, and
// for fences the nearer of the post and rail surfaces (the top of a post lies inside the top
// rail, where the fence's combined distance is negative).
float surfaceDistance(const engine::gpu::Primitive& prim, vec3 p) {
    vec3 p0(prim.p0), p1(prim.p1);
    switch (uint32_t(prim.p0.w)) {
    case engine::gpu::PRIM_SPHERE: return std::fabs(glm::length(p - p0) - prim.p1.w);
    case engine::gpu::PRIM_BOX: {
        vec3 q = p - p0;
        float cs = std::cos(prim.p2.x), sn = std::sin(prim.p2.x);
        q = vec3(cs * q.x - sn * q.z, q.y, sn * q.x + cs * q.z);
        vec3 d = glm::abs(q) - p1;
        return std::fabs(glm::length(glm::max(d, 0.0f)) + std::min(std::max(d.x, std::max(d.y, d.z)), 0.0f));
    }
    case engine::gpu::PRIM_CAPSULE: {
        vec3 pa = p - p0, ba = p1 - p0;
        float h = std::clamp(glm::dot(pa, ba) / glm::dot(ba, ba), 0.0f, 1.0f);
        return std::fabs(glm::length(pa - ba * h) - prim.p1.w);
    }
    default: {  // fence
        float height = prim.p2.x, spacing = prim.p2.y, rails = prim.p2.z, r = prim.p1.w;
        vec3 along = p1 - p0;
        float len = glm::length(along);
        vec3 dir = along / len, q = p - p0;
        float u = q.x * dir.x + q.z * dir.z, w = q.x * -dir.z + q.z * dir.x;
        float k = std::clamp(std::round(u / spacing), 0.0f, std::floor(len / spacing));
        float yOut = std::max(q.y - height, 0.0f) + std::min(q.y, 0.0f);
        float post = glm::length(vec3(u - k * spacing, yOut, w)) - r;
        float step = height / rails;
        float j = std::clamp(std::round(q.y / step), 1.0f, rails);
        float uOut = std::max(u - len, 0.0f) + std::min(u, 0.0f);
        float rail = glm::length(vec3(uOut, q.y - j * step, w)) - r;
        return std::min(std::fabs(post), std::fabs(rail));
    }
    }
}

TEST(SceneSeed, ShadowPrimitivesAgreeWithTheMesh) {
    for (uint32_t seed : {0u, 1u, 2u, 5u, 9u, 123u}) {
        engine::SceneGeometry g = engine::buildDemoScene(seed);
        const uint32_t n = uint32_t(g.data.counts.y);
        ASSERT_GT(n, 0u);
        std::vector<uint32_t> verticesOn(n, 0);
        size_t meshOnly = 0;
        for (const engine::Vertex& v : g.vertices) {
            if (v.material == engine::gpu::MATERIAL_GROUND) continue;  // the ground casts no shadow: mesh only
            float nearest = 1e9f;
            uint32_t which = 0;
            for (uint32_t i = 0; i < n; ++i) {
                float d = surfaceDistance(g.data.primitives[i], v.position);
                if (d < nearest) nearest = d, which = i;
            }
            if (nearest > 2e-3f) ++meshOnly;
            else ++verticesOn[which];
        }
        EXPECT_EQ(meshOnly, 0u) << "seed " << seed << ": vertices on no shadow primitive";
        for (uint32_t i = 0; i < n; ++i) EXPECT_GT(verticesOn[i], 0u) << "seed " << seed << ": primitive " << i << " has no mesh";
        // The lighting pass stops shadow rays above counts.w: nothing that casts shadows lies higher.
        float top = 0;
        for (const engine::Vertex& v : g.vertices)
            if (v.material != engine::gpu::MATERIAL_GROUND) top = std::max(top, v.position.y);
        EXPECT_GE(g.data.counts.w, top) << "seed " << seed;
    }
}

TEST(SceneSeed, SdfCheckCatchesAMovedPrimitive) {
    // The agreement test above can fail: shift one primitive and vertices fall off it.
    engine::SceneGeometry g = engine::buildDemoScene(3);
    g.data.primitives[0].p0.x += 0.05f;
    size_t off = 0;
    for (const engine::Vertex& v : g.vertices) {
        if (v.material == engine::gpu::MATERIAL_GROUND) continue;
        float nearest = 1e9f;
        for (uint32_t i = 0; i < uint32_t(g.data.counts.y); ++i) nearest = std::min(nearest, surfaceDistance(g.data.primitives[i], v.position));
        off += nearest > 2e-3f;
    }
    EXPECT_GT(off, 0u);
}

class SceneSeedRender : public testsupport::VulkanTest {};

TEST_F(SceneSeedRender, SeededScenesRenderAndDiffer) {
    engine::RendererDesc d;
    d.outputWidth = 64;
    d.outputHeight = 48;
    d.upscale = engine::UpscaleMode::Native;
    engine::FrameParams params = engine::FrameParams::onPath(0, 0, 30.0f, 2.0f);
    std::vector<engine::Image8> frames;
    for (uint32_t seed : {0u, 7u}) {
        d.scene = std::make_shared<const engine::SceneGeometry>(engine::buildDemoScene(seed));
        engine::Renderer r(ctx(), d);
        frames.push_back(engine::renderSingleFrame(ctx(), r, params).frame);
    }
    engine::Renderer classic(ctx(), [&] { auto c = d; c.scene = nullptr; return c; }());
    engine::ImageDiff same = engine::compareImages(engine::renderSingleFrame(ctx(), classic, params).frame, frames[0]);
    EXPECT_EQ(same.maxAbsDiff, 0) << "RendererDesc::scene = seed 0 must equal the default scene";
    engine::ImageDiff other = engine::compareImages(frames[0], frames[1]);
    EXPECT_GT(other.meanAbsDiff, 5.0);
}

}  // namespace
