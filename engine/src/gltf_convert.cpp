// glTF model -> SceneGeometry. Every index into the model's arrays and every byte range is
// checked before use; vertex, index and texel counts are checked against GltfLimits before
// anything of that size is allocated.
#include "engine/error.h"
#include "engine/image_io.h"
#include "gltf_internal.h"
#include "scene_internal.h"
#include "texture_mips.h"

#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <stb_image.h>

namespace engine::gltf {
namespace {

constexpr int kByte = TINYGLTF_COMPONENT_TYPE_BYTE, kUByte = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
              kShort = TINYGLTF_COMPONENT_TYPE_SHORT, kUShort = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
              kInt = TINYGLTF_COMPONENT_TYPE_INT, kUInt = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, kFloat = TINYGLTF_COMPONENT_TYPE_FLOAT;
constexpr int kScalar = TINYGLTF_TYPE_SCALAR, kVec2 = TINYGLTF_TYPE_VEC2, kVec3 = TINYGLTF_TYPE_VEC3;

constexpr const char* kMeshQuantization = "KHR_mesh_quantization";  // supported: integer attribute types
constexpr const char* kTextureTransform = "KHR_texture_transform";  // supported on base colour textures
constexpr const char* kGpuInstancing = "EXT_mesh_gpu_instancing";   // supported: instances expanded at load
constexpr const char* kSpecGloss = "KHR_materials_pbrSpecularGlossiness";  // diffuse and glossiness read (archived extension)

uint32_t componentSize(int componentType) {
    switch (componentType) {
    case kByte:
    case kUByte: return 1;
    case kShort:
    case kUShort: return 2;
    case kInt:
    case kUInt:
    case kFloat: return 4;
    default: return 0;
    }
}

std::string componentTypeName(int t) {
    switch (t) {
    case kByte: return "BYTE";
    case kUByte: return "UNSIGNED_BYTE";
    case kShort: return "SHORT";
    case kUShort: return "UNSIGNED_SHORT";
    case kInt: return "INT";
    case kUInt: return "UNSIGNED_INT";
    case kFloat: return "FLOAT";
    default: return std::to_string(t);
    }
}

uint32_t componentCount(int type) {
    switch (type) {
    case kScalar: return 1;
    case kVec2: return 2;
    case kVec3: return 3;
    case TINYGLTF_TYPE_VEC4: return 4;
    case TINYGLTF_TYPE_MAT2: return 4;
    case TINYGLTF_TYPE_MAT3: return 9;
    case TINYGLTF_TYPE_MAT4: return 16;
    default: return 0;
    }
}

std::string typeName(int type) {
    switch (type) {
    case kScalar: return "SCALAR";
    case kVec2: return "VEC2";
    case kVec3: return "VEC3";
    case TINYGLTF_TYPE_VEC4: return "VEC4";
    case TINYGLTF_TYPE_MAT2: return "MAT2";
    case TINYGLTF_TYPE_MAT3: return "MAT3";
    case TINYGLTF_TYPE_MAT4: return "MAT4";
    default: return std::to_string(type);
    }
}

std::string modeName(int mode) {
    static const char* names[] = {"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP", "TRIANGLE_FAN"};
    return mode >= 0 && mode < 7 ? names[mode] : std::to_string(mode);
}

std::string str(uint64_t v) { return std::to_string(v); }

bool finite(const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

// A validated view of an accessor's elements.
struct Accessor {
    const uint8_t* data = nullptr;  // first element; nullptr: no buffer view (all zeros)
    uint64_t stride = 0;
    uint64_t count = 0;
    int componentType = 0;
    uint32_t components = 0;  // per element: 1 (SCALAR) .. 4 (VEC4)
    bool normalized = false;
    // A sparse accessor's elements with its substitutions applied (data points into it); shared
    // so that copies of the view stay valid.
    std::shared_ptr<const std::vector<uint8_t>> owned;

    // Component k of the element at p as a float: the spec's conversions for normalized
    // integers (signed ones clamped at -1), plain values otherwise (KHR_mesh_quantization).
    float component(const uint8_t* p, uint32_t k) const {
        switch (componentType) {
        case kByte: {
            const float v = float(int8_t(p[k]));
            return normalized ? std::max(v / 127.0f, -1.0f) : v;
        }
        case kUByte: return normalized ? p[k] / 255.0f : float(p[k]);
        case kShort: {
            int16_t v;
            std::memcpy(&v, p + 2 * k, 2);
            return normalized ? std::max(v / 32767.0f, -1.0f) : float(v);
        }
        case kUShort: {
            uint16_t v;
            std::memcpy(&v, p + 2 * k, 2);
            return normalized ? v / 65535.0f : float(v);
        }
        default: {
            float v;
            std::memcpy(&v, p + 4 * k, 4);
            return v;
        }
        }
    }
    glm::vec3 vec3(uint64_t i) const {
        if (!data) return glm::vec3(0.0f);
        const uint8_t* p = data + i * stride;
        return {component(p, 0), component(p, 1), component(p, 2)};
    }
    glm::vec2 uv(uint64_t i) const {
        if (!data) return glm::vec2(0.0f);
        const uint8_t* p = data + i * stride;
        const float u = component(p, 0), v = component(p, 1);
        return {std::isfinite(u) ? u : 0.0f, std::isfinite(v) ? v : 0.0f};
    }
    // A COLOR_n element (float, or unsigned byte / short, which the spec requires normalized) as
    // the Vertex::color tint: RGBA8, linear values clamped to [0, 1], alpha 1 for VEC3.
    uint32_t rgba8(uint64_t i) const {
        float c[4] = {0, 0, 0, 1};
        const uint8_t* p = data ? data + i * stride : nullptr;
        for (uint32_t k = 0; p && k < 4 && k < components; ++k) {
            if (componentType == kFloat) {
                float v;
                std::memcpy(&v, p + 4 * k, 4);
                c[k] = v;
            } else if (componentType == kUByte) {
                c[k] = p[k] / 255.0f;
            } else {
                uint16_t v;
                std::memcpy(&v, p + 2 * k, 2);
                c[k] = v / 65535.0f;
            }
        }
        if (!data && components == 3) c[3] = 1.0f;  // no buffer view: zeros, but VEC3 has no alpha
        uint32_t packed = 0;
        for (int k = 0; k < 4; ++k) {
            const float v = std::isfinite(c[k]) ? std::clamp(c[k], 0.0f, 1.0f) : 1.0f;
            packed |= uint32_t(std::lround(v * 255.0f)) << (8 * k);
        }
        return packed;
    }
    uint32_t index(uint64_t i) const {
        if (!data) return 0;
        const uint8_t* p = data + i * stride;
        if (componentType == kUByte) return *p;
        if (componentType == kUShort) {
            uint16_t v;
            std::memcpy(&v, p, sizeof v);
            return v;
        }
        uint32_t v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
};

class Converter {
public:
    Converter(const tinygltf::Model& m, const std::string& path, const GltfLimits& limits, Warnings& warnings)
        : m_(m), path_(path), limits_(limits), warnings_(warnings), texelsLeft_(limits.maxTextureTexels) {}

    SceneGeometry run() {
        checkModelFeatures();
        visitNodes();
        if (g_.vertices.empty()) {
            std::string skipped;
            for (const std::string& w : warnings_.list()) skipped += "; " + w;
            error("nothing to draw: the scene's nodes hold no triangle primitives" + skipped);
        }
        warnUnusedMissingImages();
        buildDrawRanges(g_, trianglesByMaterial_);
        g_.data = defaultSceneLighting();
        placeRelativeToOrigin();
        g_.name = path_;
        return std::move(g_);
    }

private:
    [[noreturn]] void error(const std::string& message) const { fail(path_, message); }

    // Vertices were placed in double (world_): geo-referenced files put their geometry 1e5..1e7 m
    // from the origin, where floats step by centimetres to a metre. A scene whose centre is more
    // than 1 km out (a float step of 0.1 mm there) or far out for its size is stored relative to
    // its centre (SceneGeometry::origin); others keep world coordinates, as before.
    void placeRelativeToOrigin() {
        glm::dvec3 lo = world_.front(), hi = lo;
        for (const glm::dvec3& w : world_) {
            lo = glm::min(lo, w);
            hi = glm::max(hi, w);
        }
        const glm::dvec3 centre = 0.5 * (lo + hi);
        const double radius = 0.5 * glm::length(hi - lo);
        g_.origin = glm::length(centre) > std::min(1024.0 * radius, 1024.0) ? centre : glm::dvec3(0.0);
        for (size_t i = 0; i < world_.size(); ++i) {
            const glm::vec3 local(world_[i] - g_.origin);
            if (!std::isfinite(local.x) || !std::isfinite(local.y) || !std::isfinite(local.z)) {
                char text[160];
                std::snprintf(text, sizeof text, "(%g, %g, %g) is beyond the float range from (%g, %g, %g)", world_[i].x, world_[i].y,
                              world_[i].z, g_.origin.x, g_.origin.y, g_.origin.z);
                error(std::string("a vertex is not finite after its node transforms: ") + text);
            }
            g_.vertices[i].position = local;
        }
        g_.boundsMin = lo;
        g_.boundsMax = hi;
        world_ = {};
    }
    void warn(const std::string& feature) { warnings_.add(feature); }

    // External images whose file does not exist and that no drawn material uses (a normal or
    // occlusion map left out of a download): named, not fatal. A used one is an error (texture()).
    void warnUnusedMissingImages() {
        std::set<int> used;
        for (const auto& [key, index] : textureMap_) used.insert(key.first);
        for (size_t i = 0; i < m_.images.size(); ++i) {
            const tinygltf::Image& image = m_.images[i];
            if (image.bufferView < 0 && image.image.empty() && !image.uri.empty() && image.uri.compare(0, 5, "data:") != 0 &&
                !used.count(int(i)))
                warn("images whose file is missing (not used by what is drawn; ignored)");
        }
    }

    void checkModelFeatures() {
        for (const std::string& e : m_.extensionsRequired)
            if (isStorageExtension(e))
                error("requires extension " + e + ", which is not supported (the file's geometry or images cannot be read without it)");
        for (const std::string& e : m_.extensionsUsed) {
            if (e == kMeshQuantization) quantized_ = true;
            else if (e == kSpecGloss) warn("extension " + e + " (diffuse and glossiness used, specular ignored)");
            else if (e != kTextureTransform && e != kGpuInstancing) warn("extension " + e + " (ignored)");
        }
        if (std::find(m_.extensionsRequired.begin(), m_.extensionsRequired.end(), kMeshQuantization) != m_.extensionsRequired.end())
            quantized_ = true;
        if (!m_.animations.empty()) warn("animations (the scene is drawn static)");
        if (!m_.skins.empty()) warn("skins (meshes drawn unskinned with their node transforms)");
        if (!m_.cameras.empty()) warn("cameras (the engine's camera paths are used)");
    }

    std::span<const uint8_t> bufferViewBytes(int index, const std::string& use) {
        if (index < 0 || size_t(index) >= m_.bufferViews.size())
            error(use + ": bufferView " + std::to_string(index) + " does not exist (" + str(m_.bufferViews.size()) + " buffer views)");
        const tinygltf::BufferView& bv = m_.bufferViews[size_t(index)];
        std::string at = "bufferViews[" + std::to_string(index) + "]";
        if (bv.buffer < 0 || size_t(bv.buffer) >= m_.buffers.size())
            error(at + ": buffer " + std::to_string(bv.buffer) + " does not exist (" + str(m_.buffers.size()) + " buffers)");
        const std::vector<unsigned char>& data = m_.buffers[size_t(bv.buffer)].data;
        if (bv.byteOffset > data.size() || bv.byteLength > data.size() - bv.byteOffset)
            error(at + ": bytes [" + str(bv.byteOffset) + ", " + str(uint64_t(bv.byteOffset) + bv.byteLength) + ") exceed buffers[" +
                  std::to_string(bv.buffer) + "], which has " + str(data.size()) + " bytes");
        return {data.data() + bv.byteOffset, bv.byteLength};
    }

    const tinygltf::Accessor& accessorAt(int index, const std::string& use) {
        if (index < 0 || size_t(index) >= m_.accessors.size())
            error(use + ": accessor " + std::to_string(index) + " does not exist (" + str(m_.accessors.size()) + " accessors)");
        return m_.accessors[size_t(index)];
    }

    Accessor accessor(int index, const std::string& use, std::initializer_list<int> types, std::initializer_list<int> componentTypes) {
        const tinygltf::Accessor& a = accessorAt(index, use);
        std::string at = "accessors[" + std::to_string(index) + "] (" + use + ")";
        if (std::find(types.begin(), types.end(), a.type) == types.end()) {
            std::string expected;
            for (int t : types) expected += (expected.empty() ? "" : " or ") + typeName(t);
            error(at + ": type " + typeName(a.type) + ", expected " + expected);
        }
        if (std::find(componentTypes.begin(), componentTypes.end(), a.componentType) == componentTypes.end()) {
            std::string expected;
            for (int t : componentTypes) expected += (expected.empty() ? "" : " or ") + componentTypeName(t);
            error(at + ": component type " + componentTypeName(a.componentType) + ", expected " + expected);
        }
        if (a.count == 0) error(at + ": count is 0");
        Accessor out;
        out.count = a.count;
        out.componentType = a.componentType;
        out.components = componentCount(a.type);
        out.normalized = a.normalized;
        const uint64_t elementSize = uint64_t(componentSize(a.componentType)) * componentCount(a.type);
        if (a.bufferView < 0) {  // all zeros (the spec's accessor without a buffer view)
            if (a.count > limits_.maxVertices + limits_.maxIndices)
                error(at + ": count " + str(a.count) + " without a buffer view exceeds the vertex and index limits");
            return a.sparse.isSparse ? applySparse(a, at, out, elementSize) : out;
        }
        std::span<const uint8_t> view = bufferViewBytes(a.bufferView, at);
        const uint64_t declared = m_.bufferViews[size_t(a.bufferView)].byteStride;
        if (declared != 0 && declared < elementSize)
            error("bufferViews[" + std::to_string(a.bufferView) + "]: byteStride " + str(declared) + " is smaller than " + at + "'s " +
                  str(elementSize) + "-byte elements");
        out.stride = declared != 0 ? declared : elementSize;
        // Elements [0, count) occupy bytes [byteOffset, byteOffset + (count - 1) * stride + elementSize).
        const uint64_t last = a.count - 1;
        bool overflow = a.byteOffset > view.size() || (last > 0 && last > (UINT64_MAX - elementSize - a.byteOffset) / out.stride);
        uint64_t end = overflow ? 0 : a.byteOffset + last * out.stride + elementSize;
        if (overflow || end > view.size())
            error(at + ": " + str(a.count) + " elements of " + str(elementSize) + " bytes (stride " + str(out.stride) + ") from byte offset " +
                  str(a.byteOffset) + " need bytes [" + str(a.byteOffset) + ", " + (overflow ? std::string("beyond 2^64") : str(end)) +
                  ") of bufferViews[" + std::to_string(a.bufferView) + "], which has " + str(view.size()) + " bytes");
        out.data = view.data() + a.byteOffset;
        return a.sparse.isSparse ? applySparse(a, at, out, elementSize) : out;
    }

    // A sparse accessor: a copy of its dense elements (zeros without a buffer view) with the
    // listed elements replaced, every range checked as for dense accessors. The dense count is
    // already bounded (by its buffer view, or by the limits without one) before the copy.
    Accessor applySparse(const tinygltf::Accessor& a, const std::string& at, Accessor dense, uint64_t elementSize) {
        const auto& sp = a.sparse;
        const std::string where = at + ".sparse";
        if (sp.count < 1 || uint64_t(sp.count) > a.count)
            error(where + ".count: " + std::to_string(sp.count) + " is not in [1, " + str(a.count) + "] (the accessor's count)");
        const int indexType = sp.indices.componentType;
        if (indexType != kUByte && indexType != kUShort && indexType != kUInt)
            error(where + ".indices: component type " + componentTypeName(indexType) + ", expected UNSIGNED_BYTE or UNSIGNED_SHORT or UNSIGNED_INT");
        auto range = [&](int bufferView, int byteOffset, uint64_t bytes, const std::string& what) {
            std::span<const uint8_t> view = bufferViewBytes(bufferView, what);
            if (byteOffset < 0 || uint64_t(byteOffset) > view.size() || bytes > view.size() - uint64_t(byteOffset))
                error(what + ": " + str(bytes) + " bytes from byte offset " + std::to_string(byteOffset) + " exceed bufferViews[" +
                      std::to_string(bufferView) + "], which has " + str(view.size()) + " bytes");
            return view.data() + byteOffset;
        };
        const uint64_t n = uint64_t(sp.count);
        const uint8_t* indices = range(sp.indices.bufferView, sp.indices.byteOffset, n * componentSize(indexType), where + ".indices");
        const uint8_t* values = range(sp.values.bufferView, sp.values.byteOffset, n * elementSize, where + ".values");
        auto owned = std::make_shared<std::vector<uint8_t>>(size_t(a.count * elementSize), uint8_t(0));
        if (dense.data)
            for (uint64_t i = 0; i < a.count; ++i) std::memcpy(owned->data() + i * elementSize, dense.data + i * dense.stride, size_t(elementSize));
        Accessor indexReader;
        indexReader.data = indices;
        indexReader.stride = componentSize(indexType);
        indexReader.componentType = indexType;
        for (uint64_t k = 0; k < n; ++k) {
            const uint32_t target = indexReader.index(k);
            if (target >= a.count)
                error(where + ".indices: index " + str(target) + " at position " + str(k) + " is not below the accessor's count " + str(a.count));
            std::memcpy(owned->data() + target * elementSize, values + k * elementSize, size_t(elementSize));
        }
        dense.data = owned->data();
        dense.stride = elementSize;
        dense.owned = std::move(owned);
        return dense;
    }

    glm::dmat4 localMatrix(const tinygltf::Node& n, const std::string& at) const {
        if (!n.matrix.empty()) {
            if (n.matrix.size() != 16 || !finite(n.matrix)) error(at + ".matrix: expected 16 finite numbers");
            return glm::make_mat4(n.matrix.data());  // column-major, as glTF stores it
        }
        if ((!n.translation.empty() && n.translation.size() != 3) || !finite(n.translation))
            error(at + ".translation: expected 3 finite numbers");
        if ((!n.rotation.empty() && n.rotation.size() != 4) || !finite(n.rotation)) error(at + ".rotation: expected 4 finite numbers");
        if ((!n.scale.empty() && n.scale.size() != 3) || !finite(n.scale)) error(at + ".scale: expected 3 finite numbers");
        glm::dmat4 m(1.0);
        if (!n.translation.empty()) m = glm::translate(m, glm::dvec3(n.translation[0], n.translation[1], n.translation[2]));
        if (!n.rotation.empty()) {
            glm::dquat q(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]);  // glTF: x, y, z, w
            double len = glm::length(q);
            if (!(len > 1e-12)) error(at + ".rotation: a zero quaternion");
            m *= glm::mat4_cast(q / len);
        }
        if (!n.scale.empty()) m = glm::scale(m, glm::dvec3(n.scale[0], n.scale[1], n.scale[2]));
        return m;
    }

    void visitNodes() {
        const size_t n = m_.nodes.size();
        struct Visit {
            int node;
            glm::dmat4 parent;
            std::string from;  // where the reference came from, for messages
        };
        std::vector<Visit> stack;
        if (m_.defaultScene >= 0) {
            if (size_t(m_.defaultScene) >= m_.scenes.size())
                error("scene " + std::to_string(m_.defaultScene) + " does not exist (" + str(m_.scenes.size()) + " scenes)");
            const std::vector<int>& roots = m_.scenes[size_t(m_.defaultScene)].nodes;
            for (size_t i = roots.size(); i-- > 0;)
                stack.push_back({roots[i], glm::dmat4(1.0), "scenes[" + std::to_string(m_.defaultScene) + "].nodes"});
        } else {  // no default scene: every node that is nobody's child
            std::vector<char> isChild(n, 0);
            for (size_t i = 0; i < n; ++i)
                for (int c : m_.nodes[i].children) {
                    if (c < 0 || size_t(c) >= n)
                        error("nodes[" + str(i) + "].children: node " + std::to_string(c) + " does not exist (" + str(n) + " nodes)");
                    isChild[size_t(c)] = 1;
                }
            for (size_t i = n; i-- > 0;)
                if (!isChild[i]) stack.push_back({int(i), glm::dmat4(1.0), "root nodes"});
        }
        std::vector<char> visited(n, 0);
        while (!stack.empty()) {
            Visit v = std::move(stack.back());
            stack.pop_back();
            if (v.node < 0 || size_t(v.node) >= n)
                error(v.from + ": node " + std::to_string(v.node) + " does not exist (" + str(n) + " nodes)");
            std::string at = "nodes[" + std::to_string(v.node) + "]";
            if (visited[size_t(v.node)]) error(at + " is reached twice (a cycle, or a node with two parents)");
            visited[size_t(v.node)] = 1;
            const tinygltf::Node& node = m_.nodes[size_t(v.node)];
            glm::dmat4 world = v.parent * localMatrix(node, at);
            if (node.mesh >= 0 && node.extensions.count(kGpuInstancing))
                for (const glm::dmat4& instance : instanceMatrices(node, at)) addMesh(node.mesh, at, world * instance, node.weights);
            else if (node.mesh >= 0)
                addMesh(node.mesh, at, world, node.weights);
            else if (node.mesh < -1) error(at + ".mesh: mesh " + std::to_string(node.mesh) + " does not exist");
            for (size_t i = node.children.size(); i-- > 0;) stack.push_back({node.children[i], world, at + ".children"});
        }
    }

    // EXT_mesh_gpu_instancing: one matrix (T * R * S) per instance of the node's mesh, each
    // expanded into its own world-space copy at load (the scene is static); the vertex and
    // index limits bound the total.
    std::vector<glm::dmat4> instanceMatrices(const tinygltf::Node& node, const std::string& at) {
        const std::string where = at + ".extensions." + kGpuInstancing;
        const tinygltf::Value& ext = node.extensions.at(kGpuInstancing);
        if (!ext.IsObject() || !ext.Has("attributes") || !ext.Get("attributes").IsObject()) error(where + ": no attributes object");
        const tinygltf::Value& attributes = ext.Get("attributes");
        struct Part {
            const char* name;
            std::optional<Accessor> values;
        } parts[] = {{"TRANSLATION", {}}, {"ROTATION", {}}, {"SCALE", {}}};
        uint64_t count = 0;
        for (Part& part : parts) {
            if (!attributes.Has(part.name)) continue;
            const tinygltf::Value& index = attributes.Get(part.name);
            if (!index.IsNumber()) error(where + ".attributes." + part.name + ": not an accessor index");
            const std::string use = where + ".attributes." + part.name;
            part.values = &part == &parts[1] ? accessor(index.GetNumberAsInt(), use, {TINYGLTF_TYPE_VEC4}, {kFloat, kByte, kShort})
                                             : accessor(index.GetNumberAsInt(), use, {kVec3}, {kFloat});
            if (count != 0 && part.values->count != count)
                error(where + ".attributes." + part.name + ": count " + str(part.values->count) + " differs from the other attributes' " + str(count));
            count = part.values->count;
        }
        if (count == 0) error(where + ": none of TRANSLATION, ROTATION and SCALE");
        // Bounded before the matrices are allocated: every instance copies the mesh's vertices,
        // so a lying count fails here, not after gigabytes of matrices.
        uint64_t meshVertices = 1;
        if (node.mesh >= 0 && size_t(node.mesh) < m_.meshes.size()) {
            uint64_t sum = 0;
            for (const tinygltf::Primitive& p : m_.meshes[size_t(node.mesh)].primitives)
                if (auto it = p.attributes.find("POSITION"); it != p.attributes.end() && it->second >= 0 && size_t(it->second) < m_.accessors.size())
                    sum += m_.accessors[size_t(it->second)].count;
            meshVertices = std::max<uint64_t>(sum, 1);
        }
        if (count > limits_.maxVertices / meshVertices)
            error(where + ": " + str(count) + " instances of a mesh of " + str(meshVertices) + " vertices exceed the vertex limit (" +
                  str(limits_.maxVertices) + ")");
        std::vector<glm::dmat4> out(size_t(count), glm::dmat4(1.0));
        for (uint64_t i = 0; i < count; ++i) {
            const std::string instance = where + ": instance " + str(i);
            glm::dmat4& m = out[size_t(i)];
            if (const auto& t = parts[0].values) {
                const glm::dvec3 v(t->vec3(i));
                if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) error(instance + ": TRANSLATION is not finite");
                m = glm::translate(m, v);
            }
            if (const auto& r = parts[1].values) {
                const uint8_t* p = r->data ? r->data + i * r->stride : nullptr;
                glm::dquat q(p ? r->component(p, 3) : 1.0, p ? r->component(p, 0) : 0.0, p ? r->component(p, 1) : 0.0, p ? r->component(p, 2) : 0.0);
                const double len = glm::length(q);
                if (!(len > 1e-12) || !std::isfinite(len)) error(instance + ": ROTATION is not a finite non-zero quaternion");
                m *= glm::mat4_cast(q / len);
            }
            if (const auto& sc = parts[2].values) {
                const glm::dvec3 v(sc->vec3(i));
                if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) error(instance + ": SCALE is not finite");
                m = glm::scale(m, v);
            }
        }
        return out;
    }

