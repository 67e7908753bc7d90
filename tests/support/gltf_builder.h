#pragma once
// Small glTF 2.0 files written by tests: the JSON is a public nlohmann::json, so malformed-file
// tests can break any field, and the binary data one buffer. The same model is written as a
// .gltf with an external .bin and image files, as a .gltf with everything in data: URIs, or as
// a .glb (images in buffer views).
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace testsupport {

// PNG and JPEG encoders (stb_image_write) for generated textures; rgba is w x h x 4.
std::vector<uint8_t> encodePng(uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba);
std::vector<uint8_t> encodeJpeg(uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba, int quality = 95);
std::string base64(const std::vector<uint8_t>& bytes);

enum class GltfStorage { ExternalFiles, DataUris, Glb };
const char* toString(GltfStorage s);

class GltfBuilder {
public:
    GltfBuilder();

    nlohmann::json json;       // asset, scenes, nodes, meshes, ... (buffers/images are added by write())
    std::vector<uint8_t> bin;  // buffer 0

    // Appends bytes (4-byte aligned) and a bufferView over them; returns the view's index.
    int addBufferView(const void* data, size_t bytes, size_t byteStride = 0);
    // An accessor over a buffer view; type "SCALAR", "VEC2", "VEC3", ...
    int addAccessor(int bufferView, int componentType, size_t count, const std::string& type, size_t byteOffset = 0,
                    bool normalized = false);
    int addPositions(const std::vector<glm::vec3>& p);  // with min/max as the spec asks
    int addNormals(const std::vector<glm::vec3>& n);
    int addUvs(const std::vector<glm::vec2>& uv);
    int addIndices(const std::vector<uint32_t>& indices, int componentType = 5125 /* UNSIGNED_INT */);

    // A mesh of one triangle primitive; attributes: {"POSITION": accessor, ...}; -1: none.
    int addMesh(const nlohmann::json& attributes, int indices = -1, int material = -1);
    int addNode(const nlohmann::json& node);  // appended to nodes; returns its index
    void addRootNode(int node);               // to scene 0
    // An image (PNG/JPEG bytes) stored as a file, data: URI or buffer view according to write().
    int addImage(const std::vector<uint8_t>& encoded, const std::string& mimeType);
    int addSampler(int magFilter, int minFilter, int wrapS, int wrapT);
    int addTexture(int image, int sampler = -1);
    // A metallic-roughness material; texture -1: none.
    int addMaterial(glm::vec4 baseColor, int texture = -1, const std::string& alphaMode = "OPAQUE", float alphaCutoff = 0.5f,
                    bool doubleSided = true, float metallic = 0.0f, float roughness = 1.0f);

    // Writes `file` (.gltf or .glb by `storage`); external files go next to it as <stem>.bin and
    // <stem>_image<N>.png|jpg. Returns the model file's path.
    std::filesystem::path write(const std::filesystem::path& file, GltfStorage storage) const;

    // A unit quad in the z = 0 plane facing +z, uv (0,0) at the top-left corner (-1, 1), with
    // normals or without, indexed or not; returns the mesh index.
    int addQuad(float halfSize, int material, bool normals = true, bool indexed = true, float uvScale = 1.0f);

private:
    struct ImageData {
        std::vector<uint8_t> bytes;
        std::string mimeType;
    };
    std::vector<ImageData> images_;
};

// A fresh empty directory under the test temp dir, named after the running test and the
// process (tests of several build trees may run at once); removed with everything in it when
// the object goes.
class ScratchDirectory {
public:
    ScratchDirectory();
    ~ScratchDirectory();
    ScratchDirectory(const ScratchDirectory&) = delete;
    ScratchDirectory& operator=(const ScratchDirectory&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

}  // namespace testsupport
