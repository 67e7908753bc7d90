#pragma once
// Names of the formats the effects meet, for messages.
#include <vulkan/vulkan.h>

#include <string>

namespace effects::detail {

std::string formatName(VkFormat format);   // "R16G16B16A16_SFLOAT", or "VkFormat 1234"
std::string layoutName(VkImageLayout layout);
uint32_t componentCount(VkFormat format);  // 0 for formats the effects do not know
bool isDepthFormat(VkFormat format);

}  // namespace effects::detail
