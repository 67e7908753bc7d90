#include "bridge/errors.h"

namespace bridge {

engine::ErrorCode toEngineCode(mlplugin::ErrorCode code) {
    switch (code) {
    case mlplugin::ErrorCode::InvalidArgument: return engine::ErrorCode::InvalidArgument;
    case mlplugin::ErrorCode::Unsupported: return engine::ErrorCode::Unsupported;
    case mlplugin::ErrorCode::OutOfMemory: return engine::ErrorCode::OutOfMemory;
    case mlplugin::ErrorCode::DeviceLost: return engine::ErrorCode::DeviceLost;
    case mlplugin::ErrorCode::VulkanError: return engine::ErrorCode::VulkanError;
    case mlplugin::ErrorCode::InvalidModel: return engine::ErrorCode::InvalidModel;
    case mlplugin::ErrorCode::IoError: return engine::ErrorCode::IoError;
    }
    return engine::ErrorCode::VulkanError;
}

engine::Error toEngineError(const mlplugin::Error& error, const std::string& what) {
    return engine::Error(toEngineCode(error.code), what + ": " + error.message, error.vkResult);
}

void check(const mlplugin::Status& status, const std::string& what) {
    if (!status) throw toEngineError(status.error(), what);
}

}  // namespace bridge
