// Malformed and hostile glTF files get an engine::Error naming the file and the problem: never a
// crash, an out-of-bounds read or a huge allocation. CPU only (nothing reaches the GPU).
#include "engine/error.h"
#include "engine/gltf.h"
#include "gltf_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <random>

namespace {

using testsupport::GltfBuilder;
using testsupport::GltfStorage;
using testsupport::ScratchDirectory;
namespace fs = std::filesystem;

std::string loadError(const fs::path& file, const engine::GltfLimits& limits = {}) {
    try {
        engine::loadGltfScene(file.string(), limits);
    } catch (const engine::Error& e) {
        return e.what();
    }
    return "(loaded without an error)";
}

#define EXPECT_LOAD_ERROR(file, expected, ...)                                                     \
    do {                                                                                           \
        std::string message_ = loadError(file __VA_OPT__(, ) __VA_ARGS__);                         \
        EXPECT_NE(message_.find(expected), std::string::npos) << "message: " << message_;         \
        EXPECT_EQ(message_.rfind("glTF '" + fs::path(file).string() + "': ", 0), 0u) << message_; \
    } while (0)

// One textured quad: accessors 0 POSITION, 1 TEXCOORD_0, 2 NORMAL, 3 indices (UNSIGNED_SHORT).
GltfBuilder quad() {
    GltfBuilder b;
    int tex = b.addTexture(b.addImage(testsupport::encodePng(2, 2, std::vector<uint8_t>(16, 200)), "image/png"));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(glm::vec4(1), tex))}}));
    return b;
}

void writeBytes(const fs::path& file, const std::vector<uint8_t>& bytes) {
    std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<uint8_t> readBytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(GltfErrors, ValidModelLoads) {
    ScratchDirectory dir;
    for (GltfStorage s : {GltfStorage::ExternalFiles, GltfStorage::DataUris, GltfStorage::Glb})
        EXPECT_EQ(loadError(quad().write(dir / "ok", s)), "(loaded without an error)") << testsupport::toString(s);
}

TEST(GltfErrors, MissingAndTruncatedFiles) {
    ScratchDirectory dir;
    EXPECT_LOAD_ERROR(dir / "missing.gltf", "cannot open the file");
    fs::path gltf = quad().write(dir / "cut", GltfStorage::DataUris);
    auto text = readBytes(gltf);
    text.resize(text.size() / 2);
    writeBytes(gltf, text);
    EXPECT_LOAD_ERROR(gltf, "parse error");

    fs::path glb = quad().write(dir / "cut", GltfStorage::Glb);
    auto bytes = readBytes(glb);
    writeBytes(glb, std::vector<uint8_t>(bytes.begin(), bytes.end() - 10));
    EXPECT_LOAD_ERROR(glb, "truncated .glb: the header says");
    writeBytes(glb, std::vector<uint8_t>(bytes.begin(), bytes.begin() + 12));
    EXPECT_LOAD_ERROR(glb, "truncated .glb: 12 bytes, less than its 20-byte header");
    // The header's length agrees with the file but the BIN chunk claims more than is there.
    std::vector<uint8_t> lying = bytes;
    uint32_t jsonLength;
    std::memcpy(&jsonLength, lying.data() + 12, 4);
    uint32_t binLength = 1u << 30;
    std::memcpy(lying.data() + 20 + jsonLength, &binLength, 4);
    writeBytes(glb, lying);
    EXPECT_LOAD_ERROR(glb, "truncated .glb: the BIN chunk's 1073741824 bytes exceed the file");
    // The JSON chunk claims more than the file.
    lying = bytes;
    uint32_t hugeJson = 0xfffffff0u;
    std::memcpy(lying.data() + 12, &hugeJson, 4);
    writeBytes(glb, lying);
    EXPECT_LOAD_ERROR(glb, "the JSON chunk's 4294967280 bytes exceed the file");
}

TEST(GltfErrors, IndexNotBelowTheVertexCount) {
    ScratchDirectory dir;
    GltfBuilder b;
    int positions = b.addPositions({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}});
    b.addRootNode(b.addNode({{"mesh", b.addMesh({{"POSITION", positions}}, b.addIndices({0, 1, 2, 2, 1, 7}))}}));
    EXPECT_LOAD_ERROR(b.write(dir / "index", GltfStorage::Glb),
                      "meshes[0].primitives[0].indices: index 7 at position 5 is not below the vertex count 4 (accessors[1])");
}

