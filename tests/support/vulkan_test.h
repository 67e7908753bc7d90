#pragma once
// Shared Vulkan context for a test binary: validation layer + synchronization validation on,
// and any warning or error message fails the test that was running when it arrived.
#include "engine/context.h"

#include <gtest/gtest.h>

namespace testsupport {

// The process-wide context (created on first use; lavapipe on GPU-less machines).
engine::Context& context();

// The description context() is made from: validation + synchronization validation, messages
// counted by validationMessages() and failing the running test. For tests that need a context
// of their own (a device they lose, a memory budget); adjust fields before constructing.
engine::ContextDesc validatedContextDesc();

// Validation messages (warning or above) seen so far in this process.
uint64_t validationMessages();

// Fixture base: fails a test that produced validation messages, even if they were only counted.
class VulkanTest : public ::testing::Test {
protected:
    void SetUp() override { before_ = validationMessages(); }
    void TearDown() override {
        EXPECT_EQ(validationMessages(), before_) << "validation messages were reported during this test (printed above)";
    }
    engine::Context& ctx() { return context(); }

private:
    uint64_t before_ = 0;
};

}  // namespace testsupport
