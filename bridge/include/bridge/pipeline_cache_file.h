#pragma once
/// \file
/// A plugin pipeline cache kept in a file between runs (mlrun and upscale_demo --pipeline-cache):
///
///   auto device = bridge::createDevice(ctx, false, bridge::readPipelineCacheFile(path));
///   ... compile ...
///   bridge::writePipelineCacheFile(path, *device);
///
/// The file holds mlplugin::Device::pipelineCacheData(); the plugin validates it when the device
/// is created (another GPU or driver, or a damaged file, starts an empty cache).
#include "bridge/export.h"
#include "mlplugin/device.h"

#include <cstdint>
#include <string>
#include <vector>

BRIDGE_API_BEGIN
namespace bridge {

/// The file's bytes; empty when it does not exist. Throws engine::Error (IoError) when it exists
/// but cannot be read, or is larger than `maxBytes`.
std::vector<uint8_t> readPipelineCacheFile(const std::string& path, uint64_t maxBytes = uint64_t(1) << 30);

/// Writes the device's pipeline cache to `path` (through a temporary file renamed over it, so a
/// crash never leaves half a file). Throws engine::Error naming the path on failure (IoError for
/// the file, the plugin's code when the cache cannot be read out).
void writePipelineCacheFile(const std::string& path, const mlplugin::Device& device);

}  // namespace bridge
BRIDGE_API_END
