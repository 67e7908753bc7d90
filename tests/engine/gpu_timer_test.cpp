// GpuTimer: named (nested) scopes, results read back when the slot is reused, medians, misuse.
#include "vulkan_test.h"

#include "engine/buffer.h"
#include "engine/error.h"
#include "engine/gpu_timer.h"

#include <string>
#include <vector>

namespace {

class GpuTimerTest : public testsupport::VulkanTest {};

TEST_F(GpuTimerTest, NamedScopesReportNonNegativeTimesAndMedians) {
    engine::GpuTimer timer(ctx(), {.framesInFlight = 2, .maxScopesPerFrame = 8, .window = 4});
    engine::Buffer buffer(ctx(), 1 << 20, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::DeviceLocal);
    constexpr uint32_t kFrames = 6;
    for (uint32_t n = 0; n < kFrames; ++n) {
        ctx().submitAndWait([&](VkCommandBuffer cmd) {
            timer.beginFrame(cmd, n % 2);
            timer.beginScope(cmd, "frame");
            timer.beginScope(cmd, "fill");
            vkCmdFillBuffer(cmd, buffer.handle(), 0, VK_WHOLE_SIZE, n);
            timer.endScope(cmd);
            timer.beginScope(cmd, "empty");
            timer.endScope(cmd);
            timer.endScope(cmd);
        });
    }
    if (!timer.enabled()) GTEST_SKIP() << "queue has no timestamp support";
    timer.collect(0);
    timer.collect(1);
    timer.collect(1);  // a second collect of the same frame adds nothing
    const std::vector<engine::GpuTiming> timings = timer.timings();
    ASSERT_EQ(timings.size(), 3u);
    EXPECT_EQ(timings[0].name, "frame");
    EXPECT_EQ(timings[1].name, "fill");
    EXPECT_EQ(timings[2].name, "empty");
    for (const auto& t : timings) {
        EXPECT_GE(t.lastMs, 0.0) << t.name;
        EXPECT_GE(t.medianMs, 0.0) << t.name;
        EXPECT_LT(t.medianMs, 10'000.0) << t.name << ": implausible, ticks misread?";
        EXPECT_EQ(t.samples, 4u) << t.name << ": window is 4 of " << kFrames << " frames";
    }
    EXPECT_GE(timings[0].medianMs, timings[2].medianMs) << "the outer scope contains the inner ones";
}

TEST_F(GpuTimerTest, MisuseIsAClearError) {
    engine::GpuTimer timer(ctx(), {.framesInFlight = 1, .maxScopesPerFrame = 2, .window = 8});
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        EXPECT_THROW(timer.beginScope(cmd, "early"), engine::Error);
        timer.beginFrame(cmd, 0);
        EXPECT_THROW(timer.endScope(cmd), engine::Error);
        timer.beginScope(cmd, "a");
        timer.endScope(cmd);
        timer.beginScope(cmd, "b");
        timer.endScope(cmd);
        try {
            timer.beginScope(cmd, "c");
            ADD_FAILURE() << "expected engine::Error";
        } catch (const engine::Error& e) {
            EXPECT_NE(std::string(e.what()).find("more than 2 scopes in one frame (at 'c')"), std::string::npos) << e.what();
        }
        EXPECT_THROW(timer.beginFrame(cmd, 1), engine::Error);
    });
}

}  // namespace
