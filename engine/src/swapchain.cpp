#include "engine/swapchain.h"

#include "engine/context.h"
#include "engine/error.h"

#include <vkutil/create_info.h>

#include <algorithm>

namespace engine {
namespace {

VkSemaphore createSemaphore(VkDevice device) {
    VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore s;
    ENGINE_VK(vkCreateSemaphore(device, &ci, nullptr, &s));
    return s;
}

// Prefer an sRGB 8-bit format so the hardware encodes on write; else whatever comes first
// (the encode pass then applies the sRGB curve itself).
VkSurfaceFormatKHR chooseFormat(VkPhysicalDevice pd, VkSurfaceKHR surface) {
    uint32_t n = 0;
    ENGINE_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(n);
    ENGINE_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surface, &n, formats.data()));
    if (formats.empty()) throw Error(ErrorCode::Unsupported, "the window surface reports no formats");
    for (const auto& f : formats)
        if ((f.format == VK_FORMAT_B8G8R8A8_SRGB || f.format == VK_FORMAT_R8G8B8A8_SRGB) &&
            f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            return f;
    for (const auto& f : formats)
        if (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) return f;
    return formats[0];
}

}  // namespace

Swapchain::Swapchain(const Context& ctx, VkSurfaceKHR surface, VkExtent2D desired, uint32_t framesInFlight)
    : ctx_(ctx), surface_(surface) {
    VkBool32 supported = VK_FALSE;
    ENGINE_VK(vkGetPhysicalDeviceSurfaceSupportKHR(ctx.physicalDevice(), ctx.queueFamily(), surface, &supported));
    if (!supported) throw Error(ErrorCode::Unsupported, "the main queue of " + ctx.deviceName() + " cannot present to this window");
    try {
        for (uint32_t i = 0; i < framesInFlight; ++i) acquired_.push_back(createSemaphore(ctx.device()));
        create(desired);
    } catch (...) {
        destroyImages();
        destroySemaphores();
        if (swapchain_) vkDestroySwapchainKHR(ctx.device(), swapchain_, nullptr);
        throw;
    }
}

Swapchain::~Swapchain() {
    // The last presents may still wait on render-done semaphores, and without a present fence
    // (VK_EXT_swapchain_maintenance1) only an idle queue says they are done: Frames' fences cover
    // the submissions, not the presents queued after them. Shutdown only; the result is ignored
    // (a lost device returns at once, and everything is destroyed either way). The validation
    // layer reported VUID-vkDestroySemaphore-semaphore-01137 here under ASan's slower timing.
    vkQueueWaitIdle(ctx_.queue());
    destroyImages();
    destroySemaphores();
    if (swapchain_) vkDestroySwapchainKHR(ctx_.device(), swapchain_, nullptr);
}

void Swapchain::destroyImages() {
    for (VkImageView v : views_) vkDestroyImageView(ctx_.device(), v, nullptr);
    views_.clear();
    images_.clear();
}

void Swapchain::destroySemaphores() {
    for (VkSemaphore s : acquired_) vkDestroySemaphore(ctx_.device(), s, nullptr);
    for (VkSemaphore s : renderDone_) vkDestroySemaphore(ctx_.device(), s, nullptr);
    acquired_.clear();
    renderDone_.clear();
}

void Swapchain::recreate(VkExtent2D desired) {
    destroyImages();
    create(desired);
}

void Swapchain::create(VkExtent2D desired) {
    VkDevice device = ctx_.device();
    VkSurfaceCapabilitiesKHR caps;
    ENGINE_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx_.physicalDevice(), surface_, &caps));
    VkSurfaceFormatKHR format = chooseFormat(ctx_.physicalDevice(), surface_);
    if (caps.currentExtent.width != UINT32_MAX) {
        extent_ = caps.currentExtent;
    } else {
        extent_ = {std::clamp(desired.width, caps.minImageExtent.width, caps.maxImageExtent.width),
                   std::clamp(desired.height, caps.minImageExtent.height, caps.maxImageExtent.height)};
    }
    uint32_t count = std::max(caps.minImageCount + 1, 3u);
    if (caps.maxImageCount) count = std::min(count, caps.maxImageCount);

    VkSwapchainCreateInfoKHR ci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    ci.surface = surface_;
    ci.minImageCount = count;
    ci.imageFormat = format.format;
    ci.imageColorSpace = format.colorSpace;
    ci.imageExtent = extent_;
    ci.imageArrayLayers = 1;
    ci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    ci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ci.preTransform = caps.currentTransform;
    ci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    ci.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always available
    ci.clipped = VK_TRUE;
    ci.oldSwapchain = swapchain_;
    VkSwapchainKHR created;
    ENGINE_VK(vkCreateSwapchainKHR(device, &ci, nullptr, &created));
    if (swapchain_) vkDestroySwapchainKHR(device, swapchain_, nullptr);
    swapchain_ = created;
    format_ = format.format;

    uint32_t n = 0;
    ENGINE_VK(vkGetSwapchainImagesKHR(device, swapchain_, &n, nullptr));
    images_.resize(n);
    ENGINE_VK(vkGetSwapchainImagesKHR(device, swapchain_, &n, images_.data()));
    for (VkImage image : images_) {
        const VkImageViewCreateInfo vci = vkutil::imageView2DInfo(image, format_);
        VkImageView view;
        ENGINE_VK(vkCreateImageView(device, &vci, nullptr, &view));
        views_.push_back(view);
    }
    // The render-done semaphores outlive recreation (see the header): only a larger swapchain adds some.
    while (renderDone_.size() < images_.size()) renderDone_.push_back(createSemaphore(device));
}

std::optional<SwapchainImage> Swapchain::acquire(uint32_t slot) {
    VkSemaphore acquired = acquired_.at(slot);
    uint32_t index = 0;
    VkResult r = ctx_.observe(vkAcquireNextImageKHR(ctx_.device(), swapchain_, UINT64_MAX, acquired, VK_NULL_HANDLE, &index));
    if (r == VK_ERROR_OUT_OF_DATE_KHR) return std::nullopt;
    if (r != VK_SUBOPTIMAL_KHR) ENGINE_VK(r);  // suboptimal still signals; present reports it
    return SwapchainImage{index, images_[index], views_[index], acquired, renderDone_[index]};
}

bool Swapchain::present(const SwapchainImage& image) {
    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &image.renderDone;
    pi.swapchainCount = 1;
    pi.pSwapchains = &swapchain_;
    pi.pImageIndices = &image.index;
    VkResult r = ctx_.observe(vkQueuePresentKHR(ctx_.queue(), &pi));
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) return false;
    ENGINE_VK(r);
    return true;
}

}  // namespace engine
