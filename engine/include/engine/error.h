#pragma once
/// \file
/// Engine errors. Runtime failures (a Vulkan call failing, no suitable device, a bad file, a bad
/// description) throw engine::Error: an ErrorCode saying what kind of failure it is, the VkResult
/// when a Vulkan call failed, and a sentence saying what failed. Programming mistakes assert.
///
/// The codes are the project's one error model (docs/ARCHITECTURE.md, "Decision: errors"):
/// mlplugin::ErrorCode has the same categories and the bridge maps one onto the other, so a
/// device loss or an out-of-memory inside the plugin reaches the application as the same code.
/// What an application does with each:
///   DeviceLost    the VkDevice is gone: destroy everything made on it, recreate the context
///   OutOfMemory   host or device memory (or the context's device-memory budget) is exhausted
///   Timeout       the GPU did not finish a frame in time (a hang); treat like DeviceLost
///   InvalidArgument, InvalidModel, IoError, Unsupported: bad input; say so, nothing to retry
///   VulkanError   any other failing Vulkan call
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <stdexcept>
#include <string>

ENGINE_API_BEGIN
namespace engine {

/// What kind of failure an engine::Error is.
enum class ErrorCode {
    InvalidArgument,  ///< a description, size, option or call order is wrong
    Unsupported,      ///< valid, but this device or build cannot do it
    OutOfMemory,      ///< VK_ERROR_OUT_OF_{HOST,DEVICE}_MEMORY, or the device-memory budget is exceeded
    DeviceLost,       ///< VK_ERROR_DEVICE_LOST (real, or Context::simulateDeviceLoss)
    Timeout,          ///< a fence did not signal within its timeout (GPU hang)
    VulkanError,      ///< any other failing Vulkan call
    InvalidModel,     ///< a model or asset file is malformed or does not fit its use
    IoError,          ///< a file could not be read or written
};

/// "device lost", "out of memory", ... (lower case, for messages).
const char* toString(ErrorCode code);
/// The code a failing VkResult stands for: out-of-memory results -> OutOfMemory,
/// VK_ERROR_DEVICE_LOST -> DeviceLost, VK_TIMEOUT -> Timeout, anything else -> VulkanError.
ErrorCode errorCodeFor(VkResult result);

/// The exception the engine throws: a code, a sentence, and the VkResult when a Vulkan call failed.
class Error : public std::runtime_error {
public:
    /// With a failing `result`, the code is errorCodeFor(result); with VK_SUCCESS it is
    /// InvalidArgument (bad input or call order at an API boundary).
    explicit Error(const std::string& message, VkResult result = VK_SUCCESS)
        : std::runtime_error(message), code_(result == VK_SUCCESS ? ErrorCode::InvalidArgument : errorCodeFor(result)),
          result_(result) {}
    /// An error of kind `code` (and, for a failed Vulkan call, its `result`).
    Error(ErrorCode code, const std::string& message, VkResult result = VK_SUCCESS)
        : std::runtime_error(message), code_(code), result_(result) {}

    /// What kind of failure.
    ErrorCode code() const { return code_; }
    /// VK_SUCCESS unless a Vulkan call failed.
    VkResult result() const { return result_; }
    /// True for a lost device: nothing made on it can be used again.
    bool deviceLost() const { return code_ == ErrorCode::DeviceLost; }
    /// True when memory (or the context's budget) ran out.
    bool outOfMemory() const { return code_ == ErrorCode::OutOfMemory; }

private:
    ErrorCode code_;
    VkResult result_;
};

/// "VK_ERROR_DEVICE_LOST", ... (for messages).
const char* toString(VkResult result);

/// "12.3 MiB", "768.0 KiB", "17 bytes": sizes in error messages.
std::string formatBytes(uint64_t bytes);

/// Throws engine::Error naming the call and where it was made unless `result` is VK_SUCCESS.
void checkVk(VkResult result, const char* call, const char* file, int line);

}  // namespace engine
ENGINE_API_END

/// Calls `call` (a Vulkan function returning VkResult) and throws engine::Error naming it on failure.
#define ENGINE_VK(call) ::engine::checkVk((call), #call, __FILE__, __LINE__)
/// For the calls through which a device loss shows (submits, fence waits, presents, query
/// read-back, mapping): the result passes Context::observe(), so a loss is remembered and a
/// simulated one (Context::simulateDeviceLoss) reports VK_ERROR_DEVICE_LOST here as a real one would.
#define ENGINE_VK_ON(ctx, call) ::engine::checkVk((ctx).observe(call), #call, __FILE__, __LINE__)
