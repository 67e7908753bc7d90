#include "pipeline_cache_data.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace mlplugin::detail {
namespace {

template <class T>
T load(std::span<const uint8_t> bytes, size_t offset) {
    T v;
    std::memcpy(&v, bytes.data() + offset, sizeof(T));
    return v;
}

template <class T>
void store(std::vector<uint8_t>& bytes, size_t offset, T v) {
    std::memcpy(bytes.data() + offset, &v, sizeof(T));
}

std::string hex(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%04x", v);
    return buf;
}

std::string uuidText(std::span<const uint8_t> uuid) {
    std::string s;
    for (uint8_t b : uuid) {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%02x", b);
        s += buf;
    }
    return s;
}

Error rejected(const std::string& why) { return invalidArgument("pipeline cache data rejected: " + why); }

}  // namespace

uint64_t fnv1a64(std::span<const uint8_t> bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    return h;
}

std::vector<uint8_t> wrapPipelineCacheData(std::span<const uint8_t> vulkanData) {
    std::vector<uint8_t> blob(kPipelineCacheEnvelopeBytes + vulkanData.size());
    store(blob, 0, kPipelineCacheMagic);
    store(blob, 4, kPipelineCacheFormat);
    store(blob, 8, uint64_t(vulkanData.size()));
    store(blob, 16, fnv1a64(vulkanData));
    if (!vulkanData.empty()) std::memcpy(blob.data() + kPipelineCacheEnvelopeBytes, vulkanData.data(), vulkanData.size());
    return blob;
}

Result<std::span<const uint8_t>> unwrapPipelineCacheData(std::span<const uint8_t> blob, const PipelineCacheIdentity& identity) {
    constexpr size_t kVulkanHeaderBytes = sizeof(VkPipelineCacheHeaderVersionOne);  // 32
    if (blob.size() < kPipelineCacheEnvelopeBytes || load<uint32_t>(blob, 0) != kPipelineCacheMagic)
        return rejected("not written by Device::pipelineCacheData (" + std::to_string(blob.size()) + " bytes, no mlplugin envelope)");
    if (uint32_t format = load<uint32_t>(blob, 4); format != kPipelineCacheFormat)
        return rejected("envelope format " + std::to_string(format) + ", this plugin reads format " + std::to_string(kPipelineCacheFormat));
    const std::span<const uint8_t> payload = blob.subspan(kPipelineCacheEnvelopeBytes);
    if (uint64_t size = load<uint64_t>(blob, 8); size != payload.size())
        return rejected("the envelope says " + std::to_string(size) + " bytes of Vulkan data, " + std::to_string(payload.size()) + " follow (truncated?)");
    if (load<uint64_t>(blob, 16) != fnv1a64(payload)) return rejected("checksum mismatch (the data is damaged)");
    if (payload.size() < kVulkanHeaderBytes)
        return rejected("the Vulkan data has " + std::to_string(payload.size()) + " bytes, less than its " + std::to_string(kVulkanHeaderBytes) + "-byte header");
    const auto header = load<VkPipelineCacheHeaderVersionOne>(payload, 0);
    if (header.headerSize < kVulkanHeaderBytes || header.headerSize > payload.size())
        return rejected("Vulkan header size " + std::to_string(header.headerSize) + " out of range (" + std::to_string(payload.size()) + " bytes)");
    if (header.headerVersion != VK_PIPELINE_CACHE_HEADER_VERSION_ONE)
        return rejected("Vulkan header version " + std::to_string(int(header.headerVersion)) + " is not VK_PIPELINE_CACHE_HEADER_VERSION_ONE");
    const bool sameUuid = std::memcmp(header.pipelineCacheUUID, identity.uuid.data(), VK_UUID_SIZE) == 0;
    if (header.vendorID != identity.vendorID || header.deviceID != identity.deviceID || !sameUuid)
        return rejected("written for vendor " + hex(header.vendorID) + " device " + hex(header.deviceID) + " (cache UUID " +
                        uuidText(header.pipelineCacheUUID) + "), this is vendor " + hex(identity.vendorID) + " device " + hex(identity.deviceID) +
                        " (cache UUID " + uuidText(identity.uuid) + "): another GPU or driver version");
    return payload;
}

}  // namespace mlplugin::detail
