#include "engine/scene.h"

#include "engine/error.h"
#include "engine/gltf.h"
#include "scene_internal.h"

#include <algorithm>

namespace engine {

gpu::SceneData defaultSceneLighting() {
    gpu::SceneData d{};
    d.counts = glm::vec4(1, 0, -1, 0);  // the sun only; no primitives, no shadowed point light
    d.skyZenith = glm::vec4(0.18f, 0.32f, 0.62f, 0);
    d.skyHorizon = glm::vec4(0.70f, 0.78f, 0.86f, 0);
    d.ambient = glm::vec4(0.10f, 0.12f, 0.16f, 0);
    d.lights[0] = {glm::vec4(glm::normalize(glm::vec3(0.45f, 0.75f, 0.3f)), float(gpu::LIGHT_DIRECTIONAL)),
                   glm::vec4(3.0f, 2.8f, 2.5f, 0.05f)};
    return d;
}

void buildDrawRanges(SceneGeometry& g, const std::vector<std::vector<uint32_t>>& trianglesByMaterial) {
    g.indices.clear();
    g.draws.clear();
    for (bool masked : {false, true}) {
        for (uint32_t m = 0; m < trianglesByMaterial.size(); ++m) {
            const std::vector<uint32_t>& tris = trianglesByMaterial[m];
            if (tris.empty() || g.materials.at(m).alphaMask != masked) continue;
            g.draws.push_back({uint32_t(g.indices.size()), uint32_t(tris.size()), m});
            g.indices.insert(g.indices.end(), tris.begin(), tris.end());
        }
    }
}

void computeBounds(SceneGeometry& g) {
    if (g.vertices.empty()) {
        g.boundsMin = g.boundsMax = g.origin;
        return;
    }
    glm::vec3 lo = g.vertices.front().position, hi = lo;
    for (const Vertex& v : g.vertices) {
        lo = glm::min(lo, v.position);
        hi = glm::max(hi, v.position);
    }
    g.boundsMin = g.origin + glm::dvec3(lo);
    g.boundsMax = g.origin + glm::dvec3(hi);
}

std::shared_ptr<const SceneGeometry> loadScene(const SceneDesc& desc) {
    if (!desc.gltfPath.empty()) return std::make_shared<const SceneGeometry>(loadGltfScene(desc.gltfPath));
    return std::make_shared<const SceneGeometry>(buildDemoScene(desc.seed));
}

}  // namespace engine