    // nodeWeights: the node's morph target weights, which override the mesh's.
    void addMesh(int index, const std::string& at, const glm::dmat4& world, const std::vector<double>& nodeWeights) {
        if (size_t(index) >= m_.meshes.size())
            error(at + ".mesh: mesh " + std::to_string(index) + " does not exist (" + str(m_.meshes.size()) + " meshes)");
        const tinygltf::Mesh& mesh = m_.meshes[size_t(index)];
        const std::vector<double>& weights = nodeWeights.empty() ? mesh.weights : nodeWeights;
        for (size_t p = 0; p < mesh.primitives.size(); ++p)
            addPrimitive(mesh.primitives[p], "meshes[" + std::to_string(index) + "].primitives[" + str(p) + "]", world, weights);
    }

    // The primitive's POSITION (and NORMAL, when it has normals) with its morph targets applied
    // at the default weights: the static pose a viewer shows without animation. TANGENT and
    // other target attributes are not used. Empty vectors: no target changes that attribute.
    void applyMorphTargets(const tinygltf::Primitive& p, const std::string& where, const std::vector<double>& weights, const Accessor& positions,
                           const Accessor* normals, std::vector<glm::vec3>& outPositions, std::vector<glm::vec3>& outNormals) {
        const uint64_t n = positions.count;
        for (size_t t = 0; t < p.targets.size() && t < weights.size(); ++t) {
            const double w = weights[t];
            if (w == 0.0) continue;
            if (!std::isfinite(w)) error(where + ": morph target weight " + str(t) + " is not finite");
            for (const auto& [name, index] : p.targets[t]) {
                const bool isPosition = name == "POSITION";
                if (!isPosition && !(name == "NORMAL" && normals)) continue;
                const std::string at = where + ".targets[" + str(t) + "]." + name;
                const Accessor delta = accessor(index, at, {kVec3}, quantized_ ? std::initializer_list<int>{kFloat, kByte, kShort} : std::initializer_list<int>{kFloat});
                if (delta.count != n) error(at + ": count " + str(delta.count) + " differs from POSITION's " + str(n));
                std::vector<glm::vec3>& out = isPosition ? outPositions : outNormals;
                if (out.empty()) {
                    out.resize(size_t(n));
                    for (uint64_t i = 0; i < n; ++i) out[size_t(i)] = isPosition ? positions.vec3(i) : normals->vec3(i);
                }
                for (uint64_t i = 0; i < n; ++i) out[size_t(i)] += float(w) * delta.vec3(i);
            }
        }
    }

