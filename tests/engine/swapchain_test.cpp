// The swapchain on a real window (ctest runs this binary under xvfb-run): frames acquire,
// present and survive recreation with no validation message, and the semaphores the
// presentation engine may still wait on are never destroyed at a resize.
#include "vulkan_test.h"

#include "engine/context.h"
#include "engine/error.h"
#include "engine/frames.h"
#include "engine/swapchain.h"
#include "engine/window.h"

#include <chrono>
#include <map>
#include <optional>
#include <thread>

namespace {

class Swapchain : public testsupport::VulkanTest {
protected:
    void SetUp() override {
        VulkanTest::SetUp();
        // Without a display this throws engine::Error saying so (ctest runs it under xvfb-run).
        window_.emplace("vkml swapchain test", 96, 64);
        engine::ContextDesc desc = testsupport::validatedContextDesc();
        desc.instanceExtensions = engine::Window::requiredInstanceExtensions();
        desc.deviceExtensions = {engine::Swapchain::requiredDeviceExtension()};
        ctx_.emplace(desc);
        surface_ = window_->createSurface(ctx_->instance());
    }

    // One frame: acquire, move the image to PRESENT_SRC, submit, present. Returns the image it
    // presented, or nothing when the swapchain was out of date.
    std::optional<engine::SwapchainImage> presentFrame(engine::Swapchain& swapchain, engine::Frames& frames) {
        engine::Frame& f = frames.beginFrame();
        std::optional<engine::SwapchainImage> image = swapchain.acquire(f.slot);
        if (!image) {
            frames.endFrame();
            return std::nullopt;
        }
        // Nothing is drawn: the transition alone makes the image presentable. It waits for the
        // acquire semaphore at COLOR_ATTACHMENT_OUTPUT, the stage the submission waits at.
        VkImageMemoryBarrier2 toPresent{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        toPresent.srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
        toPresent.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
        toPresent.srcQueueFamilyIndex = toPresent.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        toPresent.image = image->image;
        toPresent.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.imageMemoryBarrierCount = 1;
        dep.pImageMemoryBarriers = &toPresent;
        vkCmdPipelineBarrier2(f.cmd, &dep);
        const engine::SwapchainFrameSemaphores semaphores(*image);
        frames.endFrame(semaphores.submit());
        swapchain.present(*image);
        return image;
    }

    std::optional<engine::Window> window_;
    std::optional<engine::Context> ctx_;
    engine::Surface surface_;
};

TEST_F(Swapchain, RecreateReusesTheSemaphoresTheLastPresentsWaitOn) {
    constexpr uint32_t kFramesInFlight = 2;
    engine::Swapchain swapchain(*ctx_, surface_.handle(), window_->framebufferExtent(), kFramesInFlight);
    std::map<uint32_t, VkSemaphore> renderDoneByIndex;
    engine::Frames frames(*ctx_, {.framesInFlight = kFramesInFlight});
    for (uint32_t i = 0; i < 3 * swapchain.imageCount(); ++i)
        if (std::optional<engine::SwapchainImage> image = presentFrame(swapchain, frames))
            renderDoneByIndex[image->index] = image->renderDone;
    ASSERT_FALSE(renderDoneByIndex.empty());

    window_->setSize(72, 48);
    for (int i = 0; i < 200 && !window_->takeResized(); ++i) {  // X11 resizes asynchronously
        window_->pollEvents();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // Straight after the fences, with the last presents still queued: the semaphores they wait
    // on must stay alive (destroying them here is what the validation layer caught in CI).
    frames.waitIdle();
    swapchain.recreate(window_->framebufferExtent());
    EXPECT_EQ(swapchain.extent().width, 72u);
    EXPECT_EQ(swapchain.extent().height, 48u);
    uint32_t presented = 0;
    for (uint32_t i = 0; i < 3 * swapchain.imageCount(); ++i) {
        std::optional<engine::SwapchainImage> image = presentFrame(swapchain, frames);
        if (!image) continue;
        ++presented;
        auto before = renderDoneByIndex.find(image->index);
        if (before != renderDoneByIndex.end()) {
            EXPECT_EQ(image->renderDone, before->second) << "image " << image->index << " signals a semaphore made at the recreation";
        }
    }
    EXPECT_GT(presented, 0u);
    frames.waitIdle();
}

}  // namespace