TEST(GltfErrors, AccessorRangesBeyondTheirBufferView) {
    ScratchDirectory dir;
    {
        GltfBuilder b = quad();
        b.json["accessors"][0]["byteOffset"] = 4;  // the 4th position reaches past the view
        EXPECT_LOAD_ERROR(b.write(dir / "offset", GltfStorage::Glb),
                          "accessors[0] (meshes[0].primitives[0].attributes.POSITION): 4 elements of 12 bytes (stride 12) from byte "
                          "offset 4 need bytes [4, 52) of bufferViews[0], which has 48 bytes");
    }
    {
        GltfBuilder b = quad();
        b.json["accessors"][0]["count"] = 2147483648u;  // count 2^31 on a 48-byte view
        EXPECT_LOAD_ERROR(b.write(dir / "count", GltfStorage::Glb),
                          "2147483648 elements of 12 bytes (stride 12) from byte offset 0 need bytes [0, 25769803776) of bufferViews[0], which has 48 bytes");
    }
    {
        GltfBuilder b = quad();
        b.json["accessors"][3]["count"] = 18446744073709551615ull;  // 2^64 - 1 indices
        EXPECT_LOAD_ERROR(b.write(dir / "count64", GltfStorage::Glb), "beyond 2^64");
    }
    {
        GltfBuilder b = quad();
        b.json["bufferViews"][0]["byteLength"] = 1u << 30;  // a view larger than its buffer
        EXPECT_LOAD_ERROR(b.write(dir / "view", GltfStorage::Glb), "bufferViews[0]: bytes [0, 1073741824) exceed buffers[0], which has");
    }
    {
        GltfBuilder b = quad();
        b.json["bufferViews"][0]["byteStride"] = 8;  // smaller than a VEC3 of floats
        EXPECT_LOAD_ERROR(b.write(dir / "stride", GltfStorage::Glb), "bufferViews[0]: byteStride 8 is smaller than accessors[0]");
    }
    {
        GltfBuilder b = quad();
        b.json["accessors"][0]["count"] = 0;
        EXPECT_LOAD_ERROR(b.write(dir / "zero", GltfStorage::Glb), "count is 0");
    }
    {
        GltfBuilder b = quad();  // no bufferView: zeros, but a lying count is still refused
        b.json["accessors"][1].erase("bufferView");
        b.json["accessors"][1]["count"] = 4000000000u;
        EXPECT_LOAD_ERROR(b.write(dir / "noview", GltfStorage::Glb), "without a buffer view exceeds the vertex and index limits");
    }
}

TEST(GltfErrors, WrongComponentTypesAndTypes) {
    ScratchDirectory dir;
    auto with = [&](int accessor, const char* field, const nlohmann::json& value, const std::string& expected) {
        GltfBuilder b = quad();
        b.json["accessors"][size_t(accessor)][field] = value;
        EXPECT_LOAD_ERROR(b.write(dir / "types", GltfStorage::Glb), expected);
    };
    with(0, "componentType", 5123, "attributes.POSITION): component type UNSIGNED_SHORT, expected FLOAT");
    with(0, "type", "VEC2", "attributes.POSITION): type VEC2, expected VEC3");
    with(2, "componentType", 5120, "attributes.NORMAL): component type BYTE, expected FLOAT");
    with(1, "componentType", 5125, "attributes.TEXCOORD_0): component type UNSIGNED_INT, expected FLOAT or UNSIGNED_BYTE or UNSIGNED_SHORT");
    with(3, "componentType", 5126, "indices): component type FLOAT, expected UNSIGNED_BYTE or UNSIGNED_SHORT or UNSIGNED_INT");
    with(3, "type", "VEC3", "indices): type VEC3, expected SCALAR");
    with(0, "componentType", 12345, "");  // an unknown number: an error either way (tinygltf or ours)
}

TEST(GltfErrors, MissingRequiredFields) {
    ScratchDirectory dir;
    auto without = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& expected) {
        GltfBuilder b = quad();
        edit(b.json);
        EXPECT_LOAD_ERROR(b.write(dir / "fields", GltfStorage::DataUris), expected);
    };
    without([](nlohmann::json& j) { j["accessors"][0].erase("componentType"); }, "componentType");
    without([](nlohmann::json& j) { j["accessors"][0].erase("count"); }, "count");
    without([](nlohmann::json& j) { j["bufferViews"][0].erase("buffer"); }, "buffer");
    without([](nlohmann::json& j) { j.erase("asset"); }, "asset");
    without([](nlohmann::json& j) { j["meshes"][0]["primitives"][0].erase("attributes"); }, "nothing to draw");
    without([](nlohmann::json& j) { j["meshes"][0]["primitives"][0]["attributes"].erase("POSITION"); }, "nothing to draw");
    without([](nlohmann::json& j) { j["meshes"] = nlohmann::json::array(); j["nodes"][0].erase("mesh"); }, "nothing to draw");
}