    // The primitive's triangles as vertex indices, three per triangle, in the spec's corner order:
    // lists as stored, strips and fans unrolled. Counts are checked before the list is allocated.
    std::vector<uint32_t> triangleCorners(const tinygltf::Primitive& p, const std::string& where, const Accessor& indices,
                                          uint64_t vertexCount) {
        const bool indexed = p.indices >= 0;
        const uint64_t count = indexed ? indices.count : vertexCount;
        const char* what = indexed ? " indices" : " vertices";
        uint64_t triangles = 0;
        if (p.mode == TINYGLTF_MODE_TRIANGLES) {
            if (count % 3 != 0) error(where + ": " + str(count) + what + " do not form whole triangles (not a multiple of 3)");
            triangles = count / 3;
        } else {
            if (count < 3) error(where + ": " + str(count) + what + " are too few for a " + modeName(p.mode));
            triangles = count - 2;
        }
        if (indexTotal_ + 3 * triangles > limits_.maxIndices)
            error(where + ": the scene needs more than " + str(limits_.maxIndices) + " indices (the loader's limit)");
        auto vertex = [&](uint64_t i) -> uint32_t {
            if (!indexed) return uint32_t(i);
            uint32_t v = indices.index(i);
            if (v >= vertexCount)
                error(where + ".indices: index " + str(v) + " at position " + str(i) + " is not below the vertex count " + str(vertexCount) +
                      " (accessors[" + std::to_string(p.indices) + "])");
            return v;
        };
        std::vector<uint32_t> corners;
        corners.reserve(size_t(3 * triangles));
        for (uint64_t t = 0; t < triangles; ++t) {
            if (p.mode == TINYGLTF_MODE_TRIANGLES) corners.insert(corners.end(), {vertex(3 * t), vertex(3 * t + 1), vertex(3 * t + 2)});
            else if (p.mode == TINYGLTF_MODE_TRIANGLE_STRIP) corners.insert(corners.end(), {vertex(t), vertex(t + 1 + t % 2), vertex(t + 2 - t % 2)});
            else corners.insert(corners.end(), {vertex(t + 1), vertex(t + 2), vertex(0)});  // fan
        }
        return corners;
    }

