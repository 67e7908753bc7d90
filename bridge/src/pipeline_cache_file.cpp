#include "bridge/pipeline_cache_file.h"

#include "bridge/errors.h"
#include "engine/error.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace bridge {

std::vector<uint8_t> readPipelineCacheFile(const std::string& path, uint64_t maxBytes) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return {};
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec) throw engine::Error(engine::ErrorCode::IoError, "pipeline cache '" + path + "': " + ec.message());
    if (size > maxBytes)
        throw engine::Error(engine::ErrorCode::IoError, "pipeline cache '" + path + "' is " + std::to_string(size) + " bytes, more than the " + std::to_string(maxBytes) +
                                 " allowed");
    std::ifstream in(path, std::ios::binary);
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
        throw engine::Error(engine::ErrorCode::IoError, "pipeline cache '" + path + "' cannot be read");
    return bytes;
}

void writePipelineCacheFile(const std::string& path, const mlplugin::Device& device) {
    mlplugin::Result<std::vector<uint8_t>> data = device.pipelineCacheData();
    if (!data) throw toEngineError(data.error(), "pipeline cache '" + path + "'");
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out || !out.write(reinterpret_cast<const char*>(data->data()), std::streamsize(data->size())) || !out.flush())
            throw engine::Error(engine::ErrorCode::IoError, "pipeline cache '" + path + "': cannot write '" + temporary + "'");
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        const std::string why = ec.message();
        std::filesystem::remove(temporary, ec);
        throw engine::Error(engine::ErrorCode::IoError, "pipeline cache '" + path + "': cannot replace it (" + why + ")");
    }
}

}  // namespace bridge
