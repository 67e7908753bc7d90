#pragma once
// Where the plugin's error values become the engine's exceptions. mlplugin returns
// Result/Status carrying an mlplugin::ErrorCode and the VkResult; the engine and applications
// throw engine::Error. Every plugin error crosses as the engine::Error of the same category
// with the same VkResult, so a device loss or an out-of-memory inside a plugin call is still
// ErrorCode::DeviceLost / OutOfMemory where the application catches it (docs/ARCHITECTURE.md,
// "Decision: errors").
#include "engine/error.h"
#include "mlplugin/result.h"

#include <string>
#include <utility>

namespace bridge {

// One to one: every mlplugin::ErrorCode has an engine::ErrorCode of the same meaning.
engine::ErrorCode toEngineCode(mlplugin::ErrorCode code);
// The mapped code, the plugin's VkResult, and the message "<what>: <plugin message>".
engine::Error toEngineError(const mlplugin::Error& error, const std::string& what);

// Throws toEngineError(status.error(), what) when `status` failed.
void check(const mlplugin::Status& status, const std::string& what);

// The value of `result`, or throws toEngineError(result.error(), what).
template <class T>
T take(mlplugin::Result<T> result, const std::string& what) {
    if (!result) throw toEngineError(result.error(), what);
    return std::move(result).value();
}

}  // namespace bridge
