#pragma once
// UpscalerMode::MlSingleFrame: a single-frame network (no history, no depth or motion).
#include "effects/upscaler.h"
#include "vulkan_api.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace effects::detail {

Result<std::unique_ptr<Upscaler>> createSingleFrameUpscaler(const UpscalerDesc& desc, const VulkanApi& vk, std::vector<uint8_t> model);

}  // namespace effects::detail
