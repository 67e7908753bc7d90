// Reading and parsing glTF files: the model file under a size cap, a structural check of .glb
// containers and of the JSON's nesting before tinygltf sees them, tinygltf with file access
// confined to the model's folder and image decoding deferred (gltf_convert.cpp decodes only
// the base colour textures it uses, after checking their size).
#include "engine/error.h"
#include "gltf_internal.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string_view>

namespace engine {
namespace gltf {

std::vector<std::string> Warnings::list() const {
    std::vector<std::string> out;
    for (const auto& [feature, count] : counts_)
        out.push_back(feature + (count > 1 ? " (" + std::to_string(count) + " occurrences)" : ""));
    return out;
}

void fail(const std::string& path, const std::string& message) { throw Error("glTF '" + path + "': " + message); }

}  // namespace gltf

namespace {

namespace fs = std::filesystem;
using gltf::fail;

constexpr uint32_t kGlbMagic = 0x46546C67;      // "glTF"
constexpr uint32_t kChunkJson = 0x4E4F534A;     // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;      // "BIN\0"

uint32_t readU32(const std::vector<uint8_t>& b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);  // little-endian hosts (x86-64, arm64)
    return v;
}

std::vector<uint8_t> readFileCapped(const std::string& path, const fs::path& file, uint64_t maxBytes, const std::string& what) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) fail(path, what + " does not exist or is not a regular file");
    uint64_t size = fs::file_size(file, ec);
    if (ec) fail(path, "cannot read " + what + ": " + ec.message());
    if (size > maxBytes) fail(path, what + " has " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(maxBytes));
    std::vector<uint8_t> bytes(size);
    std::ifstream in(file, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size))) fail(path, "cannot read " + what);
    return bytes;
}

// The JSON chunk of a .glb after checking the container's header and chunk lengths.
std::span<const uint8_t> checkGlb(const std::string& path, const std::vector<uint8_t>& b) {
    if (b.size() < 20) fail(path, "truncated .glb: " + std::to_string(b.size()) + " bytes, less than its 20-byte header");
    uint32_t version = readU32(b, 4), length = readU32(b, 8), jsonLength = readU32(b, 12), jsonType = readU32(b, 16);
    if (version != 2) fail(path, ".glb version " + std::to_string(version) + " is not 2");
    if (length > b.size())
        fail(path, "truncated .glb: the header says " + std::to_string(length) + " bytes, the file has " + std::to_string(b.size()));
    if (length < b.size())
        fail(path, ".glb header length " + std::to_string(length) + " is less than the file's " + std::to_string(b.size()) + " bytes");
    if (jsonType != kChunkJson) fail(path, ".glb: the first chunk is not JSON");
    if (jsonLength == 0 || uint64_t(jsonLength) > uint64_t(length) - 20)
        fail(path, "truncated .glb: the JSON chunk's " + std::to_string(jsonLength) + " bytes exceed the file");
    uint64_t binAt = 20ull + jsonLength;
    if (binAt < length) {
        if (binAt + 8 > length) fail(path, "truncated .glb: an incomplete chunk header after the JSON chunk");
        uint32_t binLength = readU32(b, size_t(binAt)), binType = readU32(b, size_t(binAt) + 4);
        if (binType != kChunkBin) fail(path, ".glb: the second chunk is not BIN");
        if (binAt + 8 + binLength > length)
            fail(path, "truncated .glb: the BIN chunk's " + std::to_string(binLength) + " bytes exceed the file");
    }
    return {b.data() + 20, jsonLength};
}

// Nesting depth of arrays and objects, strings skipped: a deeply nested file must not exhaust
// memory or the stack inside the JSON parser.
void checkJsonDepth(const std::string& path, std::span<const uint8_t> json, uint32_t maxDepth) {
    uint32_t depth = 0;
    bool inString = false, escaped = false;
    for (uint8_t c : json) {
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth) fail(path, "JSON nested deeper than " + std::to_string(maxDepth) + " levels");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
}

