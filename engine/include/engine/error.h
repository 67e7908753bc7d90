#pragma once
// Engine errors. Runtime failures (a Vulkan call failing, no suitable device, a bad file) throw
// engine::Error with a sentence saying what failed; programming mistakes assert.
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

ENGINE_API_BEGIN
namespace engine {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, VkResult result = VK_SUCCESS)
        : std::runtime_error(message), result_(result) {}
    VkResult result() const { return result_; }
    bool deviceLost() const { return result_ == VK_ERROR_DEVICE_LOST; }

private:
    VkResult result_;
};

const char* toString(VkResult result);

// Throws engine::Error naming the call and where it was made unless `result` is VK_SUCCESS.
void checkVk(VkResult result, const char* call, const char* file, int line);

}  // namespace engine
ENGINE_API_END

#define ENGINE_VK(call) ::engine::checkVk((call), #call, __FILE__, __LINE__)
