// glTF scenes: loading (.gltf with external files, with data: URIs, .glb), geometry (indexed or
// not, with or without normals, TRS and matrix nodes, scene selection), materials (base colour
// textures in PNG and JPEG, every wrap and filter mode, mipmaps, alpha mask, culling, metallic
// and roughness in the lighting) rendered on lavapipe with validation, and one named warning
// per unsupported feature. The content is generated here (tests/support/gltf_builder.h).
#include "engine/camera_path.h"
#include "engine/error.h"
#include "engine/gltf.h"
#include "engine/renderer.h"
#include "gltf_builder.h"
#include "vulkan_test.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

namespace {

using testsupport::GltfBuilder;
using testsupport::GltfStorage;
using testsupport::ScratchDirectory;
using glm::vec3;
using glm::vec4;

constexpr uint32_t kWidth = 64, kHeight = 48;
constexpr int kNearest = 9728, kLinear = 9729, kNearestMipNearest = 9984, kLinearMipLinear = 9987;
constexpr int kRepeat = 10497, kClamp = 33071, kMirror = 33648;

float srgbToLinear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }

// An RGBA8 image from a list of sRGB colours, row by row.
std::vector<uint8_t> pixels(const std::vector<glm::u8vec4>& texels) {
    std::vector<uint8_t> out;
    for (glm::u8vec4 t : texels) out.insert(out.end(), {t.r, t.g, t.b, t.a});
    return out;
}

const glm::u8vec4 kRed{220, 30, 20, 255}, kGreen{20, 200, 40, 255}, kBlue{30, 40, 210, 255}, kWhite{250, 250, 250, 255};

struct Frame {
    engine::FrameReadback rb;
    const engine::FrameReadback::FloatImage& channel(engine::Channel c) const {
        for (const auto& i : rb.channels)
            if (i.channel == c) return i;
        throw std::runtime_error("channel missing");
    }
    // Components of channel c at pixel (x, y) of the render resolution.
    vec3 at(engine::Channel c, uint32_t x, uint32_t y) const {
        const auto& img = channel(c);
        const float* p = &img.data[(size_t(y) * img.width + x) * img.components];
        return img.components == 1 ? vec3(p[0]) : vec3(p[0], p[1], p[2]);
    }
    float depth(uint32_t x, uint32_t y) const { return at(engine::Channel::Depth, x, y).x; }
    vec3 albedo(uint32_t x, uint32_t y) const { return at(engine::Channel::Albedo, x, y); }
};

// Looking at the origin from +z, 1 m away: a quad of half-size 1 in the z = 0 plane fills the
// 64x48 view (it covers x in [-0.77, 0.77], y in [-0.58, 0.58] of the quad).
engine::CameraPose frontCamera() {
    engine::CameraPose pose;
    pose.position = vec3(0, 0, 1);
    pose.target = vec3(0, 0, 0);
    pose.fovYDegrees = 60.0f;
    return pose;
}

// Pixel column / row showing quad coordinate x (or y) in [-1, 1] with frontCamera().
uint32_t columnOf(float x) { return uint32_t((x / (std::tan(glm::radians(30.0f)) * kWidth / kHeight) + 1.0f) * 0.5f * kWidth); }
uint32_t rowOf(float y) { return uint32_t((1.0f - y / std::tan(glm::radians(30.0f))) * 0.5f * kHeight); }

class GltfRender : public testsupport::VulkanTest {
public:
    Frame render(std::shared_ptr<const engine::SceneGeometry> scene, bool lighting = false, engine::CameraPose pose = frontCamera(),
                 float textureLodBias = 0.0f) {
        engine::Renderer r(ctx(), nativeDesc(std::move(scene), lighting));
        engine::FrameParams params;
        params.camera = params.previousCamera = pose;
        params.textureLodBias = textureLodBias;
        uint32_t channels = engine::Channel::Albedo | engine::Channel::Depth | engine::Channel::Normal | engine::Channel::Color;
        return {engine::renderSingleFrame(ctx(), r, params, channels)};
    }
    // A native-resolution, unshadowed renderer of the test size.
    static engine::RendererDesc nativeDesc(std::shared_ptr<const engine::SceneGeometry> scene, bool lighting) {
        engine::RendererDesc d;
        d.outputWidth = kWidth;
        d.outputHeight = kHeight;
        d.upscale = engine::UpscaleMode::Native;
        d.lighting = lighting;
        d.shadows = engine::ShadowMode::Off;
        d.scene = std::move(scene);
        return d;
    }
    std::shared_ptr<const engine::SceneGeometry> load(const std::filesystem::path& file) {
        return std::make_shared<const engine::SceneGeometry>(engine::loadGltfScene(file.string()));
    }
};

// A quad filling the view with a 2x2 nearest-filtered texture: red, green / blue, white.
GltfBuilder quadrantsModel() {
    GltfBuilder b;
    int image = b.addImage(testsupport::encodePng(2, 2, pixels({kRed, kGreen, kBlue, kWhite})), "image/png");
    int tex = b.addTexture(image, b.addSampler(kNearest, kNearest, kClamp, kClamp));
    int mat = b.addMaterial(vec4(1), tex);
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, mat)}}));
    return b;
}

void expectSrgbTexel(vec3 albedo, glm::u8vec4 texel, float tolerance = 2.5f / 255.0f) {
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(albedo[c], srgbToLinear(texel[c] / 255.0f), tolerance) << "channel " << c;
}

class GltfStorageTest : public GltfRender, public ::testing::WithParamInterface<GltfStorage> {};

TEST_P(GltfStorageTest, TexturedQuadShowsTheTextureColours) {
    ScratchDirectory dir;
    auto scene = load(quadrantsModel().write(dir / "quad", GetParam()));
    EXPECT_TRUE(scene->warnings.empty()) << scene->warnings.front();
    ASSERT_EQ(scene->textures.size(), 1u);
    EXPECT_EQ(scene->textures[0].levels.size(), 2u);  // 2x2 and 1x1
    Frame f = render(scene);
    // Texture row 0 is the top of the image (uv v = 0 at the quad's top edge).
    expectSrgbTexel(f.albedo(kWidth / 4, kHeight / 4), kRed);
    expectSrgbTexel(f.albedo(3 * kWidth / 4, kHeight / 4), kGreen);
    expectSrgbTexel(f.albedo(kWidth / 4, 3 * kHeight / 4), kBlue);
    expectSrgbTexel(f.albedo(3 * kWidth / 4, 3 * kHeight / 4), kWhite);
    vec3 n = f.at(engine::Channel::Normal, kWidth / 2, kHeight / 2);
    EXPECT_NEAR(n.z, 1.0f, 1e-3f);
}

INSTANTIATE_TEST_SUITE_P(Storage, GltfStorageTest, ::testing::Values(GltfStorage::ExternalFiles, GltfStorage::DataUris, GltfStorage::Glb),
                         [](const auto& param) { return std::string(testsupport::toString(param.param)); });

void expectQuadrants(const Frame& f, glm::u8vec4 topLeft, glm::u8vec4 topRight, glm::u8vec4 bottomLeft, glm::u8vec4 bottomRight) {
    expectSrgbTexel(f.albedo(kWidth / 4, kHeight / 4), topLeft);
    expectSrgbTexel(f.albedo(3 * kWidth / 4, kHeight / 4), topRight);
    expectSrgbTexel(f.albedo(kWidth / 4, 3 * kHeight / 4), bottomLeft);
    expectSrgbTexel(f.albedo(3 * kWidth / 4, 3 * kHeight / 4), bottomRight);
}