    // Which TEXCOORD_n the base colour texture of glTF material `material` reads, and the affine
    // map of KHR_texture_transform (uv' = T * R * S * uv, as the extension defines it; its
    // texCoord overrides the texture's). Both belong to the material, and every primitive has
    // vertices of its own, so the map is applied to the vertices at load.
    struct UvMapping {
        int set = 0;
        glm::mat3 transform{1.0f};  // column-major, applied to (u, v, 1)
    };
    // KHR_materials_pbrSpecularGlossiness's object in a material, if any: files of the archived
    // extension (older exports, the sample models' spec-gloss variants) keep their colour there,
    // and a client that reads it uses it instead of pbrMetallicRoughness.
    static const tinygltf::Value* specularGlossiness(const tinygltf::Material& m) {
        auto it = m.extensions.find(kSpecGloss);
        return it != m.extensions.end() && it->second.IsObject() ? &it->second : nullptr;
    }

    // The material's base colour texture: pbrMetallicRoughness.baseColorTexture, or the
    // specular-glossiness extension's diffuseTexture (index -1: none).
    tinygltf::TextureInfo baseColorTextureInfo(const tinygltf::Material& m) {
        const tinygltf::Value* sg = specularGlossiness(m);
        if (!sg) return m.pbrMetallicRoughness.baseColorTexture;
        tinygltf::TextureInfo info;
        if (!sg->Has("diffuseTexture")) return info;
        const tinygltf::Value& t = sg->Get("diffuseTexture");
        if (!t.IsObject() || !t.Has("index") || !t.Get("index").IsNumber()) {
            warn(std::string(kSpecGloss) + " diffuseTexture without an index (ignored)");
            return info;
        }
        info.index = t.Get("index").GetNumberAsInt();
        if (t.Has("texCoord") && t.Get("texCoord").IsNumber()) info.texCoord = std::clamp(t.Get("texCoord").GetNumberAsInt(), 0, 15);
        if (t.Has("extensions") && t.Get("extensions").IsObject())
            for (const std::string& key : t.Get("extensions").Keys()) info.extensions[key] = t.Get("extensions").Get(key);
        return info;
    }