// File access for tinygltf: relative URIs inside the model's folder only.
struct Sandbox {
    fs::path root;          // canonical folder of the model file
    std::string rootPrefix;  // root with a trailing '/'
    uint64_t maxFileBytes = 0;
    uint64_t remainingBytes = 0;
    std::string error;  // the first refusal (tinygltf reports failed image reads only as warnings)
    // Files that do not exist, by the path tinygltf asked for: not a refusal. A missing buffer
    // fails the parse (and is named by this message); a missing image matters only where a
    // drawn material uses it (convert() names it then, and otherwise warns).
    std::vector<std::string> missing;

    bool refuse(std::string* err, const std::string& message) {
        if (error.empty()) error = message;
        if (err) *err += message;
        return false;
    }
    bool notFound(std::string* err, const std::string& message) {
        missing.push_back(message);
        if (err) *err += message;
        return false;
    }
};

bool anyFileExists(const std::string&, void*) { return true; }  // checked (with a message) when read
std::string noExpansion(const std::string& path, void*) { return path; }  // no shell-style expansion
bool noWrites(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err += "writing files is disabled";
    return false;
}

// For messages: control characters (a URI-decoded %00 among them) as \xNN.
std::string printable(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (uint8_t(c) >= 0x20) {
            out += c;
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", unsigned(uint8_t(c)));
            out += hex;
        }
    }
    return out;
}

// The payload of a base64 data: URI as tinygltf hands it over (URL-decoded, so '+' became ' ');
// also accepts base64url's '-' and '_'. Empty optional: not base64.
std::optional<std::vector<unsigned char>> decodeBase64(std::string_view text) {
    auto value = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+' || c == ' ' || c == '-') return 62;
        if (c == '/' || c == '_') return 63;
        return -1;
    };
    while (!text.empty() && text.back() == '=') text.remove_suffix(1);
    std::vector<unsigned char> out;
    out.reserve(text.size() / 4 * 3 + 3);
    uint32_t bits = 0;
    int count = 0;
    for (char c : text) {
        const int v = value(c);
        if (v < 0) return std::nullopt;
        bits = (bits << 6) | uint32_t(v);
        if (++count == 4) {
            out.insert(out.end(), {uint8_t(bits >> 16), uint8_t(bits >> 8), uint8_t(bits)});
            bits = 0, count = 0;
        }
    }
    if (count == 1) return std::nullopt;
    if (count == 2) out.push_back(uint8_t(bits >> 4));
    if (count == 3) out.insert(out.end(), {uint8_t(bits >> 10), uint8_t(bits >> 2)});
    return out;
}

// tinygltf decodes data: URIs itself only for a few media types (octet-stream, PNG, JPEG, BMP,
// GIF, ...) and hands any other one (image/ktx2, image/webp, ...) to the file callback as a
// path: decode it here, so that such an image is drawn as an unsupported format (or not used,
// next to a PNG fallback) instead of refusing the whole file as a URI scheme.
bool readDataUri(std::vector<unsigned char>* out, std::string* err, const std::string& uri, Sandbox& box) {
    const size_t comma = uri.find(',');
    std::string header = uri.substr(0, std::min<size_t>(comma, 80));
    auto refuse = [&](const std::string& why) { return box.refuse(err, "data URI '" + printable(header) + ",...': " + why); };
    if (comma == std::string::npos) return refuse("no ',' before the data");
    if (header.size() < 7 || header.compare(header.size() - 7, 7, ";base64") != 0)
        return refuse("only base64 data: URIs are supported");
    std::optional<std::vector<unsigned char>> bytes = decodeBase64(std::string_view(uri).substr(comma + 1));
    if (!bytes) return refuse("the data is not valid base64");
    if (bytes->size() > box.maxFileBytes || bytes->size() > box.remainingBytes)
        return refuse(std::to_string(bytes->size()) + " bytes exceed the limit (" +
                      std::to_string(std::min(box.maxFileBytes, box.remainingBytes)) + " bytes left for this model's files)");
    box.remainingBytes -= bytes->size();
    *out = std::move(*bytes);
    return true;
}