// tinygltf decodes data: URIs of a few media types only (PNG, JPEG, octet-stream, ...) and hands
// the others to the file callback as paths, which refused them as URI schemes: a valid file
// with a KTX2 or WebP image in a data: URI (next to a PNG fallback) did not load at all.
TEST_F(GltfRender, DataUrisOfAnyMediaTypeAreDecoded) {
    ScratchDirectory dir;
    const std::vector<uint8_t> ktx2 = {0xAB, 'K', 'T', 'X', ' ', '2', '0', 0xBB, '\r', '\n', 0x1A, '\n', 0xFB, 0xEF, 0xFF};  // base64 with '+' and '/'
    {  // a PNG declared under another media type is decoded (base64 by the loader) and drawn
        GltfBuilder b;
        int image = b.addImage(testsupport::encodePng(2, 2, pixels({kRed, kGreen, kBlue, kWhite})), "image/x-png");
        int tex = b.addTexture(image, b.addSampler(kNearest, kNearest, kClamp, kClamp));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex))}}));
        auto scene = load(b.write(dir / "xpng", GltfStorage::DataUris));
        EXPECT_TRUE(scene->warnings.empty()) << scene->warnings.front();
        expectQuadrants(render(scene), kRed, kGreen, kBlue, kWhite);
    }
    {  // KHR_texture_basisu's KTX2 image in a data: URI, the texture's source a PNG fallback
        GltfBuilder b;
        int basis = b.addImage(ktx2, "image/ktx2");
        int tex = b.addTexture(b.addImage(testsupport::encodePng(1, 1, pixels({kGreen})), "image/png"));
        b.json["textures"][size_t(tex)]["extensions"] = {{"KHR_texture_basisu", {{"source", basis}}}};
        b.json["extensionsUsed"] = {"KHR_texture_basisu"};
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex))}}));
        auto scene = load(b.write(dir / "ktx2_fallback", GltfStorage::DataUris));
        EXPECT_EQ(scene->warnings, std::vector<std::string>{"extension KHR_texture_basisu (ignored)"});
        expectSrgbTexel(render(scene).albedo(kWidth / 2, kHeight / 2), kGreen);
    }
    {  // no fallback: drawn untextured, with a warning naming the extension; WebP as the source itself: untextured
        GltfBuilder b;
        int basisOnly = b.addTexture(-1);
        b.json["textures"][size_t(basisOnly)] = {{"extensions", {{"KHR_texture_basisu", {{"source", b.addImage(ktx2, "image/ktx2")}}}}}};
        int webp = b.addTexture(b.addImage({'R', 'I', 'F', 'F', 16, 0, 0, 0, 'W', 'E', 'B', 'P', 'V', 'P', '8', ' '}, "image/webp"));
        b.json["extensionsUsed"] = {"KHR_texture_basisu"};
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), basisOnly))}}));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), webp))}, {"translation", {0, 0, -1}}}));
        auto scene = load(b.write(dir / "untextured", GltfStorage::DataUris));
        std::vector<std::string> expected = {"extension KHR_texture_basisu (ignored)", "images that are not PNG or JPEG (drawn untextured)",
                                             "textures with only a KHR_texture_basisu source (drawn untextured)"};
        EXPECT_EQ(scene->warnings, expected);
        EXPECT_TRUE(scene->textures.empty());
    }
}

// KHR_texture_transform on the base colour texture, as the extension's example defines it
// (offset, then rotation counter-clockwise, then scale), and the TEXCOORD_n set the texture
// (or the transform) names; these were ignored before (the texture read TEXCOORD_0 untransformed).
TEST_F(GltfRender, TextureTransformAndTexCoordSetsPlaceTheTexture) {
    ScratchDirectory dir;
    auto transformed = [&](nlohmann::json transform, const std::string& name) {
        GltfBuilder b = quadrantsModel();
        b.json["extensionsUsed"] = {"KHR_texture_transform"};
        b.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"] = {{"KHR_texture_transform", transform}};
        auto scene = load(b.write(dir / name, GltfStorage::Glb));
        EXPECT_TRUE(scene->warnings.empty()) << scene->warnings.front();
        return render(scene);
    };
    // 90 degrees with offset (0, 1): uv' = (v, 1 - u), the image turned clockwise.
    expectQuadrants(transformed({{"offset", {0, 1}}, {"rotation", glm::half_pi<double>()}}, "rotated"), kBlue, kRed, kWhite, kGreen);
    // The extension's example, the lower left quadrant: blue everywhere.
    expectQuadrants(transformed({{"offset", {0, 1}}, {"rotation", glm::half_pi<double>()}, {"scale", {0.5, 0.5}}}, "example"), kBlue, kBlue,
                    kBlue, kBlue);
    // Offset and scale alone: the top right quadrant.
    expectQuadrants(transformed({{"offset", {0.5, 0}}, {"scale", {0.5, 0.5}}}, "offset"), kGreen, kGreen, kGreen, kGreen);

    // texCoord 1: TEXCOORD_1 holds the quad's uvs, TEXCOORD_0 a constant (the white texel).
    GltfBuilder b = quadrantsModel();
    auto& attributes = b.json["meshes"][0]["primitives"][0]["attributes"];
    const size_t n = b.json["accessors"][attributes["POSITION"].get<size_t>()]["count"];
    attributes["TEXCOORD_1"] = attributes["TEXCOORD_0"];
    attributes["TEXCOORD_0"] = b.addUvs(std::vector<glm::vec2>(n, glm::vec2(0.9f, 0.9f)));
    b.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = 1;
    auto scene = load(b.write(dir / "set1", GltfStorage::Glb));
    EXPECT_TRUE(scene->warnings.empty()) << scene->warnings.front();
    expectQuadrants(render(scene), kRed, kGreen, kBlue, kWhite);
    // KHR_texture_transform's texCoord overrides the texture's.
    b.json["extensionsUsed"] = {"KHR_texture_transform"};
    b.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"] = {{"KHR_texture_transform", {{"texCoord", 0}}}};
    expectQuadrants(render(load(b.write(dir / "override", GltfStorage::Glb))), kWhite, kWhite, kWhite, kWhite);
    // Only TEXCOORD_1 in the primitive.
    b.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"].erase("extensions");
    attributes.erase("TEXCOORD_0");
    expectQuadrants(render(load(b.write(dir / "only1", GltfStorage::Glb))), kRed, kGreen, kBlue, kWhite);
    // A set the primitive lacks: TEXCOORD_0, with a warning.
    GltfBuilder c = quadrantsModel();
    c.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = 2;
    auto missing = load(c.write(dir / "missing", GltfStorage::Glb));
    EXPECT_EQ(missing->warnings, std::vector<std::string>{"base colour textures on a missing TEXCOORD_2 (TEXCOORD_0 used)"});
    expectQuadrants(render(missing), kRed, kGreen, kBlue, kWhite);
}

// KHR_materials_pbrSpecularGlossiness (archived, but in older exports and the sample models'
// spec-gloss variants): the diffuse texture and factor are the base colour, roughness is
// 1 - glossiness. Ignored before, such models were drawn as untextured white metal.
TEST_F(GltfRender, SpecularGlossinessDiffuseIsTheBaseColour) {
    ScratchDirectory dir;
    GltfBuilder b = quadrantsModel();
    const int tex = b.json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"];
    b.json["materials"][0] = {{"doubleSided", true},
                              {"extensions",
                               {{"KHR_materials_pbrSpecularGlossiness",
                                 {{"diffuseTexture", {{"index", tex}}}, {"diffuseFactor", {1, 1, 1, 1}}, {"glossinessFactor", 0.25}}}}}};
    b.json["extensionsUsed"] = {"KHR_materials_pbrSpecularGlossiness"};
    auto scene = load(b.write(dir / "specgloss", GltfStorage::Glb));
    EXPECT_EQ(scene->warnings, std::vector<std::string>{"extension KHR_materials_pbrSpecularGlossiness (diffuse and glossiness used, specular ignored)"});
    ASSERT_EQ(scene->materials.size(), 1u);
    EXPECT_EQ(scene->materials[0].metallic, 0.0f);
    EXPECT_EQ(scene->materials[0].roughness, 0.75f);
    expectQuadrants(render(scene), kRed, kGreen, kBlue, kWhite);
    // The diffuse factor multiplies the texture.
    b.json["materials"][0]["extensions"]["KHR_materials_pbrSpecularGlossiness"]["diffuseFactor"] = {0.5, 1, 1, 1};
    scene = load(b.write(dir / "factor", GltfStorage::Glb));
    EXPECT_EQ(scene->materials[0].baseColorFactor, vec4(0.5f, 1, 1, 1));
}

TEST_F(GltfRender, JpegBaseColourTexture) {
    ScratchDirectory dir;
    GltfBuilder b;
    glm::u8vec4 orange{200, 100, 50, 255};
    int tex = b.addTexture(b.addImage(testsupport::encodeJpeg(8, 8, pixels(std::vector<glm::u8vec4>(64, orange))), "image/jpeg"));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex))}}));
    Frame f = render(load(b.write(dir / "jpeg", GltfStorage::Glb)));
    expectSrgbTexel(f.albedo(kWidth / 2, kHeight / 2), orange, 6.0f / 255.0f);
}

TEST_F(GltfRender, BaseColourFactorMultipliesTheTexture) {
    ScratchDirectory dir;
    GltfBuilder b;
    int tex = b.addTexture(b.addImage(testsupport::encodePng(1, 1, pixels({kWhite})), "image/png"));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(0.5f, 0.25f, 0.1f, 1.0f), tex))}}));
    vec3 a = render(load(b.write(dir / "factor", GltfStorage::Glb))).albedo(kWidth / 2, kHeight / 2);
    float white = srgbToLinear(250.0f / 255.0f);
    EXPECT_NEAR(a.r, 0.5f * white, 0.01f);
    EXPECT_NEAR(a.g, 0.25f * white, 0.01f);
    EXPECT_NEAR(a.b, 0.1f * white, 0.01f);
}

