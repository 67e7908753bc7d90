#include "vulkan_test.h"

#include "engine/buffer.h"
#include "engine/error.h"

#include <vkutil/barrier.h>

#include <cstring>

using testsupport::VulkanTest;

TEST_F(VulkanTest, ContextHasQueueAndFeatures) {
    EXPECT_NE(ctx().device(), VK_NULL_HANDLE);
    EXPECT_NE(ctx().queue(), VK_NULL_HANDLE);
    EXPECT_TRUE(ctx().validationEnabled());
    EXPECT_GT(ctx().features().subgroupSize, 0u);
    EXPECT_FALSE(ctx().deviceName().empty());
}

TEST_F(VulkanTest, CopyBetweenBuffersRoundTrips) {
    engine::Buffer upload(ctx(), 1024, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, engine::MemoryUsage::Upload);
    engine::Buffer readback(ctx(), 1024, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    auto* src = static_cast<uint8_t*>(upload.mapped());
    for (int i = 0; i < 1024; ++i) src[i] = uint8_t(i * 7 + 3);
    std::memset(readback.mapped(), 0xCD, 1024);
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, 1024};
        vkCmdCopyBuffer(cmd, upload.handle(), readback.handle(), 1, &region);
        vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                              VK_ACCESS_2_HOST_READ_BIT);
    });
    readback.invalidate();
    EXPECT_EQ(std::memcmp(upload.mapped(), readback.mapped(), 1024), 0);
}

TEST(ContextErrors, OutOfRangeDeviceIndexIsAClearError) {
    engine::ContextDesc desc;
    desc.deviceIndex = 99;
    try {
        engine::Context c(desc);
        FAIL() << "expected engine::Error";
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find("device index 99 is out of range"), std::string::npos) << e.what();
    }
}

TEST(ContextErrors, UnknownDeviceNameIsAClearError) {
    engine::ContextDesc desc;
    desc.deviceNameContains = "NoSuchGPU-42";
    try {
        engine::Context c(desc);
        FAIL() << "expected engine::Error";
    } catch (const engine::Error& e) {
        EXPECT_NE(std::string(e.what()).find("NoSuchGPU-42"), std::string::npos) << e.what();
    }
}

TEST(ContextErrors, ListDevicesReportsAtLeastOne) {
    auto devices = engine::Context::listDevices();
    ASSERT_FALSE(devices.empty());
    EXPECT_TRUE(devices[0].suitable) << devices[0].whyNotSuitable;
}

// Keeps the suite honest: the messenger really reports misuse (so "no messages" means something).
TEST(ContextErrors, ValidationLayerReportsMisuse) {
    int errors = 0;
    engine::ContextDesc desc;
    desc.validation = true;
    desc.onMessage = [&](engine::MessageSeverity s, const char*) { errors += s == engine::MessageSeverity::Error; };
    engine::Context c(desc);
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = 64;
    bci.usage = 0;  // invalid: usage must not be 0
    VkBuffer b = VK_NULL_HANDLE;
    if (vkCreateBuffer(c.device(), &bci, nullptr, &b) == VK_SUCCESS) vkDestroyBuffer(c.device(), b, nullptr);
    EXPECT_GE(errors, 1);
    EXPECT_GE(c.validationMessageCount(), 1u);
}