bool readInsideFolder(std::vector<unsigned char>* out, std::string* err, const std::string& joined, void* user) {
    Sandbox& box = *static_cast<Sandbox*>(user);
    // tinygltf joins the base directory (the root) and the URI-decoded reference.
    if (joined.compare(0, box.rootPrefix.size(), box.rootPrefix) != 0)
        return box.refuse(err, "the external file '" + printable(joined) + "' is outside the model's folder");
    std::string rel = joined.substr(box.rootPrefix.size());
    if (rel.compare(0, 5, "data:") == 0) return readDataUri(out, err, rel, box);
    auto refuse = [&](const std::string& why) { return box.refuse(err, "external URI '" + printable(rel) + "': " + why); };
    if (rel.empty()) return refuse("empty");
    if (rel[0] == '/') return refuse("absolute paths are not allowed (only paths relative to the model's folder)");
    size_t colon = rel.find(':'), slash = rel.find('/');
    if (colon != std::string::npos && (slash == std::string::npos || colon < slash))
        return refuse("URI schemes are not supported (only relative paths and data: URIs)");
    if (std::any_of(rel.begin(), rel.end(), [](char c) { return uint8_t(c) < 0x20 || c == '\\'; }))
        return refuse("control characters and backslashes are not allowed");
    for (size_t start = 0;;) {
        size_t end = rel.find('/', start);
        std::string_view part(rel.data() + start, (end == std::string::npos ? rel.size() : end) - start);
        if (part == "..") return refuse("'..' is not allowed (files must lie inside the model's folder)");
        if (end == std::string::npos) break;
        start = end + 1;
    }
    std::error_code ec;
    fs::path resolved = fs::canonical(box.root / rel, ec);
    if (ec) return box.notFound(err, "external URI '" + printable(rel) + "': cannot find it in the model's folder (" + ec.message() + ")");
    if (resolved.string().compare(0, box.rootPrefix.size(), box.rootPrefix) != 0)
        return refuse("resolves (through a symbolic link) to '" + resolved.string() + "', outside the model's folder");
    if (!fs::is_regular_file(resolved, ec)) return refuse("not a regular file");
    uint64_t size = fs::file_size(resolved, ec);
    if (ec) return refuse("cannot read it: " + ec.message());
    if (size > box.maxFileBytes || size > box.remainingBytes)
        return refuse(std::to_string(size) + " bytes exceed the limit (" + std::to_string(std::min(box.maxFileBytes, box.remainingBytes)) +
                      " bytes left for this model's files)");
    out->resize(size);
    std::ifstream in(resolved, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(out->data()), std::streamsize(size))) return refuse("cannot read it");
    box.remainingBytes -= size;
    return true;
}

// Keeps the encoded bytes; decoding happens in convert() for the images that are used. Images
// in buffer views are ignored here: tinygltf hands them over before any range check, so
// convert() reads them itself from a validated range.
bool deferImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int, const unsigned char* bytes, int size, void*) {
    if (image->bufferView >= 0 || bytes == nullptr || size <= 0) return true;
    image->image.assign(bytes, bytes + size);
    image->as_is = true;
    return true;
}

// tinygltf's error text on one line, without the kilobytes of base64 a parse error can quote.
std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    std::replace(s.begin(), s.end(), '\n', ';');
    constexpr size_t kMax = 400;
    if (s.size() > kMax) s = s.substr(0, kMax) + "...";
    return printable(s);
}

