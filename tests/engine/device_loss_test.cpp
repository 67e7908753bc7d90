// Device loss: every call through which a lost device shows reports ErrorCode::DeviceLost (never
// a generic error), everything made on the lost context can still be destroyed cleanly, and a
// new context renders the same frame again. Each test loses a context of its own
// (Context::simulateDeviceLoss, the fault injection the demo's --simulate-device-loss uses).
#include "vulkan_test.h"

#include "engine/buffer.h"
#include "engine/error.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/image_io.h"
#include "engine/renderer.h"

#include <memory>
#include <string>

namespace {

class DeviceLoss : public testsupport::VulkanTest {
protected:
    std::unique_ptr<engine::Context> makeContext() { return std::make_unique<engine::Context>(testsupport::validatedContextDesc()); }
};

// Runs `statement` and expects an engine::Error with ErrorCode::DeviceLost.
#define EXPECT_DEVICE_LOST(statement)                                                              \
    do {                                                                                           \
        try {                                                                                      \
            statement;                                                                             \
            ADD_FAILURE() << #statement " did not report the device loss";                         \
        } catch (const engine::Error& e) {                                                         \
            EXPECT_EQ(e.code(), engine::ErrorCode::DeviceLost) << e.what();                        \
            EXPECT_EQ(e.result(), VK_ERROR_DEVICE_LOST) << e.what();                               \
            EXPECT_NE(std::string(e.what()).find("VK_ERROR_DEVICE_LOST"), std::string::npos) << e.what(); \
        }                                                                                          \
    } while (0)

engine::RendererDesc smallDesc() {
    engine::RendererDesc d;
    d.outputWidth = 48;
    d.outputHeight = 32;
    d.renderScale = 0.5f;
    return d;
}

TEST_F(DeviceLoss, ObserveRemembersARealLoss) {
    auto ctx = makeContext();
    EXPECT_EQ(ctx->observe(VK_SUCCESS), VK_SUCCESS);
    EXPECT_EQ(ctx->observe(VK_TIMEOUT), VK_TIMEOUT);
    EXPECT_FALSE(ctx->deviceLost());
    EXPECT_EQ(ctx->observe(VK_ERROR_DEVICE_LOST), VK_ERROR_DEVICE_LOST);
    EXPECT_TRUE(ctx->deviceLost());
    EXPECT_FALSE(ctx->deviceLossSimulated());
    // A lost device stays lost: later calls report it whatever the driver returned.
    EXPECT_EQ(ctx->observe(VK_SUCCESS), VK_ERROR_DEVICE_LOST);
}

TEST_F(DeviceLoss, FenceWaitOfTheNextFrameReportsIt) {
    auto ctx = makeContext();
    engine::Frames frames(*ctx, {.framesInFlight = 2});
    for (int i = 0; i < 2; ++i) {
        frames.beginFrame();
        frames.endFrame();
    }
    ctx->simulateDeviceLoss();
    EXPECT_TRUE(ctx->deviceLost());
    EXPECT_TRUE(ctx->deviceLossSimulated());
    EXPECT_DEVICE_LOST(frames.beginFrame());
    // waitIdle waits for every slot before reporting, and the destructor tolerates the loss.
    EXPECT_DEVICE_LOST(frames.waitIdle());
}

TEST_F(DeviceLoss, SubmitReportsIt) {
    auto ctx = makeContext();
    engine::Frames frames(*ctx, {.framesInFlight = 2});
    frames.beginFrame();
    ctx->simulateDeviceLoss();
    EXPECT_DEVICE_LOST(frames.endFrame());
}

TEST_F(DeviceLoss, SubmitAndWaitReportsIt) {
    auto ctx = makeContext();
    ctx->simulateDeviceLoss();
    EXPECT_DEVICE_LOST(ctx->submitAndWait([](VkCommandBuffer) {}));
}

TEST_F(DeviceLoss, MappingMemoryReportsIt) {
    auto ctx = makeContext();
    ctx->simulateDeviceLoss();
    EXPECT_DEVICE_LOST(engine::Buffer(*ctx, 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback));
    // The failed buffer gave its memory back.
    EXPECT_EQ(ctx->memoryStats().liveAllocations, 0u);
}

// The demo's recovery at engine level: a renderer loses its device mid-run, everything on that
// context is destroyed (no validation message: nothing destroyed in use, nothing leaked), and a
// new context renders the frame the lost one would have rendered, identical to an undisturbed run.
TEST_F(DeviceLoss, EverythingIsDestroyedCleanlyAndANewContextRendersTheSameFrame) {
    const engine::FrameParams params = engine::FrameParams::onPath(0, 3, 30.0f, 0.0f);
    engine::Image8 expected;
    {
        auto ctx = makeContext();
        engine::Renderer renderer(*ctx, smallDesc());
        expected = engine::renderSingleFrame(*ctx, renderer, params).frame;
    }
    {
        auto ctx = makeContext();
        engine::GpuTimer timer(*ctx, {.framesInFlight = 2});
        engine::Renderer renderer(*ctx, smallDesc());
        engine::Frames frames(*ctx, {.framesInFlight = 2});
        renderer.build({.headless = true, .format = VK_FORMAT_UNDEFINED, .channels = 0, .framesInFlight = 2});
        bool lost = false;
        for (uint32_t i = 0; i < 6 && !lost; ++i) {
            if (i == 3) ctx->simulateDeviceLoss();
            try {
                engine::Frame& f = frames.beginFrame();
                timer.beginFrame(f.cmd, f.slot);
                renderer.record(f.cmd, f.slot, engine::FrameParams::onPath(0, i, 30.0f, 0.0f), &timer);
                frames.endFrame();
            } catch (const engine::Error& e) {
                ASSERT_TRUE(e.deviceLost()) << e.what();
                EXPECT_EQ(i, 3u);
                lost = true;
            }
        }
        EXPECT_TRUE(lost);
        EXPECT_EQ(ctx->validationMessageCount(), 0u);
    }  // frames, renderer, timer and context destroyed after the loss
    auto ctx = makeContext();
    engine::Renderer renderer(*ctx, smallDesc());
    const engine::Image8 again = engine::renderSingleFrame(*ctx, renderer, params).frame;
    EXPECT_EQ(engine::compareImages(expected, again).maxAbsDiff, 0);
}

}  // namespace
