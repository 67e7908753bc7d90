#pragma once
/// \file
/// Engine errors. Runtime failures (a Vulkan call failing, no suitable device, a bad file) throw
/// engine::Error with a sentence saying what failed; programming mistakes assert.
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

ENGINE_API_BEGIN
namespace engine {

/// The exception the engine throws: a sentence, and the VkResult when a Vulkan call failed.
class Error : public std::runtime_error {
public:
    /// An error with `message` and, for a failed Vulkan call, its `result`.
    explicit Error(const std::string& message, VkResult result = VK_SUCCESS)
        : std::runtime_error(message), result_(result) {}
    /// VK_SUCCESS unless a Vulkan call failed.
    VkResult result() const { return result_; }
    /// True for VK_ERROR_DEVICE_LOST: nothing on this device can be recovered.
    bool deviceLost() const { return result_ == VK_ERROR_DEVICE_LOST; }

private:
    VkResult result_;
};

/// "VK_ERROR_DEVICE_LOST", ... (for messages).
const char* toString(VkResult result);

/// Throws engine::Error naming the call and where it was made unless `result` is VK_SUCCESS.
void checkVk(VkResult result, const char* call, const char* file, int line);

}  // namespace engine
ENGINE_API_END

/// Calls `call` (a Vulkan function returning VkResult) and throws engine::Error naming it on failure.
#define ENGINE_VK(call) ::engine::checkVk((call), #call, __FILE__, __LINE__)