// A file that is neither a .glb nor JSON (an image, a text file, an empty file) gets a message
// that says so, not a JSON parser's complaint about its first byte.
void checkLooksLikeJson(const std::string& path, std::span<const uint8_t> text) {
    if (text.empty()) fail(path, "the file is empty (expected a .gltf JSON object or a binary .glb)");
    size_t at = text.size() >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF ? 3 : 0;  // UTF-8 byte order mark
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) ++at;
    if (at < text.size() && text[at] == '{') {
        if (text.size() - at < 4)  // tinygltf would say "JSON string too short."
            fail(path, "the file has " + std::to_string(text.size()) + " bytes, too few for a glTF JSON object (it needs at least \"asset\")");
        return;
    }
    std::string start;
    for (size_t i = 0; i < std::min<size_t>(text.size(), 4); ++i) {
        char hex[4];
        std::snprintf(hex, sizeof hex, "%02X", unsigned(text[i]));
        start += (i ? " " : "") + std::string(hex);
    }
    fail(path, "not a glTF file: neither a binary .glb (starting with 'glTF') nor a JSON object (it starts with bytes " + start + ")");
}

// tinygltf fails on files whose geometry is compressed before convert() could name the
// extension (Draco accessors have no buffer view; meshopt buffers no data): name it here.
std::string compressionHint(std::span<const uint8_t> json, bool& required) {
    nlohmann::json j = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    required = false;
    if (!j.is_object()) return {};
    for (const char* list : {"extensionsRequired", "extensionsUsed"}) {
        auto it = j.find(list);
        if (it == j.end() || !it->is_array()) continue;
        for (const auto& e : *it)
            if (e.is_string() && gltf::isStorageExtension(e.get<std::string>())) {
                required = std::string(list) == "extensionsRequired";
                return e.get<std::string>();
            }
    }
    return {};
}

// tinygltf refuses an index accessor without a buffer view ("accessor[N] invalid bufferView"),
// which the spec allows (its indices are zeros, unless sparse substitutions replace some). Such
// primitives lose their "indices" for tinygltf, listed in `removed` as (mesh, primitive,
// accessor) to be put back after parsing; returns the file's bytes with the edited JSON (a .glb
// rebuilt around it, its BIN chunk unchanged), or nothing when no primitive has such indices.
struct RemovedIndices {
    size_t mesh, primitive;
    int accessor;
};
std::optional<std::vector<uint8_t>> withoutViewlessIndices(const std::vector<uint8_t>& bytes, bool binary, std::span<const uint8_t> json,
                                                           std::vector<RemovedIndices>& removed) {
    nlohmann::json j = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    if (!j.is_object() || !j.contains("meshes") || !j["meshes"].is_array() || !j.contains("accessors") || !j["accessors"].is_array())
        return std::nullopt;
    const nlohmann::json& accessors = j["accessors"];
    for (size_t m = 0; m < j["meshes"].size(); ++m) {
        nlohmann::json& mesh = j["meshes"][m];
        if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
        for (size_t p = 0; p < mesh["primitives"].size(); ++p) {
            nlohmann::json& prim = mesh["primitives"][p];
            if (!prim.is_object() || !prim.contains("indices") || !prim["indices"].is_number_unsigned()) continue;
            const uint64_t a = prim["indices"].get<uint64_t>();
            if (a >= accessors.size() || !accessors[a].is_object() || accessors[a].contains("bufferView")) continue;
            removed.push_back({m, p, int(a)});
            prim.erase("indices");
        }
    }
    if (removed.empty()) return std::nullopt;
    std::string text = j.dump();
    if (!binary) return std::vector<uint8_t>(text.begin(), text.end());
    text.append((4 - text.size() % 4) % 4, ' ');
    const size_t binAt = 20 + json.size();  // the rest of the container (checked by checkGlb)
    std::vector<uint8_t> out(20);
    std::memcpy(out.data(), bytes.data(), 12);
    const uint32_t jsonLength = uint32_t(text.size()), jsonType = kChunkJson;
    std::memcpy(out.data() + 12, &jsonLength, 4);
    std::memcpy(out.data() + 16, &jsonType, 4);
    out.insert(out.end(), text.begin(), text.end());
    out.insert(out.end(), bytes.begin() + std::ptrdiff_t(binAt), bytes.end());
    const uint32_t length = uint32_t(out.size());
    std::memcpy(out.data() + 8, &length, 4);
    return out;
}

}  // namespace

