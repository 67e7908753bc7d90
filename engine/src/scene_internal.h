#pragma once
// Helpers shared by the scene builders (procedural scene, glTF loader).
#include "engine/scene.h"

#include <vector>

namespace engine {

// The lighting environment shared by every scene kind (seed 0's sun, sky and ambient), without
// point lights or shadow primitives.
gpu::SceneData defaultSceneLighting();

// Fills g.indices and g.draws from triangles grouped by material (trianglesByMaterial[m] holds
// the vertex indices of material m's triangles): one draw per non-empty group, opaque
// materials first, then alpha-masked ones. g.materials must be complete.
void buildDrawRanges(SceneGeometry& g, const std::vector<std::vector<uint32_t>>& trianglesByMaterial);

// Sets boundsMin/boundsMax from the vertices (a zero box when there are none).
void computeBounds(SceneGeometry& g);

}  // namespace engine