// COLOR_0 multiplies the base colour (factor x texture), as float VEC3, normalized unsigned-byte
// VEC4 and unsigned-short VEC4 (the spec's three encodings), with and without normals (flat
// normals duplicate the vertices, which must keep their colours).
TEST_F(GltfRender, VertexColoursMultiplyTheBaseColour) {
    ScratchDirectory dir;
    const vec3 tint{0.8f, 0.4f, 0.2f};
    for (int encoding = 0; encoding < 3; ++encoding)
        for (bool normals : {true, false}) {
            SCOPED_TRACE("encoding " + std::to_string(encoding) + (normals ? ", normals" : ", flat normals"));
            GltfBuilder b;
            int mesh = b.addQuad(1.0f, b.addMaterial(vec4(0.5f, 1.0f, 1.0f, 1.0f)), normals, false);
            int view = -1, accessor = -1;
            const size_t n = 6;  // not indexed: two triangles
            if (encoding == 0) {
                std::vector<vec3> c(n, tint);
                view = b.addBufferView(c.data(), c.size() * sizeof(vec3));
                accessor = b.addAccessor(view, 5126 /* FLOAT */, n, "VEC3");
            } else if (encoding == 1) {
                std::vector<glm::u8vec4> c(n, glm::u8vec4(glm::round(tint * 255.0f), 255));
                view = b.addBufferView(c.data(), c.size() * sizeof(glm::u8vec4));
                accessor = b.addAccessor(view, 5121 /* UNSIGNED_BYTE */, n, "VEC4");
                b.json["accessors"][size_t(accessor)]["normalized"] = true;
            } else {
                std::vector<glm::u16vec4> c(n, glm::u16vec4(glm::round(tint * 65535.0f), 65535));
                view = b.addBufferView(c.data(), c.size() * sizeof(glm::u16vec4));
                accessor = b.addAccessor(view, 5123 /* UNSIGNED_SHORT */, n, "VEC4");
                b.json["accessors"][size_t(accessor)]["normalized"] = true;
            }
            b.json["meshes"][size_t(mesh)]["primitives"][0]["attributes"]["COLOR_0"] = accessor;
            b.addRootNode(b.addNode({{"mesh", mesh}}));
            auto scene = load(b.write(dir / "tinted", GltfStorage::Glb));
            EXPECT_TRUE(scene->warnings.empty()) << scene->warnings.front();
            vec3 a = render(scene).albedo(kWidth / 2, kHeight / 2);
            EXPECT_NEAR(a.r, 0.5f * tint.r, 0.01f);
            EXPECT_NEAR(a.g, tint.g, 0.01f);
            EXPECT_NEAR(a.b, tint.b, 0.01f);
        }
    // A COLOR_0 whose count differs from POSITION's is an error naming both.
    GltfBuilder b;
    int mesh = b.addQuad(1.0f, b.addMaterial(vec4(1)));
    std::vector<vec3> c(2, tint);
    b.json["meshes"][size_t(mesh)]["primitives"][0]["attributes"]["COLOR_0"] =
        b.addAccessor(b.addBufferView(c.data(), c.size() * sizeof(vec3)), 5126, 2, "VEC3");
    b.addRootNode(b.addNode({{"mesh", mesh}}));
    try {
        engine::loadGltfScene(b.write(dir / "short", GltfStorage::Glb).string());
        ADD_FAILURE() << "no error";
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find("attributes.COLOR_0: count 2 differs from POSITION's 4"), std::string::npos) << e.what();
    }
}

TEST_F(GltfRender, GeometryWithoutIndicesOrNormals) {
    ScratchDirectory dir;
    for (bool indexed : {true, false}) {
        for (bool normals : {true, false}) {
            SCOPED_TRACE(std::string(indexed ? "indexed" : "not indexed") + (normals ? ", normals" : ", no normals"));
            GltfBuilder b;
            b.addRootNode(b.addNode({{"mesh", b.addQuad(0.5f, b.addMaterial(vec4(0.2f, 0.6f, 0.9f, 1.0f)), normals, indexed)}}));
            auto scene = load(b.write(dir / "quad", GltfStorage::Glb));
            EXPECT_EQ(scene->vertices.size(), indexed && normals ? 4u : 6u);  // flat normals: three vertices per triangle
            EXPECT_EQ(scene->indices.size(), 6u);
            for (const engine::Vertex& v : scene->vertices) EXPECT_NEAR(v.normal.z, 1.0f, 1e-6f);
            Frame f = render(scene);
            EXPECT_LT(f.depth(kWidth / 2, kHeight / 2), 1.0f);
            EXPECT_EQ(f.depth(1, 1), 1.0f);  // the quad (half-size 0.5) does not reach the corner
            EXPECT_NEAR(f.at(engine::Channel::Normal, kWidth / 2, kHeight / 2).z, 1.0f, 1e-3f);
            EXPECT_NEAR(f.albedo(kWidth / 2, kHeight / 2).g, 0.6f, 0.01f);
        }
    }
}

TEST_F(GltfRender, TriangleStripsAndFansAreUnrolledWithTheirWinding) {
    ScratchDirectory dir;
    const float h = 0.5f;
    struct Case {
        int mode;
        std::vector<glm::vec3> positions;
        std::vector<uint32_t> indices;  // empty: not indexed
    } cases[] = {
        {5, {{-h, -h, 0}, {h, -h, 0}, {-h, h, 0}, {h, h, 0}}, {}},          // strip
        {5, {{-h, h, 0}, {h, h, 0}, {-h, -h, 0}, {h, -h, 0}}, {2, 3, 0, 1}},  // strip, indexed
        {6, {{-h, -h, 0}, {h, -h, 0}, {h, h, 0}, {-h, h, 0}}, {}},          // fan
    };
    for (const Case& c : cases) {
        SCOPED_TRACE("mode " + std::to_string(c.mode) + (c.indices.empty() ? "" : ", indexed"));
        GltfBuilder b;
        int mesh = b.addMesh({{"POSITION", b.addPositions(c.positions)}}, c.indices.empty() ? -1 : b.addIndices(c.indices),
                             b.addMaterial(vec4(1), -1, "OPAQUE", 0.5f, /*doubleSided=*/false));
        b.json["meshes"][size_t(mesh)]["primitives"][0]["mode"] = c.mode;
        b.addRootNode(b.addNode({{"mesh", mesh}}));
        auto scene = load(b.write(dir / "strip", GltfStorage::Glb));
        ASSERT_EQ(scene->indices.size(), 6u);  // two triangles
        for (size_t t = 0; t < 6; t += 3) {
            const auto& v = scene->vertices;
            vec3 n = glm::cross(v[scene->indices[t + 1]].position - v[scene->indices[t]].position,
                                v[scene->indices[t + 2]].position - v[scene->indices[t]].position);
            EXPECT_GT(n.z, 0.0f) << "triangle " << t / 3 << " is not counter-clockwise from +z";
        }
        Frame f = render(scene);  // single-sided: visible only with the right winding
        EXPECT_LT(f.depth(kWidth / 2 - 5, kHeight / 2 - 5), 1.0f);
        EXPECT_LT(f.depth(kWidth / 2 + 5, kHeight / 2 + 5), 1.0f);
    }
}

TEST_F(GltfRender, TrsAndMatrixNodesPlaceTheMesh) {
    ScratchDirectory dir;
    GltfBuilder b;
    int quad = b.addQuad(0.1f, b.addMaterial(vec4(1)));
    // parent: translate (10, 0, 0), rotate 90 degrees about +y, scale 2;
    // child: a column-major matrix translating by (0, 5, 0), holding the mesh.
    const double s = std::sqrt(0.5);
    int child = b.addNode({{"mesh", quad}, {"matrix", {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 5, 0, 1}}});
    int parent = b.addNode({{"translation", {10, 0, 0}}, {"rotation", {0, s, 0, s}}, {"scale", {2, 2, 2}}, {"children", {child}}});
    b.addRootNode(parent);
    auto scene = load(b.write(dir / "nodes", GltfStorage::DataUris));
    glm::mat4 expected = glm::translate(glm::mat4(1), vec3(10, 0, 0)) * glm::rotate(glm::mat4(1), glm::radians(90.0f), vec3(0, 1, 0)) *
                         glm::scale(glm::mat4(1), vec3(2)) * glm::translate(glm::mat4(1), vec3(0, 5, 0));
    const vec3 corners[] = {{-0.1f, -0.1f, 0}, {0.1f, -0.1f, 0}, {0.1f, 0.1f, 0}, {-0.1f, 0.1f, 0}};
    ASSERT_EQ(scene->vertices.size(), 4u);
    for (int i = 0; i < 4; ++i) {
        vec3 want = vec3(expected * vec4(corners[i], 1));
        EXPECT_NEAR(glm::distance(scene->vertices[size_t(i)].position, want), 0.0f, 1e-5f) << "corner " << i;
        EXPECT_NEAR(glm::distance(scene->vertices[size_t(i)].normal, vec3(1, 0, 0)), 0.0f, 1e-5f);  // +z rotated to +x
    }
    EXPECT_NEAR(scene->boundsMin.y, 9.8f, 1e-5f);
    EXPECT_NEAR(scene->boundsMax.x, 10.0f, 1e-5f);

    // Rendered: a small quad translated right of the centre lands right of the centre.
    GltfBuilder m;
    m.addRootNode(m.addNode({{"mesh", m.addQuad(0.1f, m.addMaterial(vec4(1)))}, {"translation", {0.4, 0, 0}}}));
    Frame f = render(load(m.write(dir / "moved", GltfStorage::Glb)));
    EXPECT_LT(f.depth(columnOf(0.4f), kHeight / 2), 1.0f);
    EXPECT_EQ(f.depth(kWidth / 2, kHeight / 2), 1.0f);
}

