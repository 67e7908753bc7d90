#include "mlplugin/result.h"

#include <string>

namespace mlplugin {

const char* toString(ErrorCode code) {
    switch (code) {
    case ErrorCode::InvalidArgument: return "invalid argument";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::OutOfMemory: return "out of memory";
    case ErrorCode::DeviceLost: return "device lost";
    case ErrorCode::VulkanError: return "Vulkan error";
    case ErrorCode::InvalidModel: return "invalid model";
    case ErrorCode::IoError: return "I/O error";
    }
    return "unknown error";
}

Error vulkanError(VkResult result, const std::string& what) {
    switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return {ErrorCode::OutOfMemory, what + ": out of host memory (VK_ERROR_OUT_OF_HOST_MEMORY)", result};
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return {ErrorCode::OutOfMemory, what + ": out of device memory (VK_ERROR_OUT_OF_DEVICE_MEMORY)", result};
    case VK_ERROR_DEVICE_LOST:
        return {ErrorCode::DeviceLost, what + ": the GPU device was lost (VK_ERROR_DEVICE_LOST)", result};
    default:
        return {ErrorCode::VulkanError, what + ": Vulkan call failed with VkResult " + std::to_string(int(result)), result};
    }
}

}  // namespace mlplugin
