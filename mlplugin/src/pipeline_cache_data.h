#pragma once
// Internal: the blob Device::pipelineCacheData() writes and DeviceDesc::pipelineCacheData reads.
// A 24-byte envelope (magic, format version, payload size, FNV-1a checksum of the payload)
// around what vkGetPipelineCacheData returned. Restoring checks the envelope, then the Vulkan
// header (VkPipelineCacheHeaderVersionOne: header version, vendor, device, pipeline cache UUID)
// against this device, so a blob of another GPU or driver, or a damaged file, is rejected with a
// sentence saying why before any driver parses it. Pure CPU code, tested without a GPU.
#include "mlplugin/result.h"

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace mlplugin::detail {

inline constexpr uint32_t kPipelineCacheMagic = 0x4350'4C4D;  // "MLPC" little-endian
inline constexpr uint32_t kPipelineCacheFormat = 1;
inline constexpr size_t kPipelineCacheEnvelopeBytes = 24;

// What a Vulkan pipeline cache blob must have been written by.
struct PipelineCacheIdentity {
    uint32_t vendorID = 0;
    uint32_t deviceID = 0;
    std::array<uint8_t, VK_UUID_SIZE> uuid{};
};

uint64_t fnv1a64(std::span<const uint8_t> bytes);

// Envelope + `vulkanData`.
std::vector<uint8_t> wrapPipelineCacheData(std::span<const uint8_t> vulkanData);

// The Vulkan data inside `blob` (a view into it) when the envelope is intact and its header
// names `identity`; otherwise an InvalidArgument error saying what does not match.
Result<std::span<const uint8_t>> unwrapPipelineCacheData(std::span<const uint8_t> blob, const PipelineCacheIdentity& identity);

}  // namespace mlplugin::detail
