#include "engine/error.h"

#include <cstdio>
#include <cstring>

namespace engine {

const char* toString(ErrorCode code) {
    switch (code) {
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::OutOfMemory: return "out of memory";
    case ErrorCode::DeviceLost: return "device lost";
    case ErrorCode::Timeout: return "timeout";
    case ErrorCode::VulkanError: return "Vulkan error";
    case ErrorCode::InvalidModel: return "invalid model";
    case ErrorCode::IoError: return "I/O error";
    }
    return "unknown error";
}

ErrorCode errorCodeFor(VkResult result) {
    switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return ErrorCode::OutOfMemory;
    case VK_ERROR_DEVICE_LOST: return ErrorCode::DeviceLost;
    case VK_TIMEOUT: return ErrorCode::Timeout;
    default: return ErrorCode::VulkanError;
    }
}

const char* toString(VkResult result) {
    switch (result) {
#define CASE(x) case x: return #x;
        CASE(VK_SUCCESS) CASE(VK_NOT_READY) CASE(VK_TIMEOUT) CASE(VK_EVENT_SET) CASE(VK_EVENT_RESET)
        CASE(VK_INCOMPLETE) CASE(VK_ERROR_OUT_OF_HOST_MEMORY) CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        CASE(VK_ERROR_INITIALIZATION_FAILED) CASE(VK_ERROR_DEVICE_LOST) CASE(VK_ERROR_MEMORY_MAP_FAILED)
        CASE(VK_ERROR_LAYER_NOT_PRESENT) CASE(VK_ERROR_EXTENSION_NOT_PRESENT) CASE(VK_ERROR_FEATURE_NOT_PRESENT)
        CASE(VK_ERROR_INCOMPATIBLE_DRIVER) CASE(VK_ERROR_TOO_MANY_OBJECTS) CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
        CASE(VK_ERROR_FRAGMENTED_POOL) CASE(VK_ERROR_OUT_OF_POOL_MEMORY) CASE(VK_ERROR_SURFACE_LOST_KHR)
        CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR) CASE(VK_SUBOPTIMAL_KHR) CASE(VK_ERROR_OUT_OF_DATE_KHR)
#undef CASE
        default: return "VK_ERROR_<unknown>";
    }
}

std::string formatBytes(uint64_t bytes) {
    char buf[48];
    if (bytes >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(1ull << 30));
    else if (bytes >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1ull << 20));
    else if (bytes >= (1ull << 10)) std::snprintf(buf, sizeof buf, "%.1f KiB", double(bytes) / double(1ull << 10));
    else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(bytes));
    return buf;
}

void checkVk(VkResult result, const char* call, const char* file, int line) {
    if (result == VK_SUCCESS) return;
    const char* base = std::strrchr(file, '/');
    std::string message = std::string(call) + " failed with " + toString(result) + " (" +
                          (base ? base + 1 : file) + ":" + std::to_string(line) + ")";
    if (result == VK_ERROR_DEVICE_LOST) message = "GPU device lost: " + message;
    throw Error(message, result);
}

}  // namespace engine
