// Fuzz target: glTF files (engine/gltf.h: loadGltfScene, tinygltf behind a sandbox, then the
// converter's validation, texture decoding and mip generation). The input is written as the
// model file of a scratch folder that also holds one small external buffer and image, so
// external URIs can resolve inside the folder (and must be refused outside it). Limits are
// lowered so that each input stays fast; the checks are the same at any limit.
//
// Beyond engine::Error for bad input, an accepted scene must be drawable: every index refers to
// a vertex, every draw range lies inside the index buffer and names a material, every texture
// index is valid and every mip level holds its pixels.
#include "engine/error.h"
#include "engine/gltf.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
    std::abort();
}

void writeFile(const fs::path& path, const void* data, size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), std::streamsize(size));
    if (!out) fail("cannot write " + path.string());
}

// Removes the scratch folder when the process exits normally.
struct ScratchFolder {
    fs::path path;
    ~ScratchFolder() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

// The scratch folder, made once per process: model.gltf (rewritten per input), ext.bin (a
// triangle's positions) and ext.png (a 1x1 RGBA image).
const fs::path& folder() {
    static const ScratchFolder dir{[] {
        // tmpfs where there is one: the model file is rewritten for every input.
        std::error_code ec;
        fs::path base = fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
        fs::path d = base / ("vkml_fuzz_gltf_" + std::to_string(getpid()));
        fs::create_directories(d);
        const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        writeFile(d / "ext.bin", triangle, sizeof triangle);
        static const uint8_t png[] = {0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00,
                                      0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00,
                                      0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05,
                                      0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42,
                                      0x60, 0x82};
        writeFile(d / "ext.png", png, sizeof png);
        return d;
    }()};
    return dir.path;
}

void checkScene(const engine::SceneGeometry& s) {
    for (uint32_t i : s.indices)
        if (i >= s.vertices.size()) fail("index " + std::to_string(i) + " past " + std::to_string(s.vertices.size()) + " vertices");
    uint64_t covered = 0;
    for (const engine::DrawRange& d : s.draws) {
        if (uint64_t(d.firstIndex) + d.indexCount > s.indices.size()) fail("draw range past the index buffer");
        if (d.material >= s.materials.size()) fail("draw with material " + std::to_string(d.material));
        covered += d.indexCount;
    }
    if (covered != s.indices.size()) fail("draw ranges do not cover every index exactly once");
    for (const engine::SceneMaterial& m : s.materials)
        if (m.baseColorTexture < -1 || m.baseColorTexture >= int32_t(s.textures.size())) fail("material with texture " + std::to_string(m.baseColorTexture));
    for (const engine::SceneTexture& t : s.textures) {
        if (t.width == 0 || t.height == 0 || t.levels.empty()) fail("empty texture '" + t.name + "'");
        for (size_t l = 0; l < t.levels.size(); ++l) {
            size_t w = std::max<size_t>(1, t.width >> l), h = std::max<size_t>(1, t.height >> l);
            if (t.levels[l].size() != w * h * 4) fail("texture '" + t.name + "' level " + std::to_string(l) + " has the wrong size");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    fs::path model = folder() / "model.gltf";
    writeFile(model, data, size);
    engine::GltfLimits limits;
    limits.maxFileBytes = 1 << 20;
    limits.maxTotalBytes = 2 << 20;
    limits.maxJsonBytes = 1 << 20;
    limits.maxVertices = 1 << 16;
    limits.maxIndices = 1 << 18;
    limits.maxTextureSize = 256;
    limits.maxTextureTexels = 1 << 16;
    limits.maxTextures = 16;
    try {
        checkScene(engine::loadGltfScene(model.string(), limits));
    } catch (const engine::Error&) {
    }
    return 0;
}