TEST_F(GltfRender, DefaultSceneOrAllRootNodes) {
    ScratchDirectory dir;
    GltfBuilder b;
    int mat = b.addMaterial(vec4(1));
    int left = b.addNode({{"mesh", b.addQuad(0.1f, mat)}, {"translation", {-5, 0, 0}}});
    int right = b.addNode({{"mesh", b.addQuad(0.1f, mat)}, {"translation", {5, 0, 0}}});
    b.addRootNode(left);
    b.json["scenes"].push_back({{"nodes", {right}}});
    b.json["scene"] = 1;
    auto scene = load(b.write(dir / "scene1", GltfStorage::Glb));
    EXPECT_NEAR(scene->boundsMin.x, 4.9f, 1e-5f);  // only scene 1's node
    b.json.erase("scene");
    scene = load(b.write(dir / "roots", GltfStorage::Glb));
    EXPECT_NEAR(scene->boundsMin.x, -5.1f, 1e-5f);  // no default scene: every root node
    EXPECT_NEAR(scene->boundsMax.x, 5.1f, 1e-5f);
}

// A quad with uv in [0, 2] across it, sampled at u (or v) = 0.45, 0.7, 1.3, 1.55 (all in view).
std::vector<vec3> wrapColumns(GltfRender& t, const ScratchDirectory& dir, int wrapS, int wrapT, bool vertical) {
    GltfBuilder b;
    auto image = vertical ? testsupport::encodePng(1, 2, pixels({kRed, kGreen})) : testsupport::encodePng(2, 1, pixels({kRed, kGreen}));
    int tex = b.addTexture(b.addImage(image, "image/png"), b.addSampler(kNearest, kNearest, wrapS, wrapT));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex), true, true, 2.0f)}}));
    Frame f = t.render(t.load(b.write(dir / ("wrap" + std::to_string(wrapS) + "_" + std::to_string(wrapT)), GltfStorage::Glb)));
    std::vector<vec3> out;
    for (float u : {0.45f, 0.7f, 1.3f, 1.55f}) {
        // uv (0, 2) at the quad's bottom-left, (2, 0) at its top-right: x = u - 1, y = 1 - v.
        out.push_back(vertical ? f.albedo(kWidth / 2, rowOf(1.0f - u)) : f.albedo(columnOf(u - 1.0f), kHeight / 2));
    }
    return out;
}

TEST_F(GltfRender, EveryWrapModeInBothDirections) {
    ScratchDirectory dir;
    const vec3 r(srgbToLinear(220 / 255.0f), srgbToLinear(30 / 255.0f), srgbToLinear(20 / 255.0f));
    const vec3 g(srgbToLinear(20 / 255.0f), srgbToLinear(200 / 255.0f), srgbToLinear(40 / 255.0f));
    struct Case {
        int mode;
        std::vector<vec3> expected;
    } cases[] = {{kRepeat, {r, g, r, g}}, {kClamp, {r, g, g, g}}, {kMirror, {r, g, g, r}}};
    for (const Case& c : cases) {
        for (bool vertical : {false, true}) {
            SCOPED_TRACE("wrap mode " + std::to_string(c.mode) + (vertical ? " (wrapT)" : " (wrapS)"));
            auto got = wrapColumns(*this, dir, vertical ? kRepeat : c.mode, vertical ? c.mode : kRepeat, vertical);
            for (size_t i = 0; i < 4; ++i) EXPECT_LT(glm::distance(got[i], c.expected[i]), 0.02f) << "sample " << i;
        }
    }
}

TEST_F(GltfRender, MagnificationFilterNearestOrLinear) {
    ScratchDirectory dir;
    for (int mag : {kNearest, kLinear}) {
        GltfBuilder b;
        int tex = b.addTexture(b.addImage(testsupport::encodePng(2, 1, pixels({kRed, kGreen})), "image/png"),
                               b.addSampler(mag, kLinearMipLinear, kClamp, kClamp));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex))}}));
        Frame f = render(load(b.write(dir / ("mag" + std::to_string(mag)), GltfStorage::Glb)));
        // u = 0.4: the red texel's area, 0.3 texels from the red texel's centre towards green.
        vec3 a = f.albedo(columnOf(2 * 0.4f - 1), kHeight / 2);
        if (mag == kNearest) EXPECT_LT(a.g, 0.02f);
        else EXPECT_GT(a.g, 0.05f);  // blended with green in linear light
    }
}

TEST_F(GltfRender, MinificationUsesTheMipChainUnlessTheFilterHasNone) {
    ScratchDirectory dir;
    std::vector<glm::u8vec4> checker;
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) checker.push_back((x + y) % 2 ? glm::u8vec4(255) : glm::u8vec4(0, 0, 0, 255));
    auto png = testsupport::encodePng(64, 64, pixels(checker));
    for (int minFilter : {kNearest, kNearestMipNearest, kLinearMipLinear}) {
        SCOPED_TRACE("minFilter " + std::to_string(minFilter));
        GltfBuilder b;
        int tex = b.addTexture(b.addImage(png, "image/png"), b.addSampler(kNearest, minFilter, kRepeat, kRepeat));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex), true, true, 16.0f)}}));
        Frame f = render(load(b.write(dir / ("min" + std::to_string(minFilter)), GltfStorage::Glb)));
        // About 12 texels per pixel: without mipmaps each pixel is one texel (black or white);
        // with them, the averaged checker (linear 0.5).
        int extreme = 0, grey = 0;
        for (uint32_t y = 4; y < kHeight - 4; ++y)
            for (uint32_t x = 4; x < kWidth - 4; ++x) {
                float v = f.albedo(x, y).g;
                extreme += v < 0.05f || v > 0.95f;
                grey += std::fabs(v - 0.5f) < 0.1f;
            }
        int total = (kWidth - 8) * (kHeight - 8);
        if (minFilter == kNearest) EXPECT_GT(extreme, total * 9 / 10);
        else EXPECT_GT(grey, total * 9 / 10);
    }
}

TEST_F(GltfRender, TextureLodBiasMovesTheMipLevel) {
    // A 64x64 one-texel checker at about one texel per pixel: mip 0 shows black and white; a bias
    // of +3 samples mip 3, where every texel is the checker's average (linear 0.5). A negative
    // bias below mip 0 stays at mip 0 (the sharpest there is).
    ScratchDirectory dir;
    std::vector<glm::u8vec4> checker;
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) checker.push_back((x + y) % 2 ? glm::u8vec4(255) : glm::u8vec4(0, 0, 0, 255));
    GltfBuilder b;
    int tex = b.addTexture(b.addImage(testsupport::encodePng(64, 64, pixels(checker)), "image/png"),
                           b.addSampler(kNearest, kNearestMipNearest, kRepeat, kRepeat));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex))}}));
    auto scene = load(b.write(dir / "bias", GltfStorage::Glb));
    auto fractions = [&](float bias) {
        Frame f = render(scene, false, frontCamera(), bias);
        int extreme = 0, grey = 0, total = 0;
        for (uint32_t y = 4; y < kHeight - 4; ++y)
            for (uint32_t x = 4; x < kWidth - 4; ++x, ++total) {
                float v = f.albedo(x, y).g;
                extreme += v < 0.05f || v > 0.95f;
                grey += std::fabs(v - 0.5f) < 0.1f;
            }
        return std::pair{float(extreme) / float(total), float(grey) / float(total)};
    };
    EXPECT_GT(fractions(0.0f).first, 0.9f);
    EXPECT_GT(fractions(-1.0f).first, 0.9f);
    EXPECT_GT(fractions(3.0f).second, 0.9f);
}

TEST(TextureLodBias, Log2OfTheUpscaleRatio) {
    EXPECT_FLOAT_EQ(engine::textureLodBiasForUpscale(960, 1920), -1.0f);
    EXPECT_FLOAT_EQ(engine::textureLodBiasForUpscale(1920, 3840), -1.0f);
    EXPECT_NEAR(engine::textureLodBiasForUpscale(1280, 3840), -1.5849625f, 1e-6f);
    EXPECT_EQ(engine::textureLodBiasForUpscale(1920, 1920), 0.0f);  // native
    EXPECT_EQ(engine::textureLodBiasForUpscale(0, 1920), 0.0f);
}