    UvMapping uvMapping(int material) {
        UvMapping m;
        if (material < 0 || size_t(material) >= m_.materials.size()) return m;  // a bad index is reported by materialIndex()
        const tinygltf::TextureInfo info = baseColorTextureInfo(m_.materials[size_t(material)]);
        if (info.index < 0) return m;
        m.set = info.texCoord;
        auto it = info.extensions.find(kTextureTransform);
        if (it == info.extensions.end()) return m;
        const tinygltf::Value& t = it->second;
        auto numbers = [&](const char* key, std::initializer_list<double> fallback) {
            std::vector<double> out(fallback);
            if (!t.IsObject() || !t.Has(key)) return out;
            const tinygltf::Value& v = t.Get(key);
            const size_t n = out.size();
            if (n == 1 && v.IsNumber() && std::isfinite(v.GetNumberAsDouble())) return std::vector<double>{v.GetNumberAsDouble()};
            if (n > 1 && v.IsArray() && v.ArrayLen() == n) {
                std::vector<double> read;
                for (size_t k = 0; k < n; ++k)
                    if (v.Get(int(k)).IsNumber() && std::isfinite(v.Get(int(k)).GetNumberAsDouble())) read.push_back(v.Get(int(k)).GetNumberAsDouble());
                if (read.size() == n) return read;
            }
            warn(std::string(kTextureTransform) + " with a malformed " + key + " (its default used)");
            return out;
        };
        const std::vector<double> offset = numbers("offset", {0.0, 0.0}), scale = numbers("scale", {1.0, 1.0});
        const double rotation = numbers("rotation", {0.0})[0], c = std::cos(rotation), s = std::sin(rotation);
        // Columns of T * R * S: u' = c sx u + s sy v + ox, v' = -s sx u + c sy v + oy.
        m.transform = glm::mat3(glm::vec3(float(c * scale[0]), float(-s * scale[0]), 0.0f), glm::vec3(float(s * scale[1]), float(c * scale[1]), 0.0f),
                                glm::vec3(float(offset[0]), float(offset[1]), 1.0f));
        if (t.IsObject() && t.Has("texCoord")) {
            if (const tinygltf::Value& v = t.Get("texCoord"); v.IsNumber() && v.GetNumberAsDouble() >= 0.0 && v.GetNumberAsDouble() < 16.0)
                m.set = v.GetNumberAsInt();
            else
                warn(std::string(kTextureTransform) + " with a malformed texCoord (the texture's used)");
        }
        return m;
    }

