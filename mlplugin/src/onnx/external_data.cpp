#include "onnx/external_data.h"

#include <charconv>
#include <fstream>
#include <system_error>

namespace mlplugin::onnx_detail {
namespace {

namespace fs = std::filesystem;

Error invalidModel(const std::string& what, const std::string& why) { return {ErrorCode::InvalidModel, what + ": external data " + why}; }

// A non-negative decimal integer (the ONNX helpers write offset and length in decimal).
bool parseCount(const std::string& s, uint64_t& out) {
    if (s.empty()) return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

// Whether `path` (canonical) lies inside `folder` (canonical).
bool inside(const fs::path& path, const fs::path& folder) {
    fs::path rel = path.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != ".." && *rel.begin() != ".";
}

}  // namespace

Result<std::string> readExternalData(const onnx::TensorProto& t, const std::string& what, const ExternalDataSource& source,
                                     uint64_t expectedBytes) {
    if (t.data_location() != onnx::TensorProto::EXTERNAL)
        return invalidModel(what, "entries are given but data_location is not EXTERNAL");
    if (t.has_raw_data()) return invalidModel(what, "and raw_data are both given");
    std::string location;
    uint64_t offset = 0, length = 0;
    bool hasLocation = false, hasLength = false;
    for (const auto& entry : t.external_data()) {
        const std::string& key = entry.key();
        if (key == "location") {
            location = entry.value();
            hasLocation = true;
        } else if (key == "offset") {
            if (!parseCount(entry.value(), offset)) return invalidModel(what, "offset '" + entry.value() + "' is not a non-negative integer");
        } else if (key == "length") {
            if (!parseCount(entry.value(), length)) return invalidModel(what, "length '" + entry.value() + "' is not a non-negative integer");
            hasLength = true;
        } else if (key != "checksum") {
            return invalidModel(what, "key '" + key + "' is not one of location, offset, length, checksum");
        }
    }
    if (!hasLocation || location.empty()) return invalidModel(what, "has no location");
    if (source.folder.empty())
        return Error{ErrorCode::InvalidArgument, what + ": external data ('" + location +
                                                     "') needs the model's folder; load the model with loadOnnxFile, not from bytes"};
    if (location.find('\0') != std::string::npos) return invalidModel(what, "location contains a NUL character");
    fs::path relative(location);
    if (relative.is_absolute() || relative.has_root_name() || relative.has_root_directory())
        return invalidModel(what, "location '" + location + "' is an absolute path (it must be relative to the model's folder)");
    for (const auto& part : relative)
        if (part == "..") return invalidModel(what, "location '" + location + "' leaves the model's folder ('..')");
    std::error_code ec;
    fs::path resolved = fs::canonical(source.folder / relative, ec);
    if (ec) return Error{ErrorCode::IoError, what + ": external data file '" + location + "' cannot be opened (" + ec.message() + ")"};
    if (!inside(resolved, source.folder))
        return invalidModel(what, "location '" + location + "' resolves to '" + resolved.string() + "', outside the model's folder '" +
                                      source.folder.string() + "'");
    if (!fs::is_regular_file(resolved, ec)) return invalidModel(what, "location '" + location + "' is not a regular file");
    uint64_t fileSize = fs::file_size(resolved, ec);
    if (ec) return Error{ErrorCode::IoError, what + ": external data file '" + location + "' cannot be read (" + ec.message() + ")"};
    if (offset > fileSize)
        return invalidModel(what, "offset " + std::to_string(offset) + " is beyond the end of '" + location + "' (" + std::to_string(fileSize) + " bytes)");
    if (!hasLength) length = fileSize - offset;
    if (length > fileSize - offset)
        return invalidModel(what, "offset " + std::to_string(offset) + " + length " + std::to_string(length) + " is beyond the end of '" +
                                      location + "' (" + std::to_string(fileSize) + " bytes)");
    if (length != expectedBytes)
        return invalidModel(what, "length " + std::to_string(length) + " differs from the " + std::to_string(expectedBytes) + " bytes its dims need");
    std::ifstream file(resolved, std::ios::binary);
    std::string bytes(length, '\0');
    if (!file.seekg(std::streamoff(offset)) || !file.read(bytes.data(), std::streamsize(length)))
        return Error{ErrorCode::IoError, what + ": cannot read " + std::to_string(length) + " bytes at offset " + std::to_string(offset) + " of '" +
                                             location + "'"};
    return bytes;
}

}  // namespace mlplugin::onnx_detail
