#include "gltf_builder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

// Static copies: the engine library has its own (non-static) stb_image_write.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace testsupport {
namespace {

void appendBytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<uint8_t>*>(context);
    out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
}

void writeFile(const std::filesystem::path& path, const void* data, size_t size) {
    std::ofstream f(path, std::ios::binary);
    if (!f.write(static_cast<const char*>(data), std::streamsize(size))) throw std::runtime_error("cannot write " + path.string());
}

void pad4(std::vector<uint8_t>& v, uint8_t fill) {
    while (v.size() % 4) v.push_back(fill);
}

void put32(std::vector<uint8_t>& v, uint32_t x) {
    for (int i = 0; i < 4; ++i) v.push_back(uint8_t(x >> (8 * i)));
}

}  // namespace

std::vector<uint8_t> encodePng(uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba) {
    std::vector<uint8_t> out;
    if (!stbi_write_png_to_func(appendBytes, &out, int(width), int(height), 4, rgba.data(), int(width * 4)))
        throw std::runtime_error("PNG encoding failed");
    return out;
}

std::vector<uint8_t> encodeJpeg(uint32_t width, uint32_t height, const std::vector<uint8_t>& rgba, int quality) {
    std::vector<uint8_t> out;
    if (!stbi_write_jpg_to_func(appendBytes, &out, int(width), int(height), 4, rgba.data(), quality))
        throw std::runtime_error("JPEG encoding failed");
    return out;
}

std::string base64(const std::vector<uint8_t>& bytes) {
    static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (size_t i = 0; i < bytes.size(); i += 3) {
        uint32_t n = uint32_t(bytes[i]) << 16;
        if (i + 1 < bytes.size()) n |= uint32_t(bytes[i + 1]) << 8;
        if (i + 2 < bytes.size()) n |= bytes[i + 2];
        out += table[(n >> 18) & 63];
        out += table[(n >> 12) & 63];
        out += i + 1 < bytes.size() ? table[(n >> 6) & 63] : '=';
        out += i + 2 < bytes.size() ? table[n & 63] : '=';
    }
    return out;
}

const char* toString(GltfStorage s) {
    switch (s) {
    case GltfStorage::ExternalFiles: return "external";
    case GltfStorage::DataUris: return "data_uri";
    case GltfStorage::Glb: return "glb";
    }
    return "?";
}

GltfBuilder::GltfBuilder() {
    json = {{"asset", {{"version", "2.0"}, {"generator", "vkml tests"}}},
            {"scene", 0},
            {"scenes", nlohmann::json::array({{{"nodes", nlohmann::json::array()}}})},
            {"nodes", nlohmann::json::array()},
            {"meshes", nlohmann::json::array()}};
}

int GltfBuilder::addBufferView(const void* data, size_t bytes, size_t byteStride) {
    pad4(bin, 0);
    size_t offset = bin.size();
    bin.insert(bin.end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + bytes);
    nlohmann::json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}};
    if (byteStride) view["byteStride"] = byteStride;
    json["bufferViews"].push_back(view);
    return int(json["bufferViews"].size() - 1);
}

int GltfBuilder::addAccessor(int bufferView, int componentType, size_t count, const std::string& type, size_t byteOffset, bool normalized) {
    nlohmann::json a = {{"bufferView", bufferView}, {"componentType", componentType}, {"count", count}, {"type", type}};
    if (byteOffset) a["byteOffset"] = byteOffset;
    if (normalized) a["normalized"] = true;
    json["accessors"].push_back(a);
    return int(json["accessors"].size() - 1);
}

int GltfBuilder::addPositions(const std::vector<glm::vec3>& p) {
    int view = addBufferView(p.data(), p.size() * sizeof(glm::vec3));
    int a = addAccessor(view, 5126, p.size(), "VEC3");
    glm::vec3 lo = p.front(), hi = p.front();
    for (glm::vec3 v : p) lo = glm::min(lo, v), hi = glm::max(hi, v);
    json["accessors"][size_t(a)]["min"] = {lo.x, lo.y, lo.z};
    json["accessors"][size_t(a)]["max"] = {hi.x, hi.y, hi.z};
    return a;
}

int GltfBuilder::addNormals(const std::vector<glm::vec3>& n) {
    return addAccessor(addBufferView(n.data(), n.size() * sizeof(glm::vec3)), 5126, n.size(), "VEC3");
}

int GltfBuilder::addUvs(const std::vector<glm::vec2>& uv) {
    return addAccessor(addBufferView(uv.data(), uv.size() * sizeof(glm::vec2)), 5126, uv.size(), "VEC2");
}

int GltfBuilder::addIndices(const std::vector<uint32_t>& indices, int componentType) {
    std::vector<uint8_t> bytes;
    for (uint32_t i : indices) {
        if (componentType == 5121) bytes.push_back(uint8_t(i));
        else if (componentType == 5123) bytes.push_back(uint8_t(i)), bytes.push_back(uint8_t(i >> 8));
        else put32(bytes, i);
    }
    return addAccessor(addBufferView(bytes.data(), bytes.size()), componentType, indices.size(), "SCALAR");
}

int GltfBuilder::addMesh(const nlohmann::json& attributes, int indices, int material) {
    nlohmann::json prim = {{"attributes", attributes}};
    if (indices >= 0) prim["indices"] = indices;
    if (material >= 0) prim["material"] = material;
    json["meshes"].push_back({{"primitives", nlohmann::json::array({prim})}});
    return int(json["meshes"].size() - 1);
}

int GltfBuilder::addNode(const nlohmann::json& node) {
    json["nodes"].push_back(node);
    return int(json["nodes"].size() - 1);
}

void GltfBuilder::addRootNode(int node) { json["scenes"][0]["nodes"].push_back(node); }

