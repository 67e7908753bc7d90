#include "format_names.h"

namespace effects::detail {
namespace {

struct FormatInfo {
    VkFormat format;
    const char* name;
    uint32_t components;
    bool depth;
};

constexpr FormatInfo kFormats[] = {
    {VK_FORMAT_R8_UNORM, "R8_UNORM", 1, false},
    {VK_FORMAT_R16_SFLOAT, "R16_SFLOAT", 1, false},
    {VK_FORMAT_R32_SFLOAT, "R32_SFLOAT", 1, false},
    {VK_FORMAT_R16_UNORM, "R16_UNORM", 1, false},
    {VK_FORMAT_R8G8_UNORM, "R8G8_UNORM", 2, false},
    {VK_FORMAT_R16G16_SFLOAT, "R16G16_SFLOAT", 2, false},
    {VK_FORMAT_R16G16_SNORM, "R16G16_SNORM", 2, false},
    {VK_FORMAT_R32G32_SFLOAT, "R32G32_SFLOAT", 2, false},
    {VK_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM", 4, false},
    {VK_FORMAT_R8G8B8A8_SRGB, "R8G8B8A8_SRGB", 4, false},
    {VK_FORMAT_B8G8R8A8_UNORM, "B8G8R8A8_UNORM", 4, false},
    {VK_FORMAT_B8G8R8A8_SRGB, "B8G8R8A8_SRGB", 4, false},
    {VK_FORMAT_A8B8G8R8_SRGB_PACK32, "A8B8G8R8_SRGB_PACK32", 4, false},
    {VK_FORMAT_R8G8B8_SRGB, "R8G8B8_SRGB", 3, false},
    {VK_FORMAT_B8G8R8_SRGB, "B8G8R8_SRGB", 3, false},
    {VK_FORMAT_R8_SRGB, "R8_SRGB", 1, false},
    {VK_FORMAT_R8G8_SRGB, "R8G8_SRGB", 2, false},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, "A2B10G10R10_UNORM_PACK32", 4, false},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, "B10G11R11_UFLOAT_PACK32", 3, false},
    {VK_FORMAT_R16G16B16A16_SFLOAT, "R16G16B16A16_SFLOAT", 4, false},
    {VK_FORMAT_R32G32B32A32_SFLOAT, "R32G32B32A32_SFLOAT", 4, false},
    {VK_FORMAT_D16_UNORM, "D16_UNORM", 1, true},
    {VK_FORMAT_D32_SFLOAT, "D32_SFLOAT", 1, true},
    {VK_FORMAT_X8_D24_UNORM_PACK32, "X8_D24_UNORM_PACK32", 1, true},
    {VK_FORMAT_D24_UNORM_S8_UINT, "D24_UNORM_S8_UINT", 1, true},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, "D32_SFLOAT_S8_UINT", 1, true},
};

const FormatInfo* find(VkFormat format) {
    for (const FormatInfo& f : kFormats)
        if (f.format == format) return &f;
    return nullptr;
}

}  // namespace

bool isSrgbFormat(VkFormat format) {
    switch (format) {
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
    case VK_FORMAT_R8G8B8_SRGB:
    case VK_FORMAT_B8G8R8_SRGB:
    case VK_FORMAT_R8_SRGB:
    case VK_FORMAT_R8G8_SRGB: return true;
    default: return false;
    }
}

std::string doubleSrgbDecodeProblem(const char* name, VkFormat format, bool colorSrgbFlag, const char* flagName) {
    if (!colorSrgbFlag || !isSrgbFormat(format)) return {};
    return std::string("the ") + name + " image has the sRGB format " + formatName(format) +
           ", which the sampler already decodes to linear; with " + flagName +
           " its values would be decoded twice (clear the flag, or pass a UNORM view of the image)";
}

std::string formatName(VkFormat format) {
    if (format == VK_FORMAT_UNDEFINED) return "UNDEFINED";
    const FormatInfo* f = find(format);
    return f ? f->name : "VkFormat " + std::to_string(int(format));
}

std::string layoutName(VkImageLayout layout) {
    switch (layout) {
    case VK_IMAGE_LAYOUT_UNDEFINED: return "UNDEFINED";
    case VK_IMAGE_LAYOUT_GENERAL: return "GENERAL";
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL: return "SHADER_READ_ONLY_OPTIMAL";
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL: return "DEPTH_READ_ONLY_OPTIMAL";
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL: return "DEPTH_STENCIL_READ_ONLY_OPTIMAL";
    case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL: return "READ_ONLY_OPTIMAL";
    case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL: return "COLOR_ATTACHMENT_OPTIMAL";
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL: return "DEPTH_STENCIL_ATTACHMENT_OPTIMAL";
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL: return "TRANSFER_DST_OPTIMAL";
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL: return "TRANSFER_SRC_OPTIMAL";
    case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR: return "PRESENT_SRC_KHR";
    default: return "VkImageLayout " + std::to_string(int(layout));
    }
}

uint32_t componentCount(VkFormat format) {
    const FormatInfo* f = find(format);
    return f ? f->components : 0;
}

bool isDepthFormat(VkFormat format) {
    const FormatInfo* f = find(format);
    return f && f->depth;
}

}  // namespace effects::detail
