#pragma once
/// \file
/// A swapchain on the context's main queue. Per frame slot: an "image acquired" semaphore
/// (reused once Frames::beginFrame has waited for that slot); per swapchain image: a "render
/// done" semaphore (present keeps it busy until the image comes back, so it is tied to the image,
/// not the slot).
///
/// The semaphores live as long as the Swapchain and are reused across recreate(): nothing tells
/// when the presentation engine has finished waiting on a semaphore of the old swapchain's last
/// presents (no present fence without VK_EXT_swapchain_maintenance1), so destroying them at a
/// resize would be a use-after-free in waiting. Image i of the new swapchain signals
/// renderDone[i] again only after the old present that waited on it was queued, in queue order.
///
///   auto image = swapchain.acquire(slot);       // nullopt: out of date, recreate
///   ... record
///   SwapchainFrameSemaphores semaphores(*image);
///   frames.endFrame(semaphores.submit());      // waits for image->acquired, signals image->renderDone
///   if (!swapchain.present(*image)) recreate;  // out of date or suboptimal
///
/// recreate() requires that the GPU no longer uses the old images (Frames::waitIdle first). The
/// destructor waits for the main queue to go idle (the last presents' semaphore waits included)
/// before it destroys the semaphores: destroy it at shutdown, not per frame.
#include "engine/export.h"
#include "engine/frames.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

class Context;

/// An acquired swapchain image and the semaphores of its frame.
struct SwapchainImage {
    uint32_t index = 0;  ///< index in the swapchain
    VkImage image = VK_NULL_HANDLE;  ///< the image
    VkImageView view = VK_NULL_HANDLE;  ///< a view of it
    VkSemaphore acquired = VK_NULL_HANDLE;  ///< signalled when the image is ready to be written
    VkSemaphore renderDone = VK_NULL_HANDLE;  ///< to signal when rendering is done; present waits for it
};

/// The semaphores of a frame that renders into `image`: its submission waits for `acquired` at
/// COLOR_ATTACHMENT_OUTPUT (the stage of the first write to a swapchain image) and signals
/// `renderDone` once all of its work is done, which present() waits for.
struct SwapchainFrameSemaphores {
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};    ///< image acquired
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};  ///< render done
    /// The semaphores of `image` (acquired by Swapchain::acquire for this frame).
    explicit SwapchainFrameSemaphores(const SwapchainImage& image) {
        wait.semaphore = image.acquired;
        wait.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
        signal.semaphore = image.renderDone;
        signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    }
    /// For Frames::endFrame; refers to this object, which must outlive that call.
    FrameSubmit submit() const { return {{&wait, 1}, {&signal, 1}}; }
};

/// A swapchain on a surface, FIFO present mode, recreated on resize.
class Swapchain {
public:
    /// Throws engine::Error when the main queue cannot present to `surface`.
    Swapchain(const Context& ctx, VkSurfaceKHR surface, VkExtent2D desired, uint32_t framesInFlight);
    ~Swapchain();
    Swapchain(const Swapchain&) = delete;
    Swapchain& operator=(const Swapchain&) = delete;

    /// Recreates it at `desired` (clamped to the surface); the GPU must be done with the old images.
    void recreate(VkExtent2D desired);
    /// The next image for frame slot `slot`; nullopt when the swapchain is out of date (recreate).
    /// Acquire and present pass Context::observe(): a lost device (real or simulated) throws
    /// engine::Error with ErrorCode::DeviceLost.
    std::optional<SwapchainImage> acquire(uint32_t slot);
    /// False when the swapchain should be recreated before the next frame.
    bool present(const SwapchainImage& image);

    /// Image format.
    VkFormat format() const { return format_; }
    /// Image size.
    VkExtent2D extent() const { return extent_; }
    /// Number of images.
    uint32_t imageCount() const { return uint32_t(images_.size()); }

    /// Device extension a swapchain needs (pass to ContextDesc::deviceExtensions).
    static const char* requiredDeviceExtension() { return VK_KHR_SWAPCHAIN_EXTENSION_NAME; }

private:
    void create(VkExtent2D desired);
    void destroyImages();
    void destroySemaphores();

    const Context& ctx_;
    VkSurfaceKHR surface_;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{};
    std::vector<VkImage> images_;
    std::vector<VkImageView> views_;
    std::vector<VkSemaphore> renderDone_;  ///< per image index, kept across recreate()
    std::vector<VkSemaphore> acquired_;    ///< per frame slot
};

}  // namespace engine
ENGINE_API_END
