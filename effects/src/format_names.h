#pragma once
// Names of the formats the effects meet, for messages.
#include <vulkan/vulkan.h>

#include <string>

namespace effects::detail {

std::string formatName(VkFormat format);   // "R16G16B16A16_SFLOAT", or "VkFormat 1234"
std::string layoutName(VkImageLayout layout);
uint32_t componentCount(VkFormat format);  // 0 for formats the effects do not know
bool isDepthFormat(VkFormat format);
bool isSrgbFormat(VkFormat format);        // the sampler decodes these to linear itself
inline std::string extentText(VkExtent2D e) { return std::to_string(e.width) + "x" + std::to_string(e.height); }  // "1920x1080"

// InvalidArgument text when `format` (of the `name` image) is an sRGB format and the effect was
// also told its values are sRGB-encoded (they would be decoded twice); empty otherwise.
std::string doubleSrgbDecodeProblem(const char* name, VkFormat format, bool colorSrgbFlag, const char* flagName);

// The output formats the effects' shaders are built for, for messages.
inline constexpr const char* kSupportedOutputFormats =
    "R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT, R8G8B8A8_UNORM, A2B10G10R10_UNORM_PACK32 or B10G11R11_UFLOAT_PACK32";

}  // namespace effects::detail