    void addPrimitive(const tinygltf::Primitive& p, const std::string& where, const glm::dmat4& world, const std::vector<double>& weights) {
        if (p.mode != TINYGLTF_MODE_TRIANGLES && p.mode != TINYGLTF_MODE_TRIANGLE_STRIP && p.mode != TINYGLTF_MODE_TRIANGLE_FAN) {
            warn("primitive mode " + modeName(p.mode) + " (skipped; only triangles are drawn)");
            return;
        }
        if (!p.targets.empty()) warn("morph targets (drawn at their default weights, not animated)");
        for (const auto& [name, index] : p.attributes)
            if (name.rfind("COLOR_", 0) == 0 && name != "COLOR_0") warn("vertex colours beyond COLOR_0 (ignored)");
        auto attribute = [&](const char* name) {
            auto it = p.attributes.find(name);
            return it == p.attributes.end() ? -1 : it->second;
        };
        const UvMapping uvMap = uvMapping(p.material);
        const std::string uvName = "TEXCOORD_" + std::to_string(uvMap.set);
        int uvIndex = attribute(uvName.c_str());
        if (uvIndex < 0 && uvMap.set != 0 && attribute("TEXCOORD_0") >= 0) {
            warn("base colour textures on a missing " + uvName + " (TEXCOORD_0 used)");
            uvIndex = attribute("TEXCOORD_0");
        }
        const int positionIndex = attribute("POSITION"), normalIndex = attribute("NORMAL"), colorIndex = attribute("COLOR_0");
        if (positionIndex < 0) {
            warn("primitives without POSITION (skipped)");
            return;
        }
        // KHR_mesh_quantization adds integer types (normalized or not) for these three. (The
        // lists live until the end of each call's full expression, which is all accessor() needs.)
        using Types = std::initializer_list<int>;
        const Accessor positions = accessor(positionIndex, where + ".attributes.POSITION", {kVec3},
                                            quantized_ ? Types{kFloat, kByte, kUByte, kShort, kUShort} : Types{kFloat});
        const uint64_t n = positions.count;
        Accessor normals, uvs, indices;
        if (normalIndex >= 0) {
            normals = accessor(normalIndex, where + ".attributes.NORMAL", {kVec3}, quantized_ ? Types{kFloat, kByte, kShort} : Types{kFloat});
            if (normals.count != n) error(where + ".attributes.NORMAL: count " + str(normals.count) + " differs from POSITION's " + str(n));
        }
        if (uvIndex >= 0) {
            uvs = accessor(uvIndex, where + ".attributes." + uvName, {kVec2},
                           quantized_ ? Types{kFloat, kByte, kUByte, kShort, kUShort} : Types{kFloat, kUByte, kUShort});
            if (uvs.count != n) error(where + ".attributes." + uvName + ": count " + str(uvs.count) + " differs from POSITION's " + str(n));
        }
        std::optional<Accessor> colors;  // COLOR_0 multiplies the base colour; none: white
        if (colorIndex >= 0) {
            colors = accessor(colorIndex, where + ".attributes.COLOR_0", {kVec3, TINYGLTF_TYPE_VEC4}, {kFloat, kUByte, kUShort});
            if (colors->count != n) error(where + ".attributes.COLOR_0: count " + str(colors->count) + " differs from POSITION's " + str(n));
        }
        auto tint = [&](uint64_t i) { return colors ? colors->rgba8(i) : 0xffffffffu; };
        auto uv = [&](uint64_t i) {
            const glm::vec3 t = uvMap.transform * glm::vec3(uvs.uv(i), 1.0f);
            return glm::vec2(std::isfinite(t.x) ? t.x : 0.0f, std::isfinite(t.y) ? t.y : 0.0f);
        };
        if (p.indices >= 0) indices = accessor(p.indices, where + ".indices", {kScalar}, {kUByte, kUShort, kUInt});
        if (n > limits_.maxVertices)  // before the corner list (its size follows the index count)
            error(where + ": the scene needs more than " + str(limits_.maxVertices) + " vertices (the loader's limit)");
        std::vector<uint32_t> corners = triangleCorners(p, where, indices, n);
        const uint64_t newVertices = normalIndex >= 0 ? n : corners.size();  // flat normals: three vertices per triangle
        if (g_.vertices.size() + newVertices > limits_.maxVertices)
            error(where + ": the scene needs more than " + str(limits_.maxVertices) + " vertices (the loader's limit)");
        std::vector<glm::vec3> morphedPositions, morphedNormals;
        if (!p.targets.empty())
            applyMorphTargets(p, where, weights, positions, normalIndex >= 0 ? &normals : nullptr, morphedPositions, morphedNormals);
        auto position = [&](uint64_t i) { return morphedPositions.empty() ? positions.vec3(i) : morphedPositions[size_t(i)]; };
        auto normalOf = [&](uint64_t i) { return morphedNormals.empty() ? normals.vec3(i) : morphedNormals[size_t(i)]; };
        for (uint64_t i = 0; i < n; ++i)
            if (glm::vec3 v = position(i); !std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
                error(where + ".attributes.POSITION: element " + str(i) + " is not finite");

        const uint32_t material = materialIndex(p.material, where);
        const glm::mat3 normalMatrix(glm::transpose(glm::inverse(glm::dmat3(world))));
        if (glm::determinant(glm::dmat3(world)) < 0.0)  // mirrored: keep front faces counter-clockwise
            for (size_t t = 0; t + 2 < corners.size(); t += 3) std::swap(corners[t + 1], corners[t + 2]);
        auto place = [&](glm::vec3 local) {
            glm::dvec3 w = glm::dvec3(world * glm::dvec4(glm::dvec3(local), 1.0));
            if (!std::isfinite(w.x) || !std::isfinite(w.y) || !std::isfinite(w.z))
                error(where + ": a vertex is not finite after its node transforms");
            return w;
        };
        std::vector<uint32_t>& out = trianglesByMaterial_[material];
        const uint32_t base = uint32_t(g_.vertices.size());
        if (normalIndex >= 0) {
            for (uint64_t i = 0; i < n; ++i) {
                glm::vec3 normal = normalMatrix * normalOf(i);
                float len = glm::length(normal);
                normal = std::isfinite(len) && len > 1e-20f ? normal / len : glm::vec3(0, 1, 0);
                world_.push_back(place(position(i)));
                g_.vertices.push_back({glm::vec3(0.0f), normal, uv(i), gpu::MATERIAL_PAINT, tint(i)});  // position: run()
            }
            for (uint32_t c : corners) out.push_back(base + c);
        } else {  // flat normals (the spec's rule when NORMAL is missing)
            for (size_t t = 0; t + 2 < corners.size(); t += 3) {
                const uint32_t* c = &corners[t];
                glm::dvec3 w[3] = {place(position(c[0])), place(position(c[1])), place(position(c[2]))};
                glm::dvec3 cross = glm::cross(w[1] - w[0], w[2] - w[0]);  // in double: exact far from the origin too
                double len = glm::length(cross);
                glm::vec3 normal = std::isfinite(len) && len > 0.0 ? glm::vec3(cross / len) : glm::vec3(0, 1, 0);
                for (int k = 0; k < 3; ++k) {
                    out.push_back(uint32_t(g_.vertices.size()));
                    world_.push_back(w[k]);
                    g_.vertices.push_back({glm::vec3(0.0f), normal, uv(c[k]), gpu::MATERIAL_PAINT, tint(c[k])});  // position: run()
                }
            }
        }
        indexTotal_ += corners.size();
    }

    uint32_t materialIndex(int index, const std::string& where) {
        if (auto it = materialMap_.find(index); it != materialMap_.end()) return it->second;
        SceneMaterial mat;
        if (index < 0) {
            mat.name = "default";
            mat.doubleSided = false;  // the spec's default material: white, metallic 1, roughness 1
        } else {
            if (size_t(index) >= m_.materials.size())
                error(where + ".material: material " + std::to_string(index) + " does not exist (" + str(m_.materials.size()) + " materials)");
            mat = convertMaterial(size_t(index));
        }
        uint32_t id = uint32_t(g_.materials.size());
        g_.materials.push_back(std::move(mat));
        trianglesByMaterial_.emplace_back();
        materialMap_[index] = id;
        return id;
    }

    SceneMaterial convertMaterial(size_t index) {
        const tinygltf::Material& src = m_.materials[index];
        const tinygltf::PbrMetallicRoughness& pbr = src.pbrMetallicRoughness;
        const std::string at = "materials[" + str(index) + "]";
        SceneMaterial mat;
        mat.name = src.name.empty() ? at : src.name;
        if (pbr.baseColorFactor.size() != 4 || !finite(pbr.baseColorFactor))
            error(at + ".pbrMetallicRoughness.baseColorFactor: expected 4 finite numbers");
        for (int c = 0; c < 4; ++c) mat.baseColorFactor[c] = std::clamp(float(pbr.baseColorFactor[size_t(c)]), 0.0f, 1.0f);
        if (!std::isfinite(pbr.metallicFactor) || !std::isfinite(pbr.roughnessFactor))
            error(at + ".pbrMetallicRoughness: metallicFactor and roughnessFactor must be finite");
        mat.metallic = std::clamp(float(pbr.metallicFactor), 0.0f, 1.0f);
        mat.roughness = std::clamp(float(pbr.roughnessFactor), 0.0f, 1.0f);
        if (const tinygltf::Value* sg = specularGlossiness(src)) {
            // Diffuse colour as the base colour of a dielectric, roughness = 1 - glossiness.
            auto number = [&](const tinygltf::Value& v, double fallback) { return v.IsNumber() && std::isfinite(v.GetNumberAsDouble()) ? v.GetNumberAsDouble() : fallback; };
            const tinygltf::Value& diffuse = sg->Get("diffuseFactor");
            for (int c = 0; c < 4; ++c)
                mat.baseColorFactor[c] = std::clamp(float(diffuse.IsArray() && diffuse.ArrayLen() == 4 ? number(diffuse.Get(c), 1.0) : 1.0), 0.0f, 1.0f);
            mat.metallic = 0.0f;
            mat.roughness = std::clamp(1.0f - float(sg->Has("glossinessFactor") ? number(sg->Get("glossinessFactor"), 1.0) : 1.0), 0.0f, 1.0f);
            if (const tinygltf::TextureInfo info = baseColorTextureInfo(src); info.index >= 0)
                mat.baseColorTexture = texture(info.index, at + ".extensions." + kSpecGloss + ".diffuseTexture");
        } else if (pbr.baseColorTexture.index >= 0) {
            mat.baseColorTexture = texture(pbr.baseColorTexture.index, at + ".pbrMetallicRoughness.baseColorTexture");
        }
        if (pbr.metallicRoughnessTexture.index >= 0) warn("metallicRoughnessTexture (the factors alone are used)");
        if (src.normalTexture.index >= 0) warn("normalTexture (ignored)");
        if (src.occlusionTexture.index >= 0) warn("occlusionTexture (ignored)");
        if (src.emissiveTexture.index >= 0 ||
            std::any_of(src.emissiveFactor.begin(), src.emissiveFactor.end(), [](double v) { return v != 0.0; }))
            warn("emission (emissiveFactor/emissiveTexture, ignored)");
        if (src.alphaMode == "MASK") {
            if (!std::isfinite(src.alphaCutoff) || src.alphaCutoff < 0.0) error(at + ".alphaCutoff: must be a non-negative number");
            mat.alphaMask = true;
            mat.alphaCutoff = float(src.alphaCutoff);
        } else if (src.alphaMode == "BLEND") {
            warn("alphaMode BLEND (drawn opaque)");
        } else if (src.alphaMode != "OPAQUE" && !src.alphaMode.empty()) {
            error(at + ".alphaMode: '" + src.alphaMode + "' is not OPAQUE, MASK or BLEND");
        }
        mat.doubleSided = src.doubleSided;
        return mat;
    }

    SamplerDesc sampler(int index) {
        SamplerDesc d;  // no sampler: repeat, linear, trilinear
        if (index < 0) return d;
        const tinygltf::Sampler& s = m_.samplers[size_t(index)];
        const std::string at = "samplers[" + std::to_string(index) + "]";
        switch (s.magFilter) {
        case -1:
        case TINYGLTF_TEXTURE_FILTER_LINEAR: d.magFilter = TextureFilter::Linear; break;
        case TINYGLTF_TEXTURE_FILTER_NEAREST: d.magFilter = TextureFilter::Nearest; break;
        default: error(at + ".magFilter: " + std::to_string(s.magFilter) + " is not NEAREST (9728) or LINEAR (9729)");
        }
        switch (s.minFilter) {
        case -1:
        case TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_LINEAR: d.minFilter = TextureFilter::Linear, d.mipFilter = MipFilter::Linear; break;
        case TINYGLTF_TEXTURE_FILTER_NEAREST: d.minFilter = TextureFilter::Nearest, d.mipFilter = MipFilter::None; break;
        case TINYGLTF_TEXTURE_FILTER_LINEAR: d.minFilter = TextureFilter::Linear, d.mipFilter = MipFilter::None; break;
        case TINYGLTF_TEXTURE_FILTER_NEAREST_MIPMAP_NEAREST: d.minFilter = TextureFilter::Nearest, d.mipFilter = MipFilter::Nearest; break;
        case TINYGLTF_TEXTURE_FILTER_LINEAR_MIPMAP_NEAREST: d.minFilter = TextureFilter::Linear, d.mipFilter = MipFilter::Nearest; break;
        case TINYGLTF_TEXTURE_FILTER_NEAREST_MIPMAP_LINEAR: d.minFilter = TextureFilter::Nearest, d.mipFilter = MipFilter::Linear; break;
        default: error(at + ".minFilter: " + std::to_string(s.minFilter) + " is not a glTF filter (9728, 9729, 9984..9987)");
        }
        auto wrap = [&](int mode, const char* field) {
            switch (mode) {
            case TINYGLTF_TEXTURE_WRAP_REPEAT: return TextureWrap::Repeat;
            case TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT: return TextureWrap::MirroredRepeat;
            case TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE: return TextureWrap::ClampToEdge;
            default: error(at + "." + field + ": " + std::to_string(mode) + " is not REPEAT (10497), MIRRORED_REPEAT (33648) or CLAMP_TO_EDGE (33071)");
            }
        };
        d.wrapU = wrap(s.wrapS, "wrapS");
        d.wrapV = wrap(s.wrapT, "wrapT");
        return d;
    }

    int32_t texture(int index, const std::string& use) {
        if (index < 0 || size_t(index) >= m_.textures.size())
            error(use + ": texture " + std::to_string(index) + " does not exist (" + str(m_.textures.size()) + " textures)");
        const tinygltf::Texture& t = m_.textures[size_t(index)];
        const std::string at = "textures[" + std::to_string(index) + "]";
        if (t.source < 0) {  // e.g. only KHR_texture_basisu's or EXT_texture_webp's source, and no fallback
            warn(t.extensions.empty() ? "textures without a PNG or JPEG source (drawn untextured)"
                                      : "textures with only a " + t.extensions.begin()->first + " source (drawn untextured)");
            return -1;
        }
        if (size_t(t.source) >= m_.images.size())
            error(at + ".source: image " + std::to_string(t.source) + " does not exist (" + str(m_.images.size()) + " images)");
        if (t.sampler >= 0 && size_t(t.sampler) >= m_.samplers.size())
            error(at + ".sampler: sampler " + std::to_string(t.sampler) + " does not exist (" + str(m_.samplers.size()) + " samplers)");
        auto key = std::make_pair(t.source, t.sampler);
        if (auto it = textureMap_.find(key); it != textureMap_.end()) return it->second;

        const tinygltf::Image& image = m_.images[size_t(t.source)];
        std::string what = "images[" + std::to_string(t.source) + "]" + (image.uri.empty() ? "" : " ('" + image.uri + "')");
        std::span<const uint8_t> bytes = image.bufferView >= 0 ? bufferViewBytes(image.bufferView, what) : std::span<const uint8_t>(image.image);
        if (bytes.empty())  // the loader let an external image's read fail only for a file that does not exist
            error(what + (image.bufferView < 0 && !image.uri.empty() && image.uri.compare(0, 5, "data:") != 0
                              ? ": cannot find the file in the model's folder"
                              : ": no image data"));
        if (sniffImageFormat(bytes) == ImageFormat::Unknown) {
            warn("images that are not PNG or JPEG (drawn untextured)");
            return textureMap_[key] = -1;
        }
        if (g_.textures.size() >= limits_.maxTextures) error(use + ": more than " + str(limits_.maxTextures) + " textures (the loader's limit)");
        Image8 decoded = decodeImage(bytes, "glTF '" + path_ + "': " + what, limits_.maxTextureSize, limits_.maxTextureTexels);
        SceneTexture st;
        st.name = what;
        st.width = decoded.width;
        st.height = decoded.height;
        st.levels = buildMipChain(std::move(decoded.pixels), st.width, st.height);
        // Over the texel budget: drop the planned top mip levels (and more, should the plan have
        // been short: an image used with two samplers is uploaded twice).
        const uint32_t planned = levelsToDrop();
        for (uint32_t dropped = 0; st.levels.size() > 1 && (dropped < planned || uint64_t(st.width) * st.height > texelsLeft_); ++dropped) {
            st.levels.erase(st.levels.begin());
            st.width = std::max(1u, st.width / 2);
            st.height = std::max(1u, st.height / 2);
            if (dropped == 0) warn("textures downscaled to fit the texel budget (GltfLimits::maxTextureTexels)");
        }
        if (uint64_t(st.width) * st.height > texelsLeft_)
            error(what + ": the image's " + str(uint64_t(st.width) * st.height) + " texels exceed the remaining budget of " + str(texelsLeft_));
        texelsLeft_ -= uint64_t(st.width) * st.height;
        st.sampler = sampler(t.sampler);
        g_.textures.push_back(std::move(st));
        return textureMap_[key] = int32_t(g_.textures.size() - 1);
    }

    // The encoded bytes of images[source], or nothing when any reference or range is invalid
    // (texture() reports those when the image is used).
    std::span<const uint8_t> imageBytesOrEmpty(int source) const {
        if (source < 0 || size_t(source) >= m_.images.size()) return {};
        const tinygltf::Image& image = m_.images[size_t(source)];
        if (image.bufferView < 0) return image.image;
        if (size_t(image.bufferView) >= m_.bufferViews.size()) return {};
        const tinygltf::BufferView& bv = m_.bufferViews[size_t(image.bufferView)];
        if (bv.buffer < 0 || size_t(bv.buffer) >= m_.buffers.size()) return {};
        const std::vector<unsigned char>& data = m_.buffers[size_t(bv.buffer)].data;
        if (bv.byteOffset > data.size() || bv.byteLength > data.size() - bv.byteOffset) return {};
        return {data.data() + bv.byteOffset, bv.byteLength};
    }

    // Big scenes can hold more texels than GltfLimits::maxTextureTexels (hundreds of 2k
    // textures). Rather than refusing them, every base colour texture drops the same number of
    // top mip levels: the fewest that fit all of them (sizes read from the image headers).
    uint32_t levelsToDrop() {
        if (levelsToDrop_) return *levelsToDrop_;
        std::set<std::pair<int, int>> seen;  // (image, sampler): one texture each, as texture() makes them
        std::vector<std::pair<uint64_t, uint64_t>> sizes;
        for (const tinygltf::Material& material : m_.materials) {
            const tinygltf::TextureInfo info = baseColorTextureInfo(material);
            if (info.index < 0 || size_t(info.index) >= m_.textures.size()) continue;
            const tinygltf::Texture& t = m_.textures[size_t(info.index)];
            if (!seen.insert({t.source, t.sampler}).second) continue;
            std::span<const uint8_t> bytes = imageBytesOrEmpty(t.source);
            int w = 0, h = 0, n = 0;
            if (bytes.empty() || bytes.size() > uint64_t(INT32_MAX) || sniffImageFormat(bytes) == ImageFormat::Unknown ||
                !stbi_info_from_memory(bytes.data(), int(bytes.size()), &w, &h, &n) || w < 1 || h < 1)
                continue;
            sizes.push_back({uint64_t(w), uint64_t(h)});
        }
        uint32_t k = 0;
        for (;; ++k) {
            uint64_t total = 0;
            for (auto [w, h] : sizes) total += std::max<uint64_t>(1, w >> k) * std::max<uint64_t>(1, h >> k);
            if (total <= limits_.maxTextureTexels || k == 31) break;
        }
        return *(levelsToDrop_ = k);
    }

    const tinygltf::Model& m_;
    const std::string& path_;
    const GltfLimits& limits_;
    Warnings& warnings_;
    SceneGeometry g_;
    std::vector<glm::dvec3> world_;  // world positions of g_.vertices, until placeRelativeToOrigin()
    std::vector<std::vector<uint32_t>> trianglesByMaterial_;
    std::map<int, uint32_t> materialMap_;                 // glTF material (-1: default) -> scene material
    std::map<std::pair<int, int>, int32_t> textureMap_;  // (image, sampler) -> scene texture (-1: none)
    uint64_t indexTotal_ = 0;
    uint64_t texelsLeft_;
    std::optional<uint32_t> levelsToDrop_;  // levelsToDrop()'s plan, made at the first texture
    bool quantized_ = false;  // KHR_mesh_quantization: integer POSITION, NORMAL and TEXCOORD types
};

}  // namespace

bool isStorageExtension(const std::string& name) {
    // Extensions that change how geometry or images are stored: without them the file cannot
    // be drawn at all (KHR_mesh_quantization, which only widens the attribute types, is read).
    static const char* const kStorageExtensions[] = {"KHR_draco_mesh_compression", "EXT_meshopt_compression", "KHR_texture_basisu",
                                                     "EXT_texture_webp", "EXT_texture_avif"};
    return std::find(std::begin(kStorageExtensions), std::end(kStorageExtensions), name) != std::end(kStorageExtensions);
}

SceneGeometry convert(const tinygltf::Model& model, const std::string& path, const GltfLimits& limits, Warnings& warnings) {
    return Converter(model, path, limits, warnings).run();
}

}  // namespace engine::gltf