TEST(GltfErrors, ReferencesToThingsThatDoNotExist) {
    ScratchDirectory dir;
    auto edited = [&](const std::function<void(nlohmann::json&)>& edit, const std::string& expected) {
        GltfBuilder b = quad();
        edit(b.json);
        EXPECT_LOAD_ERROR(b.write(dir / "refs", GltfStorage::Glb), expected);
    };
    edited([](nlohmann::json& j) { j["nodes"][0]["mesh"] = 5; }, "nodes[0].mesh: mesh 5 does not exist (1 meshes)");
    edited([](nlohmann::json& j) { j["scenes"][0]["nodes"][0] = 9; }, "scenes[0].nodes: node 9 does not exist (1 nodes)");
    edited([](nlohmann::json& j) { j["scene"] = 3; }, "scene 3 does not exist (1 scenes)");
    edited([](nlohmann::json& j) { j["meshes"][0]["primitives"][0]["material"] = 9; },
           "meshes[0].primitives[0].material: material 9 does not exist (1 materials)");
    edited([](nlohmann::json& j) { j["meshes"][0]["primitives"][0]["attributes"]["NORMAL"] = 99; },
           "attributes.NORMAL: accessor 99 does not exist (4 accessors)");
    edited([](nlohmann::json& j) { j["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 4; },
           "materials[0].pbrMetallicRoughness.baseColorTexture: texture 4 does not exist (1 textures)");
    edited([](nlohmann::json& j) { j["textures"][0]["source"] = 6; }, "textures[0].source: image 6 does not exist (1 images)");
    edited([](nlohmann::json& j) { j["textures"][0]["sampler"] = 2; }, "textures[0].sampler: sampler 2 does not exist (0 samplers)");
    edited([](nlohmann::json& j) { j["accessors"][0]["bufferView"] = 40; }, "bufferView 40 does not exist");
    edited([](nlohmann::json& j) { j["bufferViews"][0]["buffer"] = 3; }, "bufferViews[0]: buffer 3 does not exist (1 buffers)");
    edited([](nlohmann::json& j) { j["materials"][0]["alphaMode"] = "CUTOUT"; }, "materials[0].alphaMode: 'CUTOUT' is not OPAQUE, MASK or BLEND");
    edited([](nlohmann::json& j) { j["samplers"] = {{{"magFilter", 1}}}; j["textures"][0]["sampler"] = 0; },
           "samplers[0].magFilter: 1 is not NEAREST (9728) or LINEAR (9729)");
    edited([](nlohmann::json& j) { j["samplers"] = {{{"wrapS", 7}}}; j["textures"][0]["sampler"] = 0; }, "samplers[0].wrapS: 7 is not REPEAT");
}

TEST(GltfErrors, NodeCyclesAndBadTransforms) {
    ScratchDirectory dir;
    GltfBuilder b = quad();
    b.json["nodes"][0]["children"] = {1};
    b.json["nodes"].push_back({{"children", {0}}});
    EXPECT_LOAD_ERROR(b.write(dir / "cycle", GltfStorage::Glb), "is reached twice (a cycle, or a node with two parents)");
    b = quad();
    b.json["nodes"][0]["children"] = {0};
    EXPECT_LOAD_ERROR(b.write(dir / "self", GltfStorage::Glb), "nodes[0] is reached twice");
    b = quad();
    b.json["nodes"][0]["matrix"] = {1, 0, 0, 1};
    EXPECT_LOAD_ERROR(b.write(dir / "matrix", GltfStorage::Glb), "nodes[0].matrix: expected 16 finite numbers");
    b = quad();
    b.json["nodes"][0]["rotation"] = {0, 0, 0, 0};
    EXPECT_LOAD_ERROR(b.write(dir / "quat", GltfStorage::Glb), "nodes[0].rotation: a zero quaternion");
    b = quad();
    b.json["nodes"][0]["scale"] = {1, 2};
    EXPECT_LOAD_ERROR(b.write(dir / "scale", GltfStorage::Glb), "nodes[0].scale: expected 3 finite numbers");
}

TEST(GltfErrors, BadGeometry) {
    ScratchDirectory dir;
    GltfBuilder b = quad();
    b.json["accessors"][3]["count"] = 5;  // 5 indices are not whole triangles
    EXPECT_LOAD_ERROR(b.write(dir / "tri", GltfStorage::Glb), "meshes[0].primitives[0]: 5 indices do not form whole triangles");
    b = quad();
    b.json["meshes"][0]["primitives"][0]["mode"] = 5;  // a strip of 2 indices
    b.json["accessors"][3]["count"] = 2;
    EXPECT_LOAD_ERROR(b.write(dir / "strip", GltfStorage::Glb), "meshes[0].primitives[0]: 2 indices are too few for a TRIANGLE_STRIP");
    b = quad();
    b.json["meshes"][0]["primitives"][0]["mode"] = 0;  // points only: nothing to draw, and why
    EXPECT_LOAD_ERROR(b.write(dir / "points", GltfStorage::Glb),
                      "nothing to draw: the scene's nodes hold no triangle primitives; primitive mode POINTS (skipped; only triangles are drawn)");
    b = quad();
    b.json["accessors"][2]["count"] = 3;
    EXPECT_LOAD_ERROR(b.write(dir / "normals", GltfStorage::Glb), "attributes.NORMAL: count 3 differs from POSITION's 4");
    b = quad();
    float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(b.bin.data() + 16, &nan, 4);  // position 1, y
    EXPECT_LOAD_ERROR(b.write(dir / "nan", GltfStorage::Glb), "attributes.POSITION: element 1 is not finite");
    b = quad();
    b.json["nodes"][0]["scale"] = {1e38, 1e38, 1e38};
    b.json["nodes"][0]["children"] = {1};
    b.json["nodes"].push_back({{"mesh", 0}, {"scale", {1e38, 1e38, 1e38}}});
    EXPECT_LOAD_ERROR(b.write(dir / "inf", GltfStorage::Glb), "a vertex is not finite after its node transforms");
}

TEST(GltfErrors, LimitsOnVerticesIndicesTexturesAndFiles) {
    ScratchDirectory dir;
    fs::path file = quad().write(dir / "limits", GltfStorage::Glb);
    engine::GltfLimits l;
    l.maxVertices = 3;
    EXPECT_LOAD_ERROR(file, "the scene needs more than 3 vertices (the loader's limit)", l);
    l = {};
    l.maxIndices = 5;
    EXPECT_LOAD_ERROR(file, "the scene needs more than 5 indices", l);
    l = {};
    l.maxTextureTexels = 0;
    EXPECT_LOAD_ERROR(file, "images[0]: the image's 4 texels exceed the remaining budget of 0", l);
    l = {};
    l.maxTextureSize = 1;
    EXPECT_LOAD_ERROR(file, "images[0]: the image is 2x2, outside 1..1 texels per side", l);
    l = {};
    l.maxFileBytes = 100;
    EXPECT_LOAD_ERROR(file, "more than the limit of 100", l);
    l = {};
    l.maxJsonDepth = 3;
    EXPECT_LOAD_ERROR(file, "JSON nested deeper than 3 levels", l);
    l = {};
    l.maxTextures = 0;
    EXPECT_LOAD_ERROR(file, "more than 0 textures", l);
    // The external files count towards the total.
    fs::path external = quad().write(dir / "external", GltfStorage::ExternalFiles);
    l = {};
    l.maxTotalBytes = fs::file_size(external) + 10;
    EXPECT_LOAD_ERROR(external, "bytes exceed the limit", l);
    // Deep nesting within the default limit's reach.
    std::string deep = "{\"asset\": {\"version\": \"2.0\"}, \"extras\": " + std::string(100, '[') + std::string(100, ']') + "}";
    std::ofstream(dir / "deep.gltf") << deep;
    EXPECT_LOAD_ERROR(dir / "deep.gltf", "JSON nested deeper than 64 levels");
}

// The default limits admit big valid scenes: more than 256 textures (the old cap refused such a
// scene outright; each texture is one device allocation, the texel cap bounds their memory).
TEST(GltfErrors, DefaultLimitsAdmitManyTextures) {
    ScratchDirectory dir;
    GltfBuilder b;
    for (int i = 0; i < 300; ++i) {
        const uint8_t v = uint8_t(i);
        int tex = b.addTexture(b.addImage(testsupport::encodePng(1, 1, {v, 100, 50, 255}), "image/png"));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(0.5f, b.addMaterial(glm::vec4(1), tex))}, {"translation", {i, 0, 0}}}));
    }
    engine::SceneGeometry scene = engine::loadGltfScene(b.write(dir / "textures", GltfStorage::Glb).string());
    EXPECT_EQ(scene.textures.size(), 300u);
    EXPECT_GE(engine::GltfLimits{}.maxVertices, 1ull << 24);  // a 2 M-triangle mesh without normals needs 6 M
}