SceneGeometry loadGltfScene(const std::string& path, const GltfLimits& limits) {
    std::error_code ec;
    fs::path file = fs::canonical(path, ec);
    if (ec) fail(path, "cannot open the file: " + ec.message());
    std::vector<uint8_t> bytes = readFileCapped(path, file, limits.maxFileBytes, "the file");
    const bool binary = bytes.size() >= 4 && readU32(bytes, 0) == kGlbMagic;
    std::span<const uint8_t> json = binary ? checkGlb(path, bytes) : std::span<const uint8_t>(bytes);
    if (json.size() > limits.maxJsonBytes)
        fail(path, "the JSON has " + std::to_string(json.size()) + " bytes, more than the limit of " + std::to_string(limits.maxJsonBytes));
    if (!binary) checkLooksLikeJson(path, json);
    checkJsonDepth(path, json, limits.maxJsonDepth);

    Sandbox box;
    box.root = file.parent_path();
    box.rootPrefix = box.root.string();
    if (box.rootPrefix.empty() || box.rootPrefix.back() != '/') box.rootPrefix += '/';
    box.maxFileBytes = limits.maxFileBytes;
    box.remainingBytes = limits.maxTotalBytes > bytes.size() ? limits.maxTotalBytes - bytes.size() : 0;

    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(&deferImage, nullptr);
    loader.SetFsCallbacks({&anyFileExists, &noExpansion, &readInsideFolder, &noWrites, &box});
    tinygltf::Model model;
    std::string err, warn;
    auto parse = [&](const std::vector<uint8_t>& data) {
        try {
            return binary ? loader.LoadBinaryFromMemory(&model, &err, &warn, data.data(), unsigned(data.size()), box.root.string())
                          : loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(data.data()), unsigned(data.size()),
                                                       box.root.string());
        } catch (const std::exception& e) {
            fail(path, std::string("malformed file: ") + e.what());
        }
    };
    bool ok = parse(bytes);
    std::vector<RemovedIndices> removed;
    // (Not for files that use a compression extension: their accessors have no buffer view
    // because the data is compressed, which is named below.)
    bool compressed = false;
    if (!ok && box.error.empty() && err.find("invalid bufferView") != std::string::npos && compressionHint(json, compressed).empty()) {
        if (auto edited = withoutViewlessIndices(bytes, binary, json, removed)) {
            model = {};
            err.clear();
            warn.clear();
            box.remainingBytes = limits.maxTotalBytes > bytes.size() ? limits.maxTotalBytes - bytes.size() : 0;
            ok = parse(*edited);
            for (const RemovedIndices& r : removed)  // the same JSON, so these exist
                if (ok && r.mesh < model.meshes.size() && r.primitive < model.meshes[r.mesh].primitives.size())
                    model.meshes[r.mesh].primitives[r.primitive].indices = r.accessor;
        }
    }
    if (!box.error.empty()) fail(path, box.error);
    if (!ok)
        for (const std::string& message : box.missing)  // a buffer's file (tinygltf wraps the message in its own)
            if (err.find(message) != std::string::npos) fail(path, message);
    if (!ok) {
        std::string message = err.empty() ? "malformed file" : trimmed(err);
        bool required = false;
        if (std::string e = compressionHint(json, required); !e.empty()) {
            if (required)
                fail(path, "requires extension " + e + ", which is not supported (the file's geometry or images cannot be read without it)");
            message += " (the file uses extension " + e + ", which is not supported)";
        }
        fail(path, message);
    }
    bytes = {};  // the buffers hold what convert() needs

    gltf::Warnings warnings;
    SceneGeometry scene = gltf::convert(model, path, limits, warnings);
    scene.warnings = warnings.list();
    return scene;
}

}  // namespace engine