TEST_F(GltfRender, AlphaMaskShowsTheBackgroundWhereAlphaIsBelowTheCutoff) {
    ScratchDirectory dir;
    for (std::string mode : {"MASK", "OPAQUE", "BLEND"}) {
        SCOPED_TRACE(mode);
        GltfBuilder b;
        // Left texel opaque, right texel alpha 100/255 (below the 0.5 cutoff).
        glm::u8vec4 seeThrough{20, 200, 40, 100};
        int tex = b.addTexture(b.addImage(testsupport::encodePng(2, 1, pixels({kRed, seeThrough})), "image/png"),
                               b.addSampler(kNearest, kNearest, kClamp, kClamp));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex, mode, 0.5f))}}));
        auto scene = load(b.write(dir / mode, GltfStorage::Glb));
        ASSERT_EQ(scene->draws.size(), 1u);
        EXPECT_EQ(scene->materials[scene->draws[0].material].alphaMask, mode == "MASK");
        if (mode == "BLEND") {
            ASSERT_EQ(scene->warnings.size(), 1u);
            EXPECT_EQ(scene->warnings[0], "alphaMode BLEND (drawn opaque)");
        }
        Frame f = render(scene);
        EXPECT_LT(f.depth(kWidth / 4, kHeight / 2), 1.0f);
        if (mode == "MASK") {
            EXPECT_EQ(f.depth(3 * kWidth / 4, kHeight / 2), 1.0f);  // discarded: the background
            EXPECT_EQ(f.albedo(3 * kWidth / 4, kHeight / 2), vec3(0));
        } else {
            EXPECT_LT(f.depth(3 * kWidth / 4, kHeight / 2), 1.0f);
        }
    }
    // Raising the cutoff above the opaque texel's alpha removes everything.
    GltfBuilder b;
    int tex = b.addTexture(b.addImage(testsupport::encodePng(1, 1, pixels({glm::u8vec4(255, 255, 255, 200)})), "image/png"));
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex, "MASK", 0.9f))}}));
    EXPECT_EQ(render(load(b.write(dir / "cutoff", GltfStorage::Glb))).depth(kWidth / 2, kHeight / 2), 1.0f);
}

TEST_F(GltfRender, SingleSidedMaterialsCullBackFacesAndMirroringKeepsFrontFaces) {
    ScratchDirectory dir;
    const double s = std::sqrt(0.5);
    struct Case {
        const char* name;
        bool doubleSided;
        nlohmann::json transform;
        bool visible;
    } cases[] = {
        {"front, single-sided", false, nlohmann::json::object(), true},
        {"back, single-sided", false, {{"rotation", {0, 1, 0, 0}}}, false},  // 180 degrees about y
        {"back, double-sided", true, {{"rotation", {0, 1, 0, 0}}}, true},
        {"mirrored front, single-sided", false, {{"scale", {-1, 1, 1}}}, true},
        {"tilted front, single-sided", false, {{"rotation", {0, s * 0.5, 0, std::sqrt(1 - 0.125)}}}, true},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        GltfBuilder b;
        nlohmann::json node = c.transform;
        node["mesh"] = b.addQuad(0.5f, b.addMaterial(vec4(1), -1, "OPAQUE", 0.5f, c.doubleSided));
        b.addRootNode(b.addNode(node));
        Frame f = render(load(b.write(dir / "sided", GltfStorage::Glb)));
        EXPECT_EQ(f.depth(kWidth / 2, kHeight / 2) < 1.0f, c.visible);
    }
}

TEST_F(GltfRender, MetallicAndRoughnessFactorsChangeTheLighting) {
    ScratchDirectory dir;
    // A horizontal quad seen from the sun's mirror direction: its centre holds the sun's highlight.
    const vec3 sun = glm::normalize(vec3(0.45f, 0.75f, 0.3f));
    engine::CameraPose pose;
    pose.position = 2.0f * vec3(-sun.x, sun.y, -sun.z);
    pose.target = vec3(0);
    auto lit = [&](float metallic, float roughness) {
        GltfBuilder b;
        int mat = b.addMaterial(vec4(0.8f, 0.5f, 0.3f, 1), -1, "OPAQUE", 0.5f, true, metallic, roughness);
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, mat)}, {"rotation", {-0.7071068, 0, 0, 0.7071068}}}));  // facing +y
        return render(load(b.write(dir / "pbr", GltfStorage::Glb)), true, pose).at(engine::Channel::Color, kWidth / 2, kHeight / 2);
    };
    vec3 dielectricRough = lit(0.0f, 1.0f), metalRough = lit(1.0f, 1.0f), dielectricSmooth = lit(0.0f, 0.15f);
    EXPECT_GT(glm::distance(dielectricRough, metalRough), 0.05f);
    EXPECT_GT(glm::length(dielectricSmooth), glm::length(dielectricRough) + 0.1f);  // the sharp highlight
}

// A rough metal facing away from the sun (glTF's default material: white, metallic 1, roughness
// 1) reflects the surroundings diffusely: it was black, having neither diffuse ambient light nor
// the sharp environment reflection, which fades out with roughness.
TEST_F(GltfRender, RoughMetalsAwayFromTheSunAreNotBlack) {
    ScratchDirectory dir;
    engine::CameraPose pose = frontCamera();
    pose.position = vec3(0, 0, -1);  // the quad turned to face -z, away from the sun (0.45, 0.75, 0.3)
    auto lit = [&](int material, const std::string& name, GltfBuilder b) {
        b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, material)}, {"rotation", {0, 1, 0, 0}}}));
        return render(load(b.write(dir / name, GltfStorage::Glb)), true, pose).at(engine::Channel::Color, kWidth / 2, kHeight / 2);
    };
    GltfBuilder dielectric;
    const int white = dielectric.addMaterial(vec4(1), -1, "OPAQUE", 0.5f, true, 0.0f, 1.0f);
    const vec3 rough = lit(white, "dielectric", dielectric);
    const vec3 metal = lit(-1, "default_material", GltfBuilder());
    EXPECT_GT(rough.g, 0.02f);
    for (int c = 0; c < 3; ++c) EXPECT_GT(metal[c], 0.5f * rough[c]) << "channel " << c << ": " << metal[c] << " vs " << rough[c];
}

TEST_F(GltfRender, AutomaticOrbitSeesTheScene) {
    ScratchDirectory dir;
    GltfBuilder b;
    int mat = b.addMaterial(vec4(0.9f, 0.4f, 0.1f, 1));
    // A 3 cm object far from the origin: the orbit must frame it and fit its clip planes.
    b.addRootNode(b.addNode({{"mesh", b.addQuad(0.015f, mat)}, {"translation", {300, 40, -200}}, {"rotation", {-0.5, 0, 0, 0.8660254}}}));
    auto scene = load(b.write(dir / "small", GltfStorage::Glb));
    engine::CameraPath orbit = engine::CameraPath::orbitAround(scene->boundsMin, scene->boundsMax);
    for (float t : {0.0f, 7.0f}) {
        Frame f = render(scene, false, orbit.pose(t));
        const auto& depth = f.channel(engine::Channel::Depth).data;
        size_t covered = size_t(std::count_if(depth.begin(), depth.end(), [](float d) { return d < 1.0f; }));
        EXPECT_GT(covered, depth.size() / 50) << "t = " << t;
    }
}

// A checkered quad (16x16 texels, nearest) with a second, smaller quad 0.5 m in front of it,
// the whole model translated by `offset` (as geo-referenced files place their content).
// `behind`: a 20 km quad 5 km behind the camera too (a large model, out of view).
GltfBuilder checkerModel(glm::dvec3 offset, bool behind = false) {
    GltfBuilder b;
    std::vector<glm::u8vec4> texels;
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) texels.push_back((x + y) % 2 ? kWhite : kBlue);
    int tex = b.addTexture(b.addImage(testsupport::encodePng(16, 16, pixels(texels)), "image/png"), b.addSampler(kNearest, kNearest, kClamp, kClamp));
    int back = b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1), tex))}});
    int front = b.addNode({{"mesh", b.addQuad(0.15f, b.addMaterial(vec4(0.9f, 0.3f, 0.1f, 1)))}, {"translation", {0.2, -0.1, 0.5}}});
    std::vector<int> children{back, front};
    if (behind) children.push_back(b.addNode({{"mesh", b.addQuad(1e4f, b.addMaterial(vec4(1)))}, {"translation", {0.0, 0.0, 5000.0}}}));
    b.addRootNode(b.addNode({{"translation", {offset.x, offset.y, offset.z}}, {"children", children}}));
    return b;
}

