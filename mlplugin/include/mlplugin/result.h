#pragma once
/// \file
/// Errors are values: every fallible call returns Result<T> (or Status) carrying an error code
/// and a sentence that names the operator, field and numbers involved. Programming mistakes
/// that cannot come from user data (null handles, calling record on a moved-from object) assert.
#include "mlplugin/export.h"

#include <vulkan/vulkan.h>

#include <cassert>
#include <string>
#include <utility>
#include <variant>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// What kind of failure an Error is: callers branch on it (retry, fall back, give up).
enum class ErrorCode {
    InvalidArgument,     ///< a desc, shape, binding or parameter is wrong
    Unsupported,         ///< valid, but this device or this build cannot do it
    OutOfMemory,         ///< VK_ERROR_OUT_OF_{HOST,DEVICE}_MEMORY
    DeviceLost,          ///< VK_ERROR_DEVICE_LOST: the GPU faulted or was reset
    VulkanError,         ///< any other failing Vulkan call
    InvalidModel,        ///< a model file is malformed or hostile
    IoError,             ///< a file could not be read or written
};

/// "invalid argument", "device lost", ... (for messages).
const char* toString(ErrorCode code);

/// A recoverable failure: a code to branch on and a sentence for people.
struct Error {
    ErrorCode code = ErrorCode::InvalidArgument;  ///< what kind of failure
    std::string message;  ///< names the operator, field and numbers ("convolution 'conv1': input channels 17 not divisible by groups 4")
    VkResult vkResult = VK_SUCCESS;  ///< the failing Vulkan call's result (VK_SUCCESS when no Vulkan call failed)
};

/// Minimal expected<T, Error>: C++20 has no std::expected.
template <class T>
class [[nodiscard]] Result {
public:
    /// A success holding `value`.
    Result(T value) : v_(std::move(value)) {}
    /// A failure.
    Result(Error error) : v_(std::move(error)) {}
    /// True when the result holds a value.
    bool ok() const { return v_.index() == 0; }
    /// Same as ok().
    explicit operator bool() const { return ok(); }
    /// The value (asserts ok()).
    T& value() & { assert(ok()); return std::get<0>(v_); }
    /// The value (asserts ok()).
    const T& value() const& { assert(ok()); return std::get<0>(v_); }
    /// The value, moved out (asserts ok()).
    T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
    /// Member access to the value (asserts ok()).
    T* operator->() { return &value(); }
    /// Member access to the value (asserts ok()).
    const T* operator->() const { return &value(); }
    /// The value (asserts ok()).
    T& operator*() & { return value(); }
    /// The error (asserts !ok()).
    const Error& error() const { assert(!ok()); return std::get<1>(v_); }

private:
    std::variant<T, Error> v_;
};

/// The result of a call that returns nothing but may fail.
class [[nodiscard]] Status {
public:
    /// Success.
    Status() = default;
    /// A failure.
    Status(Error error) : error_(std::move(error)), ok_(false) {}
    /// True on success.
    bool ok() const { return ok_; }
    /// Same as ok().
    explicit operator bool() const { return ok_; }
    /// The error (asserts !ok()).
    const Error& error() const { assert(!ok_); return error_; }

private:
    Error error_;
    bool ok_ = true;
};

/// An ErrorCode::InvalidArgument error with `message`.
inline Error invalidArgument(std::string message) { return {ErrorCode::InvalidArgument, std::move(message)}; }
/// An ErrorCode::Unsupported error with `message`.
inline Error unsupported(std::string message) { return {ErrorCode::Unsupported, std::move(message)}; }
/// Maps a failing VkResult to OutOfMemory / DeviceLost / VulkanError with `what` as context.
Error vulkanError(VkResult result, const std::string& what);

}  // namespace mlplugin
MLPLUGIN_API_END

/// Propagates a failed Status/Result from the enclosing function (which returns a Status or a
/// Result).
#define MLP_TRY(expr)                                   \
    do {                                                \
        auto&& mlp_try_result_ = (expr);                \
        if (!mlp_try_result_.ok()) return mlp_try_result_.error(); \
    } while (0)