int GltfBuilder::addImage(const std::vector<uint8_t>& encoded, const std::string& mimeType) {
    images_.push_back({encoded, mimeType});
    return int(images_.size() - 1);
}

int GltfBuilder::addSampler(int magFilter, int minFilter, int wrapS, int wrapT) {
    json["samplers"].push_back({{"magFilter", magFilter}, {"minFilter", minFilter}, {"wrapS", wrapS}, {"wrapT", wrapT}});
    return int(json["samplers"].size() - 1);
}

int GltfBuilder::addTexture(int image, int sampler) {
    nlohmann::json t = {{"source", image}};
    if (sampler >= 0) t["sampler"] = sampler;
    json["textures"].push_back(t);
    return int(json["textures"].size() - 1);
}

int GltfBuilder::addMaterial(glm::vec4 baseColor, int texture, const std::string& alphaMode, float alphaCutoff, bool doubleSided,
                             float metallic, float roughness) {
    nlohmann::json pbr = {{"baseColorFactor", {baseColor.r, baseColor.g, baseColor.b, baseColor.a}},
                          {"metallicFactor", metallic},
                          {"roughnessFactor", roughness}};
    if (texture >= 0) pbr["baseColorTexture"] = {{"index", texture}};
    nlohmann::json m = {{"pbrMetallicRoughness", pbr}, {"alphaMode", alphaMode}, {"doubleSided", doubleSided}};
    if (alphaMode == "MASK") m["alphaCutoff"] = alphaCutoff;
    json["materials"].push_back(m);
    return int(json["materials"].size() - 1);
}

int GltfBuilder::addQuad(float h, int material, bool normals, bool indexed, float uvScale) {
    std::vector<glm::vec3> p = {{-h, -h, 0}, {h, -h, 0}, {h, h, 0}, {-h, h, 0}};
    std::vector<glm::vec2> uv = {{0, uvScale}, {uvScale, uvScale}, {uvScale, 0}, {0, 0}};
    std::vector<uint32_t> idx = {0, 1, 2, 0, 2, 3};
    if (!indexed) {
        std::vector<glm::vec3> p2;
        std::vector<glm::vec2> uv2;
        for (uint32_t i : idx) p2.push_back(p[i]), uv2.push_back(uv[i]);
        p = p2;
        uv = uv2;
    }
    nlohmann::json attributes = {{"POSITION", addPositions(p)}, {"TEXCOORD_0", addUvs(uv)}};
    if (normals) attributes["NORMAL"] = addNormals(std::vector<glm::vec3>(p.size(), glm::vec3(0, 0, 1)));
    return addMesh(attributes, indexed ? addIndices(idx, 5123) : -1, material);
}

std::filesystem::path GltfBuilder::write(const std::filesystem::path& file, GltfStorage storage) const {
    nlohmann::json j = json;
    std::vector<uint8_t> data = bin;
    const std::string stem = file.stem().string();
    for (size_t i = 0; i < images_.size(); ++i) {
        const ImageData& img = images_[i];
        nlohmann::json entry;
        if (storage == GltfStorage::Glb) {
            pad4(data, 0);
            size_t offset = data.size();
            data.insert(data.end(), img.bytes.begin(), img.bytes.end());
            j["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", img.bytes.size()}});
            entry = {{"bufferView", j["bufferViews"].size() - 1}, {"mimeType", img.mimeType}};
        } else if (storage == GltfStorage::DataUris) {
            entry = {{"uri", "data:" + img.mimeType + ";base64," + base64(img.bytes)}};
        } else {
            std::string name = stem + "_image" + std::to_string(i) + (img.mimeType == "image/jpeg" ? ".jpg" : ".png");
            writeFile(file.parent_path() / name, img.bytes.data(), img.bytes.size());
            entry = {{"uri", name}};
        }
        j["images"].push_back(entry);
    }
    std::filesystem::path out = file;
    if (!data.empty()) {
        nlohmann::json buffer = {{"byteLength", data.size()}};
        if (storage == GltfStorage::ExternalFiles) {
            writeFile(file.parent_path() / (stem + ".bin"), data.data(), data.size());
            buffer["uri"] = stem + ".bin";
        } else if (storage == GltfStorage::DataUris) {
            buffer["uri"] = "data:application/octet-stream;base64," + base64(data);
        }
        j["buffers"] = nlohmann::json::array({buffer});
    }
    if (storage != GltfStorage::Glb) {
        out.replace_extension(".gltf");
        std::string text = j.dump(1);
        writeFile(out, text.data(), text.size());
        return out;
    }
    out.replace_extension(".glb");
    std::string text = j.dump();
    std::vector<uint8_t> jsonChunk(text.begin(), text.end());
    pad4(jsonChunk, ' ');
    pad4(data, 0);
    std::vector<uint8_t> glb;
    put32(glb, 0x46546C67);
    put32(glb, 2);
    put32(glb, uint32_t(12 + 8 + jsonChunk.size() + (data.empty() ? 0 : 8 + data.size())));
    put32(glb, uint32_t(jsonChunk.size()));
    put32(glb, 0x4E4F534A);
    glb.insert(glb.end(), jsonChunk.begin(), jsonChunk.end());
    if (!data.empty()) {
        put32(glb, uint32_t(data.size()));
        put32(glb, 0x004E4942);
        glb.insert(glb.end(), data.begin(), data.end());
    }
    writeFile(out, glb.data(), glb.size());
    return out;
}

ScratchDirectory::ScratchDirectory() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = test ? std::string(test->test_suite_name()) + "." + test->name() : "no_test";
    for (char& c : name)
        if (c == '/') c = '_';
    path_ = std::filesystem::path(::testing::TempDir()) / ("vkml_" + name + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
}

ScratchDirectory::~ScratchDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

}  // namespace testsupport