// Geo-referenced content: the same model and the same camera relative to it, 1e5, 1e6 and 1e7 m
// from the world origin, must render as at the origin (the matrices are composed in double,
// camera-relative), with the same motion vectors for a camera moving by a millimetre a frame.
// With float world-space matrices, 1e6 m rounds vertices and the camera to 6 cm steps.
TEST_F(GltfRender, ScenesFarFromTheOriginRenderAsAtTheOrigin) {
    ScratchDirectory dir;
    auto renderAt = [&](glm::dvec3 offset, bool behind = false) {
        auto scene = load(checkerModel(offset, behind).write(dir / "far", GltfStorage::Glb));
        if (glm::length(offset) > 0.0) {
            EXPECT_NE(scene->origin, glm::dvec3(0.0));  // stored relative to its centre
        }
        engine::Renderer r(ctx(), nativeDesc(scene, true));
        engine::FrameParams params;
        params.camera.position = offset + glm::dvec3(0.3, 0.2, 1.2);
        params.camera.target = offset + glm::dvec3(0.05, 0.0, 0.0);
        params.camera.zNear = 0.01f;
        params.camera.zFar = 10.0f;
        params.previousCamera = params.camera;
        params.previousCamera.position += glm::dvec3(0.001, 0.0005, 0.0);  // 1 mm: about 0.05 px
        params.previousCamera.target += glm::dvec3(0.001, 0.0, 0.0);
        uint32_t channels = engine::Channel::Albedo | engine::Channel::Depth | engine::Channel::Motion | engine::Channel::Color;
        return Frame{engine::renderSingleFrame(ctx(), r, params, channels)};
    };
    auto maxDifference = [](const Frame& a, const Frame& b, engine::Channel c) {
        const auto &x = a.channel(c).data, &y = b.channel(c).data;
        float worst = 0.0f;
        for (size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::fabs(x[i] - y[i]));
        return worst;
    };
    auto differingPixels = [](const Frame& a, const Frame& b) {  // colour differs by more than 2/255
        const auto &x = a.channel(engine::Channel::Color).data, &y = b.channel(engine::Channel::Color).data;
        size_t n = 0;
        for (size_t i = 0; i < x.size(); i += 3)
            n += std::max({std::fabs(x[i] - y[i]), std::fabs(x[i + 1] - y[i + 1]), std::fabs(x[i + 2] - y[i + 2])}) > 2.0f / 255.0f;
        return n;
    };
    const Frame reference = renderAt(glm::dvec3(0.0));
    // The motion of the reference: the camera's millimetre, a fraction of a pixel, not zero.
    float referenceMotion = maxDifference(reference, reference, engine::Channel::Motion);
    for (float v : reference.channel(engine::Channel::Motion).data) referenceMotion = std::max(referenceMotion, std::fabs(v));
    EXPECT_GT(referenceMotion, 0.01f);
    // The last: a 20 km model 1e6 m out (out for its size by only 70 radii). One origin serves the
    // whole model, so the checker, 2.5 km from its centre, keeps float steps of 0.24 mm there:
    // motion within a few hundredths of a pixel, a pixel or two flipping at edges, depth within 1e-3.
    for (glm::dvec4 offset : {glm::dvec4(1e5, 0, 0, 0), glm::dvec4(0, 1e6, 0, 0), glm::dvec4(-3e6, 2e5, 1e7, 0), glm::dvec4(1e6, 0, 0, 1)}) {
        const Frame far = renderAt(glm::dvec3(offset), offset.w != 0.0);
        const size_t differing = differingPixels(reference, far);
        const float motion = maxDifference(reference, far, engine::Channel::Motion);
        const float depth = maxDifference(reference, far, engine::Channel::Depth);
        std::printf("offset (%g, %g, %g)%s: %zu of %u pixels differ, motion differs by %.2g px (reference motion up to %.2g px), depth by %.2g\n",
                    offset.x, offset.y, offset.z, offset.w != 0.0 ? " in a 20 km model" : "", differing, kWidth * kHeight, motion,
                    referenceMotion, depth);
        const std::string where = "offset " + std::to_string(offset.x) + ", " + std::to_string(offset.y) + ", " + std::to_string(offset.z);
        EXPECT_LE(differing, size_t(kWidth * kHeight / 200)) << where;
        const bool large = offset.w != 0.0;  // (depth 1 - near/z amplifies the 0.24 mm steps: 1e-3 is ~5 mm here)
        EXPECT_LT(motion, large ? 0.05f : 0.01f) << where;
        EXPECT_LT(depth, large ? 1e-3f : 1e-4f) << where;
    }
}

// The automatic orbit of a model 2e6 m out renders frame for frame as the orbit of the same model
// at the origin, motion vectors included (float camera positions moved the image in 25 cm jumps
// or not at all, and rounded the model itself to 25 cm).
TEST_F(GltfRender, OrbitFarFromTheOriginMatchesTheOrbitAtTheOrigin) {
    ScratchDirectory dir;
    constexpr uint32_t kFrames = 4;
    auto orbitFrames = [&](glm::dvec3 offset) {
        auto scene = load(checkerModel(offset).write(dir / "orbit", GltfStorage::Glb));
        engine::CameraPath orbit = engine::CameraPath::orbitAround(scene->boundsMin, scene->boundsMax);
        engine::Renderer r(ctx(), nativeDesc(scene, true));
        std::vector<Frame> frames;
        for (uint32_t frame = 0; frame < kFrames; ++frame)
            frames.push_back({engine::renderSingleFrame(ctx(), r, engine::FrameParams::onPath(orbit, frame, 30.0f, 3.0f),
                                                        engine::Channel::Color | engine::Channel::Motion)});
        return frames;
    };
    const std::vector<Frame> reference = orbitFrames(glm::dvec3(0.0)), far = orbitFrames(glm::dvec3(2e6, 3e5, -1e6));
    for (uint32_t frame = 0; frame < kFrames; ++frame) {
        const auto &a = reference[frame].channel(engine::Channel::Color).data, &b = far[frame].channel(engine::Channel::Color).data;
        size_t differing = 0;
        for (size_t i = 0; i < a.size(); i += 3)
            differing += std::max({std::fabs(a[i] - b[i]), std::fabs(a[i + 1] - b[i + 1]), std::fabs(a[i + 2] - b[i + 2])}) > 2.0f / 255.0f;
        const auto &ma = reference[frame].channel(engine::Channel::Motion).data, &mb = far[frame].channel(engine::Channel::Motion).data;
        float motionError = 0.0f, motion = 0.0f;
        for (size_t i = 0; i < ma.size(); ++i) {
            motionError = std::max(motionError, std::fabs(ma[i] - mb[i]));
            motion = std::max(motion, std::fabs(ma[i]));
        }
        std::printf("orbit frame %u: %zu of %u pixels differ, motion differs by %.2g px (motion up to %.2g px)\n", frame, differing,
                    kWidth * kHeight, motionError, motion);
        EXPECT_LE(differing, size_t(kWidth * kHeight / 200)) << "frame " << frame;
        EXPECT_LT(motionError, 0.01f) << "frame " << frame;
        if (frame > 0) {
            EXPECT_GT(motion, 0.02f) << "frame " << frame;
        }
    }
}

// Every unsupported feature: one named warning, however often it occurs; the rest still loads.
TEST(GltfWarnings, OneNamedWarningPerUnsupportedFeature) {
    ScratchDirectory dir;
    GltfBuilder b;
    int tex = b.addTexture(b.addImage(testsupport::encodePng(1, 1, pixels({kWhite})), "image/png"));
    for (int i = 0; i < 3; ++i) {
        int mat = b.addMaterial(vec4(1), tex, "BLEND");
        b.json["materials"][size_t(mat)]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"] = {
            {"KHR_texture_transform", {{"scale", {2, 2}}}}};
        b.json["materials"][size_t(mat)]["normalTexture"] = {{"index", tex}};
        int mesh = b.addQuad(0.5f, mat);
        auto& attributes = b.json["meshes"][size_t(mesh)]["primitives"][0]["attributes"];
        attributes["COLOR_1"] = attributes["NORMAL"];  // a second set of vertex colours, on every quad
        b.addRootNode(b.addNode({{"mesh", mesh}, {"translation", {i, 0, 0}}}));
    }
    b.json["extensionsUsed"] = {"KHR_texture_transform", "KHR_materials_emissive_strength"};
    // Two line primitives, a camera, a skin, an animation, vertex colours.
    int positions = b.addPositions({{0, 0, 0}, {1, 0, 0}});
    for (int i = 0; i < 2; ++i) {
        nlohmann::json lines = {{"attributes", {{"POSITION", positions}, {"COLOR_1", positions}}}, {"mode", 1}};
        b.json["meshes"].push_back({{"primitives", nlohmann::json::array({lines})}});
        b.addRootNode(b.addNode({{"mesh", b.json["meshes"].size() - 1}}));
    }
    b.json["cameras"] = {{{"type", "perspective"}, {"perspective", {{"yfov", 1.0}, {"znear", 0.1}}}}};
    b.json["skins"] = {{{"joints", {0}}}};
    b.json["animations"] = nlohmann::json::array({{{"channels", nlohmann::json::array()}, {"samplers", nlohmann::json::array()}}});
    engine::SceneGeometry scene = engine::loadGltfScene(b.write(dir / "features", GltfStorage::Glb).string());
    EXPECT_EQ(scene.indices.size(), 18u);  // the three quads
    std::vector<std::string> expected = {
        "alphaMode BLEND (drawn opaque) (3 occurrences)",
        "animations (the scene is drawn static)",
        "cameras (the engine's camera paths are used)",
        "extension KHR_materials_emissive_strength (ignored)",
        "normalTexture (ignored) (3 occurrences)",
        "primitive mode LINES (skipped; only triangles are drawn) (2 occurrences)",
        "skins (meshes drawn unskinned with their node transforms)",
        "vertex colours beyond COLOR_0 (ignored) (3 occurrences)",
    };
    EXPECT_EQ(scene.warnings, expected);
}

