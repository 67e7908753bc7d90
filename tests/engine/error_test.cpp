// The engine's error model: codes derived from VkResults, codes given explicitly, checkVk.
// CPU only.
#include "engine/error.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using engine::ErrorCode;

TEST(ErrorModel, VkResultsMapToTheirCategory) {
    EXPECT_EQ(engine::errorCodeFor(VK_ERROR_DEVICE_LOST), ErrorCode::DeviceLost);
    EXPECT_EQ(engine::errorCodeFor(VK_ERROR_OUT_OF_DEVICE_MEMORY), ErrorCode::OutOfMemory);
    EXPECT_EQ(engine::errorCodeFor(VK_ERROR_OUT_OF_HOST_MEMORY), ErrorCode::OutOfMemory);
    EXPECT_EQ(engine::errorCodeFor(VK_TIMEOUT), ErrorCode::Timeout);
    EXPECT_EQ(engine::errorCodeFor(VK_ERROR_INITIALIZATION_FAILED), ErrorCode::VulkanError);
    // Descriptor pool exhaustion is a sizing mistake, not memory pressure (mlplugin agrees).
    EXPECT_EQ(engine::errorCodeFor(VK_ERROR_OUT_OF_POOL_MEMORY), ErrorCode::VulkanError);
}

TEST(ErrorModel, ErrorTakesItsCodeFromTheResultUnlessGivenOne) {
    const engine::Error lost("submit failed", VK_ERROR_DEVICE_LOST);
    EXPECT_EQ(lost.code(), ErrorCode::DeviceLost);
    EXPECT_TRUE(lost.deviceLost());
    EXPECT_FALSE(lost.outOfMemory());
    EXPECT_EQ(lost.result(), VK_ERROR_DEVICE_LOST);

    const engine::Error bad("render scale 7 is out of range");
    EXPECT_EQ(bad.code(), ErrorCode::InvalidArgument);
    EXPECT_EQ(bad.result(), VK_SUCCESS);

    const engine::Error io(ErrorCode::IoError, "cannot open 'x'");
    EXPECT_EQ(io.code(), ErrorCode::IoError);
    EXPECT_FALSE(io.deviceLost());

    const engine::Error unsupported(ErrorCode::Unsupported, "format", VK_ERROR_FORMAT_NOT_SUPPORTED);
    EXPECT_EQ(unsupported.code(), ErrorCode::Unsupported);
    EXPECT_EQ(unsupported.result(), VK_ERROR_FORMAT_NOT_SUPPORTED);

    const engine::Error oom(ErrorCode::OutOfMemory, "budget", VK_ERROR_OUT_OF_DEVICE_MEMORY);
    EXPECT_TRUE(oom.outOfMemory());
}

TEST(ErrorModel, CheckVkNamesTheCallAndKeepsTheCode) {
    try {
        engine::checkVk(VK_ERROR_DEVICE_LOST, "vkQueueSubmit2(queue, 1, &si, fence)", "/src/engine/frames.cpp", 42);
        FAIL() << "checkVk did not throw";
    } catch (const engine::Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::DeviceLost);
        EXPECT_EQ(e.result(), VK_ERROR_DEVICE_LOST);
        EXPECT_STREQ(e.what(), "GPU device lost: vkQueueSubmit2(queue, 1, &si, fence) failed with VK_ERROR_DEVICE_LOST (frames.cpp:42)");
    }
    try {
        engine::checkVk(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkAllocateMemory", "buffer.cpp", 7);
        FAIL() << "checkVk did not throw";
    } catch (const engine::Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    }
    EXPECT_NO_THROW(engine::checkVk(VK_SUCCESS, "vkQueueSubmit2", "x.cpp", 1));
}

TEST(ErrorModel, EveryCodeHasItsOwnName) {
    const ErrorCode all[] = {ErrorCode::InvalidArgument, ErrorCode::Unsupported, ErrorCode::OutOfMemory, ErrorCode::DeviceLost,
                             ErrorCode::Timeout,         ErrorCode::VulkanError, ErrorCode::InvalidModel, ErrorCode::IoError};
    std::set<std::string> names;
    for (ErrorCode c : all) names.insert(engine::toString(c));
    EXPECT_EQ(names.size(), std::size(all));
    EXPECT_STREQ(engine::toString(ErrorCode::DeviceLost), "device lost");
    EXPECT_STREQ(engine::toString(ErrorCode::OutOfMemory), "out of memory");
}

}  // namespace
