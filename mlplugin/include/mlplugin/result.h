#pragma once
// Errors are values: every fallible call returns Result<T> (or Status) carrying an error code
// and a sentence that names the operator, field and numbers involved. Programming mistakes
// that cannot come from user data (null handles, calling record on a moved-from object) assert.
#include "mlplugin/export.h"

#include <vulkan/vulkan.h>

#include <cassert>
#include <string>
#include <utility>
#include <variant>

MLPLUGIN_API_BEGIN
namespace mlplugin {

enum class ErrorCode {
    InvalidArgument,     // a desc, shape, binding or parameter is wrong
    Unsupported,         // valid, but this device or this build cannot do it
    OutOfMemory,         // VK_ERROR_OUT_OF_{HOST,DEVICE}_MEMORY
    DeviceLost,          // VK_ERROR_DEVICE_LOST: the GPU faulted or was reset
    VulkanError,         // any other failing Vulkan call
    InvalidModel,        // a model file is malformed or hostile
    IoError,             // a file could not be read or written
};

const char* toString(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::InvalidArgument;
    std::string message;
    VkResult vkResult = VK_SUCCESS;
};

// Minimal expected<T, Error>: C++20 has no std::expected.
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Error error) : v_(std::move(error)) {}
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { assert(ok()); return std::get<0>(v_); }
    const T& value() const& { assert(ok()); return std::get<0>(v_); }
    T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const Error& error() const { assert(!ok()); return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : error_(std::move(error)), ok_(false) {}
    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const Error& error() const { assert(!ok_); return error_; }

private:
    Error error_;
    bool ok_ = true;
};

inline Error invalidArgument(std::string message) { return {ErrorCode::InvalidArgument, std::move(message)}; }
inline Error unsupported(std::string message) { return {ErrorCode::Unsupported, std::move(message)}; }
// Maps a failing VkResult to OutOfMemory / DeviceLost / VulkanError with `what` as context.
Error vulkanError(VkResult result, const std::string& what);

}  // namespace mlplugin
MLPLUGIN_API_END

// Propagates a failed Status/Result from the enclosing function.
#define MLP_TRY(expr)                                   \
    do {                                                \
        auto&& mlp_try_result_ = (expr);                \
        if (!mlp_try_result_.ok()) return mlp_try_result_.error(); \
    } while (0)