// Sparse accessors (the SimpleSparseAccessor sample): the listed elements replace the dense
// ones, or the zeros of an accessor without a buffer view; the primitive is drawn.
// Morph targets are drawn at their default weights (the node's, else the mesh's): the pose a
// viewer shows without animation. They were ignored, drawing the base geometry whatever the
// weights said.
TEST(GltfGeometry, MorphTargetsAreAppliedAtTheirDefaultWeights) {
    ScratchDirectory dir;
    GltfBuilder b;
    const int mesh = b.addQuad(1.0f, b.addMaterial(vec4(1)));
    const int node = b.addNode({{"mesh", mesh}});
    b.addRootNode(node);
    auto& primitive = b.json["meshes"][size_t(mesh)]["primitives"][0];
    const vec3 up(0, 0, 1), tilted = glm::normalize(vec3(1, 0, 1));
    primitive["targets"] = {{{"POSITION", b.addNormals(std::vector<vec3>(4, vec3(1, 0, 0)))}},
                            {{"POSITION", b.addNormals(std::vector<vec3>(4, vec3(0, 2, 0)))}, {"NORMAL", b.addNormals(std::vector<vec3>(4, tilted - up))}}};
    auto load = [&](const std::string& name) {
        engine::SceneGeometry scene = engine::loadGltfScene(b.write(dir / name, GltfStorage::Glb).string());
        EXPECT_EQ(scene.warnings, std::vector<std::string>{"morph targets (drawn at their default weights, not animated)"});
        EXPECT_EQ(scene.vertices.size(), 4u);
        return scene;
    };
    engine::SceneGeometry base = load("no_weights");  // no weights: all zero, the base geometry
    EXPECT_EQ(base.vertices[0].position, vec3(-1, -1, 0));
    b.json["meshes"][size_t(mesh)]["weights"] = {0.5, 0.25};
    engine::SceneGeometry meshWeights = load("mesh_weights");
    EXPECT_EQ(meshWeights.vertices[0].position, vec3(-0.5f, -0.5f, 0));
    EXPECT_EQ(meshWeights.vertices[0].normal, glm::normalize(up + 0.25f * (tilted - up)));
    b.json["nodes"][size_t(node)]["weights"] = {0.0, 1.0};  // the node's override the mesh's
    engine::SceneGeometry nodeWeights = load("node_weights");
    EXPECT_EQ(nodeWeights.vertices[2].position, vec3(1, 3, 0));
    EXPECT_NEAR(glm::distance(nodeWeights.vertices[2].normal, tilted), 0.0f, 1e-6f);
}

// EXT_mesh_gpu_instancing: each instance (TRANSLATION, ROTATION, SCALE, composed as T * R * S
// after the node's own transform) becomes a copy of the mesh. The extension was ignored before,
// drawing one copy at the node.
TEST(GltfGeometry, GpuInstancesAreExpanded) {
    ScratchDirectory dir;
    GltfBuilder b;
    const int node = b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1)))}, {"translation", {0, 0, -5}}});
    b.addRootNode(node);
    const std::vector<vec3> translations = {{0, 0, 0}, {10, 0, 0}, {0, 10, 0}};
    const std::vector<glm::vec4> rotations = {{0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0.70710678f, 0.70710678f}};  // x, y, z, w
    const std::vector<vec3> scales(3, vec3(2, 2, 2));
    const int rotation = b.addAccessor(b.addBufferView(rotations.data(), rotations.size() * sizeof(glm::vec4)), 5126, 3, "VEC4");
    b.json["nodes"][size_t(node)]["extensions"] = {
        {"EXT_mesh_gpu_instancing",
         {{"attributes", {{"TRANSLATION", b.addNormals(translations)}, {"ROTATION", rotation}, {"SCALE", b.addNormals(scales)}}}}}};
    b.json["extensionsUsed"] = {"EXT_mesh_gpu_instancing"};
    engine::SceneGeometry scene = engine::loadGltfScene(b.write(dir / "instanced", GltfStorage::Glb).string());
    EXPECT_TRUE(scene.warnings.empty()) << scene.warnings.front();
    ASSERT_EQ(scene.vertices.size(), 12u);
    EXPECT_EQ(scene.indices.size(), 18u);
    // Quad corner 1 is (1, -1, 0): scaled x2, moved by each instance, then by the node.
    EXPECT_EQ(scene.vertices[1].position, vec3(2, -2, -5));
    EXPECT_EQ(scene.vertices[5].position, vec3(12, -2, -5));
    // Turned 90 degrees about z: (2, -2) -> (2, 2).
    const vec3 turned = scene.vertices[9].position;
    EXPECT_NEAR(glm::distance(turned, vec3(2, 12, -5)), 0.0f, 1e-5f) << turned.x << " " << turned.y << " " << turned.z;
    // Counts that disagree are an error naming the attribute.
    b.json["nodes"][size_t(node)]["extensions"]["EXT_mesh_gpu_instancing"]["attributes"]["SCALE"] = b.addNormals({vec3(1)});
    try {
        engine::loadGltfScene(b.write(dir / "bad", GltfStorage::Glb).string());
        ADD_FAILURE() << "loaded";
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find("EXT_mesh_gpu_instancing.attributes.SCALE: count 1 differs from the other attributes' 3"),
                  std::string::npos)
            << e.what();
    }
    // Instances times the mesh's vertices are checked against the vertex limit before any
    // matrix is allocated: 3 instances of a 4-vertex quad under a limit of 11 vertices.
    b.json["nodes"][size_t(node)]["extensions"]["EXT_mesh_gpu_instancing"]["attributes"]["SCALE"] = b.addNormals(scales);
    engine::GltfLimits limits;
    limits.maxVertices = 11;
    try {
        engine::loadGltfScene(b.write(dir / "over", GltfStorage::Glb).string(), limits);
        ADD_FAILURE() << "loaded";
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find("3 instances of a mesh of 4 vertices exceed the vertex limit (11)"), std::string::npos) << e.what();
    }
}

