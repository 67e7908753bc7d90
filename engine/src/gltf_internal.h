#pragma once
// The glTF loader's two halves: gltf_loader.cpp reads and parses the file (tinygltf, sandboxed
// file access), gltf_convert.cpp validates the model and turns it into a SceneGeometry.
#include "engine/gltf.h"

#include <tiny_gltf.h>

#include <map>
#include <string>
#include <vector>

namespace engine::gltf {

// One warning per unsupported feature, however often it occurs.
class Warnings {
public:
    void add(const std::string& feature) { ++counts_[feature]; }
    std::vector<std::string> list() const;  // "feature (N occurrences)", sorted by feature

private:
    std::map<std::string, uint32_t> counts_;
};

// Throws engine::Error "glTF '<path>': <message>".
[[noreturn]] void fail(const std::string& path, const std::string& message);

// Whether a required extension changes how geometry or images are stored (Draco, meshopt,
// texture formats), so that the file cannot be drawn without it.
bool isStorageExtension(const std::string& name);

// Converts a parsed model. Images with a bufferView are decoded from their (validated) range;
// the others carry their encoded bytes in Image::image (the loader's image callback defers
// decoding so only base colour textures are decoded, after their size is checked).
SceneGeometry convert(const tinygltf::Model& model, const std::string& path, const GltfLimits& limits, Warnings& warnings);

}  // namespace engine::gltf