// Textures over the texel budget are not an error: every base colour texture drops the same
// number of top mip levels, the fewest that fit (a big scene of many large textures was refused).
TEST(GltfErrors, TexturesOverTheTexelBudgetAreDownscaled) {
    ScratchDirectory dir;
    GltfBuilder b;
    for (int i = 0; i < 3; ++i) {  // three 8x4 textures, 96 texels
        int tex = b.addTexture(b.addImage(testsupport::encodePng(8, 4, std::vector<uint8_t>(128, uint8_t(60 * i + 10))), "image/png"));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(0.5f, b.addMaterial(glm::vec4(1), tex))}, {"translation", {i, 0, 0}}}));
    }
    // A 1x1 texture as well: it cannot shrink, and need not.
    int small = b.addTexture(b.addImage(testsupport::encodePng(1, 1, {200, 100, 50, 255}), "image/png"));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(0.5f, b.addMaterial(glm::vec4(1), small))}, {"translation", {0, 2, 0}}}));
    const fs::path file = b.write(dir / "budget", GltfStorage::Glb);
    engine::GltfLimits l;
    l.maxTextureTexels = 40;  // 97 texels: one level less (3 x 4x2 + 1 = 25) fits
    engine::SceneGeometry scene = engine::loadGltfScene(file.string(), l);
    ASSERT_EQ(scene.textures.size(), 4u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(scene.textures[size_t(i)].width, 4u);
        EXPECT_EQ(scene.textures[size_t(i)].height, 2u);
        EXPECT_EQ(scene.textures[size_t(i)].levels.size(), 3u);  // 4x2, 2x1, 1x1
        EXPECT_EQ(scene.textures[size_t(i)].levels[0].size(), 4u * 2u * 4u);
    }
    EXPECT_EQ(scene.textures[3].width, 1u);
    EXPECT_EQ(scene.warnings, std::vector<std::string>{"textures downscaled to fit the texel budget (GltfLimits::maxTextureTexels) (3 occurrences)"});
    l.maxTextureTexels = 97;  // everything fits: untouched
    EXPECT_TRUE(engine::loadGltfScene(file.string(), l).warnings.empty());
}