TEST(GltfGeometry, SparseAccessorsReplaceTheirElements) {
    ScratchDirectory dir;
    GltfBuilder b;
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(1)))}}));
    const uint16_t which[] = {2};
    const vec3 moved[] = {{3, 4, 0}};
    auto sparse = [&](int count) {
        return nlohmann::json{{"count", count},
                              {"indices", {{"bufferView", b.addBufferView(which, sizeof which)}, {"componentType", 5123}}},
                              {"values", {{"bufferView", b.addBufferView(moved, sizeof moved)}}}};
    };
    b.json["accessors"][0]["sparse"] = sparse(1);  // POSITION: corner 2 (1, 1, 0) moves to (3, 4, 0)
    engine::SceneGeometry scene = engine::loadGltfScene(b.write(dir / "sparse", GltfStorage::Glb).string());
    EXPECT_TRUE(scene.warnings.empty()) << scene.warnings.front();
    const vec3 expected[] = {{-1, -1, 0}, {1, -1, 0}, {3, 4, 0}, {-1, 1, 0}};
    ASSERT_EQ(scene.vertices.size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(scene.vertices[size_t(i)].position, expected[i]) << "vertex " << i;
    EXPECT_EQ(scene.indices.size(), 6u);
    EXPECT_EQ(scene.boundsMax, glm::dvec3(3, 4, 0));

    // Without a buffer view the dense elements are zeros: only vertex 2 leaves the origin.
    b.json["accessors"][0].erase("bufferView");
    scene = engine::loadGltfScene(b.write(dir / "zeros", GltfStorage::DataUris).string());
    ASSERT_EQ(scene.vertices.size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(scene.vertices[size_t(i)].position, i == 2 ? vec3(3, 4, 0) : vec3(0)) << "vertex " << i;

    // Bad sparse data is an error naming the field.
    const uint16_t past[] = {7};
    const int pastView = b.addBufferView(past, sizeof past);
    auto error = [&](const std::function<void(nlohmann::json&)>& edit) {
        GltfBuilder c = b;
        edit(c.json["accessors"][0]["sparse"]);
        try {
            engine::loadGltfScene(c.write(dir / "bad", GltfStorage::Glb).string());
        } catch (const engine::Error& e) {
            return std::string(e.what());
        }
        return std::string("(loaded without an error)");
    };
    auto contains = [](const std::string& message, const std::string& part) {
        return ::testing::AssertionResult(message.find(part) != std::string::npos) << message;
    };
    EXPECT_TRUE(contains(error([](nlohmann::json& s) { s["count"] = 5; }), "attributes.POSITION).sparse.count: 5 is not in [1, 4]"));
    EXPECT_TRUE(contains(error([](nlohmann::json& s) { s["indices"]["componentType"] = 5126; }),
                         "sparse.indices: component type FLOAT, expected UNSIGNED_BYTE or UNSIGNED_SHORT or UNSIGNED_INT"));
    EXPECT_TRUE(contains(error([](nlohmann::json& s) { s["values"]["byteOffset"] = 4; }), "sparse.values: 12 bytes from byte offset 4 exceed"));
    EXPECT_TRUE(contains(error([&](nlohmann::json& s) { s["indices"]["bufferView"] = pastView; }),
                         "sparse.indices: index 7 at position 0 is not below the accessor's count 4"));
}

// An index accessor without a buffer view (the spec allows it: all zeros unless sparse). Plain,
// every triangle is (0, 0, 0): loaded, nothing read out of bounds, nothing drawn. Sparse, the
// substitutions give the real indices and the quad is drawn.
TEST_F(GltfRender, IndexAccessorWithoutABufferView) {
    ScratchDirectory dir;
    GltfBuilder b;
    b.addRootNode(b.addNode({{"mesh", b.addQuad(1.0f, b.addMaterial(vec4(0.2f, 0.8f, 0.3f, 1)))}}));
    const int indexAccessor = b.json["meshes"][0]["primitives"][0]["indices"].get<int>();
    b.json["accessors"][size_t(indexAccessor)].erase("bufferView");
    b.json["accessors"][size_t(indexAccessor)].erase("byteOffset");
    for (GltfStorage storage : {GltfStorage::Glb, GltfStorage::DataUris}) {
        auto zeros = load(b.write(dir / "zeros", storage));
        ASSERT_EQ(zeros->indices.size(), 6u);
        for (uint32_t i : zeros->indices) EXPECT_EQ(i, 0u);
        Frame f = render(zeros);
        EXPECT_EQ(f.depth(kWidth / 2, kHeight / 2), 1.0f);  // degenerate triangles: nothing drawn
    }
    const uint8_t which[] = {1, 2, 3, 4, 5};
    const uint16_t values[] = {1, 2, 0, 2, 3};  // with the zero at position 0: (0, 1, 2), (0, 2, 3)
    b.json["accessors"][size_t(indexAccessor)]["sparse"] = {
        {"count", 5},
        {"indices", {{"bufferView", b.addBufferView(which, sizeof which)}, {"componentType", 5121}}},
        {"values", {{"bufferView", b.addBufferView(values, sizeof values)}}}};
    ASSERT_EQ(b.json["accessors"][size_t(indexAccessor)]["componentType"].get<int>(), 5123);  // values are UNSIGNED_SHORT
    auto sparse = load(b.write(dir / "sparse", GltfStorage::Glb));
    EXPECT_EQ(sparse->indices, (std::vector<uint32_t>{0, 1, 2, 0, 2, 3}));
    Frame f = render(sparse);
    EXPECT_NEAR(f.albedo(kWidth / 2, kHeight / 2).g, 0.8f, 0.02f);
}

// KHR_mesh_quantization (gltfpack's output): integer positions, normals and texture
// coordinates, normalized or not, with the node's transform dequantizing the positions.
TEST(GltfGeometry, QuantizedAttributesAreDequantized) {
    ScratchDirectory dir;
    GltfBuilder b;
    const int16_t positions[] = {-100, -100, 0, 0, 100, -100, 0, 0, 100, 100, 0, 0, -100, 100, 0, 0};  // SHORT VEC3, 8-byte stride
    const int8_t normals[] = {0, 0, 127, 0, -128, 0, 0, 0, 0, 127, 0, 0, 0, 0, 64, 0};                 // BYTE VEC3 normalized
    const uint8_t uvs[] = {0, 255, 255, 255, 255, 0, 0, 0};                                              // UNSIGNED_BYTE normalized
    const int16_t uvsShort[] = {0, 2, 2, 2, 2, 0, 0, 0};                                                 // SHORT, not normalized
    int pos = b.addAccessor(b.addBufferView(positions, sizeof positions, 8), 5122, 4, "VEC3");
    int nrm = b.addAccessor(b.addBufferView(normals, sizeof normals, 4), 5120, 4, "VEC3", 0, true);
    int uv = b.addAccessor(b.addBufferView(uvs, sizeof uvs), 5121, 4, "VEC2", 0, true);
    int uv2 = b.addAccessor(b.addBufferView(uvsShort, sizeof uvsShort), 5122, 4, "VEC2");
    int mat = b.addMaterial(vec4(1));
    int indices = b.addIndices({0, 1, 2, 0, 2, 3}, 5123);
    int mesh = b.addMesh({{"POSITION", pos}, {"NORMAL", nrm}, {"TEXCOORD_0", uv}}, indices, mat);
    int mesh2 = b.addMesh({{"POSITION", pos}, {"TEXCOORD_0", uv2}}, indices, mat);
    b.addRootNode(b.addNode({{"mesh", mesh}, {"scale", {0.01, 0.01, 0.01}}}));
    b.addRootNode(b.addNode({{"mesh", mesh2}, {"scale", {0.01, 0.01, 0.01}}, {"translation", {5, 0, 0}}}));
    b.json["extensionsUsed"] = {"KHR_mesh_quantization"};
    b.json["extensionsRequired"] = {"KHR_mesh_quantization"};
    engine::SceneGeometry scene = engine::loadGltfScene(b.write(dir / "quantized", GltfStorage::Glb).string());
    EXPECT_TRUE(scene.warnings.empty()) << scene.warnings.front();  // supported: no "extension ... (ignored)"
    ASSERT_EQ(scene.vertices.size(), 4u + 6u);  // the second mesh has no normals: flat, three vertices per triangle
    const vec3 corners[] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    const vec3 unitNormals[] = {{0, 0, 1}, {-1, 0, 0}, {0, 1, 0}, {0, 0, 1}};  // -128 clamps to -1
    const glm::vec2 expectedUv[] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    for (int i = 0; i < 4; ++i) {
        const engine::Vertex& v = scene.vertices[size_t(i)];
        EXPECT_NEAR(glm::distance(v.position, corners[i]), 0.0f, 1e-6f) << "vertex " << i;
        EXPECT_NEAR(glm::distance(v.normal, unitNormals[i]), 0.0f, 1e-6f) << "vertex " << i;
        EXPECT_NEAR(glm::distance(v.uv, expectedUv[i]), 0.0f, 1e-6f) << "vertex " << i;
    }
    EXPECT_NEAR(glm::distance(scene.vertices[4].position, vec3(4, -1, 0)), 0.0f, 1e-6f);
    EXPECT_EQ(scene.vertices[4].uv, glm::vec2(0, 2));  // not normalized: the plain integer
    EXPECT_EQ(scene.vertices[5].uv, glm::vec2(2, 2));

    // Without the extension, integer positions stay an error naming the accessor.
    b.json.erase("extensionsUsed");
    b.json.erase("extensionsRequired");
    try {
        engine::loadGltfScene(b.write(dir / "plain", GltfStorage::Glb).string());
        ADD_FAILURE() << "loaded without an error";
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find("attributes.POSITION): component type SHORT, expected FLOAT"), std::string::npos) << e.what();
    }
}

TEST(GltfTextures, MipChainAveragesInLinearLightAndSamplersMapGltfModes) {
    ScratchDirectory dir;
    GltfBuilder b;
    std::vector<glm::u8vec4> checker;
    for (int i = 0; i < 16; ++i) checker.push_back(((i % 4) + (i / 4)) % 2 ? glm::u8vec4(255) : glm::u8vec4(0, 0, 0, 255));
    int image = b.addImage(testsupport::encodePng(4, 4, pixels(checker)), "image/png");
    struct Case {
        int mag, min, wrapS, wrapT;
        engine::SamplerDesc expected;
    };
    using engine::MipFilter;
    using engine::TextureFilter;
    using engine::TextureWrap;
    const Case cases[] = {
        {kNearest, kNearest, kClamp, kMirror, {TextureFilter::Nearest, TextureFilter::Nearest, MipFilter::None, TextureWrap::ClampToEdge, TextureWrap::MirroredRepeat}},
        {kLinear, kLinear, kMirror, kRepeat, {TextureFilter::Linear, TextureFilter::Linear, MipFilter::None, TextureWrap::MirroredRepeat, TextureWrap::Repeat}},
        {kLinear, 9984, kRepeat, kClamp, {TextureFilter::Linear, TextureFilter::Nearest, MipFilter::Nearest, TextureWrap::Repeat, TextureWrap::ClampToEdge}},
        {kNearest, 9985, kRepeat, kRepeat, {TextureFilter::Nearest, TextureFilter::Linear, MipFilter::Nearest, TextureWrap::Repeat, TextureWrap::Repeat}},
        {kLinear, 9986, kRepeat, kRepeat, {TextureFilter::Linear, TextureFilter::Nearest, MipFilter::Linear, TextureWrap::Repeat, TextureWrap::Repeat}},
        {kLinear, 9987, kRepeat, kRepeat, {TextureFilter::Linear, TextureFilter::Linear, MipFilter::Linear, TextureWrap::Repeat, TextureWrap::Repeat}},
    };
    for (size_t i = 0; i < std::size(cases); ++i) {
        int tex = b.addTexture(image, b.addSampler(cases[i].mag, cases[i].min, cases[i].wrapS, cases[i].wrapT));
        b.addRootNode(b.addNode({{"mesh", b.addQuad(0.5f, b.addMaterial(vec4(1), tex))}}));
    }
    engine::SceneGeometry scene = engine::loadGltfScene(b.write(dir / "samplers", GltfStorage::Glb).string());
    ASSERT_EQ(scene.textures.size(), std::size(cases));  // one per (image, sampler) pair
    for (size_t i = 0; i < std::size(cases); ++i) EXPECT_TRUE(scene.textures[i].sampler == cases[i].expected) << "case " << i;
    const engine::SceneTexture& t = scene.textures[0];
    ASSERT_EQ(t.levels.size(), 3u);  // 4x4, 2x2, 1x1
    EXPECT_EQ(t.levels[1].size(), 2u * 2u * 4u);
    // Black and white average to linear 0.5, which is sRGB 188 (not 128).
    for (size_t c = 0; c < t.levels[2].size(); ++c) EXPECT_NEAR(int(t.levels[2][c]), c % 4 == 3 ? 255 : 188, 1);
}

}  // namespace