TEST(GltfErrors, ImageHeadersAreCheckedBeforeDecoding) {
    ScratchDirectory dir;
    // A PNG whose header claims 10000 x 10000 texels (400 MB decoded).
    auto png = testsupport::encodePng(1, 1, {1, 2, 3, 255});
    const uint32_t huge = 10000;
    uint8_t be[4] = {uint8_t(huge >> 24), uint8_t(huge >> 16), uint8_t(huge >> 8), uint8_t(huge)};
    std::memcpy(png.data() + 16, be, 4);  // IHDR width
    std::memcpy(png.data() + 20, be, 4);  // IHDR height
    GltfBuilder b;
    int tex = b.addTexture(b.addImage(png, "image/png"));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(glm::vec4(1), tex))}}));
    EXPECT_LOAD_ERROR(b.write(dir / "huge", GltfStorage::ExternalFiles), "the image is 10000x10000, outside 1..8192 texels per side");
    // Not PNG or JPEG (a GIF signature): a warning, drawn untextured.
    GltfBuilder g;
    int gif = g.addTexture(g.addImage({'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0, 0, 0}, "image/gif"));
    g.addRootNode(g.addNode({{"mesh", g.addQuad(1.0f, g.addMaterial(glm::vec4(1), gif))}}));
    engine::SceneGeometry scene = engine::loadGltfScene(g.write(dir / "gif", GltfStorage::Glb).string());
    EXPECT_TRUE(scene.textures.empty());
    EXPECT_EQ(scene.materials[0].baseColorTexture, -1);
    ASSERT_EQ(scene.warnings.size(), 1u);
    EXPECT_EQ(scene.warnings[0], "images that are not PNG or JPEG (drawn untextured)");
    // A broken PNG body: an error from the decoder, not a crash.
    auto broken = testsupport::encodePng(8, 8, std::vector<uint8_t>(256, 7));
    broken.resize(broken.size() - 20);
    GltfBuilder c;
    int t = c.addTexture(c.addImage(broken, "image/png"));
    c.addRootNode(c.addNode({{"mesh", c.addQuad(1.0f, c.addMaterial(glm::vec4(1), t))}}));
    EXPECT_LOAD_ERROR(c.write(dir / "broken", GltfStorage::DataUris), "images[0]: cannot decode the image");
}

// data: URIs of media types tinygltf does not decode itself reach the loader's own decoder: a
// malformed one is an error naming the URI's header, not kilobytes of its data.
TEST(GltfErrors, MalformedDataUris) {
    ScratchDirectory dir;
    const fs::path file = quad().write(dir / "uri", GltfStorage::DataUris);
    auto withImageUri = [&](const std::string& uri) {
        nlohmann::json j = nlohmann::json::parse(std::ifstream(file));
        j["images"][0]["uri"] = uri;
        std::ofstream(file) << j.dump();
        return file;
    };
    EXPECT_LOAD_ERROR(withImageUri("data:image/ktx2;base64,q0tU*FgK"), "data URI 'data:image/ktx2;base64,...': the data is not valid base64");
    EXPECT_LOAD_ERROR(withImageUri("data:image/webp;base64,A"), "data URI 'data:image/webp;base64,...': the data is not valid base64");
    EXPECT_LOAD_ERROR(withImageUri("data:image/webp,RIFF"), "data URI 'data:image/webp,...': only base64 data: URIs are supported");
    EXPECT_LOAD_ERROR(withImageUri("data:image/webp;base64"), "data URI 'data:image/webp;base64,...': no ',' before the data");
    withImageUri("data:image/webp;base64,UklGRhAAAABXRUJQ");  // 12 bytes, counted against the model's total
    engine::GltfLimits small;
    small.maxTotalBytes = fs::file_size(file) + 4;
    EXPECT_LOAD_ERROR(file, "12 bytes exceed the limit (4 bytes left for this model's files)", small);
}

TEST(GltfErrors, RequiredStorageExtensionsAreErrors) {
    ScratchDirectory dir;
    GltfBuilder b = quad();
    b.json["extensionsUsed"] = {"KHR_draco_mesh_compression"};
    b.json["extensionsRequired"] = {"KHR_draco_mesh_compression"};
    EXPECT_LOAD_ERROR(b.write(dir / "draco", GltfStorage::Glb), "requires extension KHR_draco_mesh_compression, which is not supported");

    // As Draco files are written: the compressed primitive's accessors have no buffer view, which
    // tinygltf refuses for indices before the model reaches the converter. The message still
    // names the extension, required or only used.
    b.json["accessors"][3].erase("bufferView");
    b.json["meshes"][0]["primitives"][0]["extensions"] = {{"KHR_draco_mesh_compression", {{"bufferView", 0}, {"attributes", {{"POSITION", 0}}}}}};
    EXPECT_LOAD_ERROR(b.write(dir / "draco_real", GltfStorage::Glb), "requires extension KHR_draco_mesh_compression, which is not supported");
    b.json.erase("extensionsRequired");
    EXPECT_LOAD_ERROR(b.write(dir / "draco_used", GltfStorage::DataUris), "(the file uses extension KHR_draco_mesh_compression, which is not supported)");

    // EXT_meshopt_compression: the fallback buffer has no data (no uri), which tinygltf refuses.
    GltfBuilder m = quad();
    m.json["extensionsUsed"] = {"EXT_meshopt_compression"};
    m.json["extensionsRequired"] = {"EXT_meshopt_compression"};
    fs::path meshopt = m.write(dir / "meshopt", GltfStorage::DataUris);
    nlohmann::json j = nlohmann::json::parse(std::ifstream(meshopt));
    j["buffers"].push_back({{"byteLength", 64}, {"extensions", {{"EXT_meshopt_compression", {{"fallback", true}}}}}});
    std::ofstream(meshopt) << j.dump();
    EXPECT_LOAD_ERROR(meshopt, "requires extension EXT_meshopt_compression, which is not supported");
}

// Files that are not glTF at all (an image or text under a .glb or .gltf name, an empty file)
// are named as such, not reported as a JSON parser's complaint about their first byte.
TEST(GltfErrors, FilesThatAreNotGltf) {
    ScratchDirectory dir;
    writeBytes(dir / "empty.glb", {});
    EXPECT_LOAD_ERROR(dir / "empty.glb", "the file is empty (expected a .gltf JSON object or a binary .glb)");
    writeBytes(dir / "image.glb", testsupport::encodePng(2, 2, std::vector<uint8_t>(16, 200)));
    EXPECT_LOAD_ERROR(dir / "image.glb", "not a glTF file: neither a binary .glb (starting with 'glTF') nor a JSON object (it starts with bytes 89 50 4E 47)");
    writeBytes(dir / "text.gltf", {'h', 'i', '\n'});
    EXPECT_LOAD_ERROR(dir / "text.gltf", "not a glTF file: neither a binary .glb (starting with 'glTF') nor a JSON object (it starts with bytes 68 69 0A)");
    writeBytes(dir / "braces.gltf", {'{', '}'});
    EXPECT_LOAD_ERROR(dir / "braces.gltf", "the file has 2 bytes, too few for a glTF JSON object (it needs at least \"asset\")");
    // A byte order mark and leading white space are fine.
    fs::path ok = quad().write(dir / "bom", GltfStorage::DataUris);
    std::vector<uint8_t> text = readBytes(ok);
    text.insert(text.begin(), {0xEF, 0xBB, 0xBF, ' ', '\r', '\n'});
    writeBytes(ok, text);
    EXPECT_EQ(loadError(ok), "(loaded without an error)");
}

// External URIs: only relative paths inside the model's folder.
class GltfUris : public ::testing::Test {
protected:
    // The model with its buffer (or image) URI replaced by `uri`, written into dir/model/.
    fs::path modelWithUri(const std::string& uri, bool image) {
        fs::create_directories(dir / "model");
        GltfBuilder b = quad();
        fs::path file = b.write(dir / "model" / "m", GltfStorage::ExternalFiles);
        nlohmann::json j = nlohmann::json::parse(std::ifstream(file));
        (image ? j["images"][0]["uri"] : j["buffers"][0]["uri"]) = uri;
        std::ofstream(file) << j.dump();
        return file;
    }
    ScratchDirectory dir;
};

TEST_F(GltfUris, HostileUrisAreRefused) {
    // A file outside the model's folder that a hostile URI might try to reach.
    std::ofstream(dir / "secret.bin") << std::string(200, 'x');
    for (bool image : {false, true}) {
        SCOPED_TRACE(image ? "image URI" : "buffer URI");
        EXPECT_LOAD_ERROR(modelWithUri((dir / "secret.bin").string(), image), "absolute paths are not allowed");
        EXPECT_LOAD_ERROR(modelWithUri("/etc/passwd", image), "external URI '/etc/passwd': absolute paths are not allowed");
        EXPECT_LOAD_ERROR(modelWithUri("../secret.bin", image), "external URI '../secret.bin': '..' is not allowed");
        EXPECT_LOAD_ERROR(modelWithUri("sub/../../secret.bin", image), "'..' is not allowed");
        EXPECT_LOAD_ERROR(modelWithUri("%2e%2e/secret.bin", image), "external URI '../secret.bin': '..' is not allowed");  // URI-decoded
        EXPECT_LOAD_ERROR(modelWithUri("file:///etc/passwd", image), "URI schemes are not supported");
        EXPECT_LOAD_ERROR(modelWithUri("http://example.com/m.bin", image), "URI schemes are not supported");
        EXPECT_LOAD_ERROR(modelWithUri("nothere.bin", image), image ? "images[0] ('nothere.bin'): cannot find the file in the model's folder"
                                                                    : "external URI 'nothere.bin': cannot find it in the model's folder");
        EXPECT_LOAD_ERROR(modelWithUri("m.bin%00.png", image), "external URI 'm.bin\\x00.png': control characters");
        // A symbolic link inside the folder that leads out of it.
        fs::create_directories(dir / "model");
        fs::remove(dir / "model" / "link.bin");
        fs::create_symlink(dir / "secret.bin", dir / "model" / "link.bin");
        EXPECT_LOAD_ERROR(modelWithUri("link.bin", image), "external URI 'link.bin': resolves (through a symbolic link) to");
        fs::remove(dir / "model" / "link.bin");
        fs::create_directory_symlink(dir.path(), dir / "model" / "up");
        EXPECT_LOAD_ERROR(modelWithUri("up/secret.bin", image), "outside the model's folder");
        fs::remove(dir / "model" / "up");
    }
}

// An image file left out of a download matters only where a drawn material uses it: a missing
// normal map (which the engine does not draw) is named as a warning, the base colour's file is an
// error (above), and a hostile URI stays an error even for an unused image.
TEST_F(GltfUris, MissingImagesThatNothingDrawnUsesAreWarnings) {
    fs::path file = modelWithUri("m_image0.png", true);  // the builder's own name: the base colour's file is there
    nlohmann::json j = nlohmann::json::parse(std::ifstream(file));
    ASSERT_TRUE(j["materials"].is_array() && j["materials"].size() == 1 && j["textures"].size() == 1);
    j["images"].push_back({{"uri", "normal_map.png"}});
    j["textures"].push_back({{"source", j["images"].size() - 1}});
    j["materials"][0]["normalTexture"] = {{"index", j["textures"].size() - 1}};
    std::ofstream(file) << j.dump();
    ASSERT_FALSE(fs::exists(dir / "model" / "normal_map.png"));
    engine::SceneGeometry scene = engine::loadGltfScene(file.string());
    EXPECT_EQ(scene.textures.size(), 1u);
    EXPECT_TRUE(std::any_of(scene.warnings.begin(), scene.warnings.end(), [](const std::string& w) {
        return w.find("images whose file is missing (not used by what is drawn; ignored)") != std::string::npos;
    })) << ::testing::PrintToString(scene.warnings);

    j["images"].back()["uri"] = "../secret.png";
    std::ofstream(file) << j.dump();
    EXPECT_LOAD_ERROR(file, "external URI '../secret.png': '..' is not allowed");
}

TEST_F(GltfUris, LinksAndSubfoldersInsideTheFolderAreFine) {
    fs::path file = modelWithUri("m.bin", false);
    fs::create_directories(dir / "model" / "sub");
    fs::copy_file(dir / "model" / "m.bin", dir / "model" / "sub" / "data file.bin");
    fs::create_symlink("sub/data file.bin", dir / "model" / "inside.bin");
    EXPECT_EQ(loadError(modelWithUri("sub/data%20file.bin", false)), "(loaded without an error)");
    EXPECT_EQ(loadError(modelWithUri("inside.bin", false)), "(loaded without an error)");
    EXPECT_EQ(loadError(modelWithUri("./m.bin", false)), "(loaded without an error)");
}

// Random corruption of valid files (fixed seed): every outcome is a loaded scene or an
// engine::Error; anything else (another exception type, a crash) fails the test.
TEST(GltfErrors, CorruptedFilesNeverCrash) {
    ScratchDirectory dir;
    std::mt19937 rng(12345);
    for (GltfStorage storage : {GltfStorage::Glb, GltfStorage::DataUris}) {
        fs::path file = quad().write(dir / "valid", storage);
        const std::vector<uint8_t> original = readBytes(file);
        int loaded = 0, errors = 0;
        for (int iteration = 0; iteration < 300; ++iteration) {
            std::vector<uint8_t> bytes = original;
            int edits = 1 + int(rng() % 4);
            for (int e = 0; e < edits; ++e) {
                size_t at = rng() % bytes.size();
                switch (rng() % 4) {
                case 0: bytes[at] = uint8_t(rng()); break;                                        // random byte
                case 1: bytes[at] = "0123456789"[rng() % 10]; break;                             // digit: plausible numbers
                case 2: bytes.resize(at + 1); break;                                              // truncation
                default: bytes[at] ^= uint8_t(1u << (rng() % 8)); break;                          // bit flip
                }
            }
            writeBytes(dir / "fuzz.bin.glb", bytes);
            fs::path target = dir / (storage == GltfStorage::Glb ? "fuzz.glb" : "fuzz.gltf");
            fs::rename(dir / "fuzz.bin.glb", target);
            try {
                engine::loadGltfScene(target.string());
                ++loaded;
            } catch (const engine::Error&) {
                ++errors;
            } catch (const std::exception& e) {
                ADD_FAILURE() << "iteration " << iteration << ": " << typeid(e).name() << ": " << e.what();
            }
        }
        EXPECT_GT(errors, 50) << testsupport::toString(storage);
        std::printf("%s: %d loaded, %d clear errors\n", testsupport::toString(storage), loaded, errors);
    }
}

}  // namespace
