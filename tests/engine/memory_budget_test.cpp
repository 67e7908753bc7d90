// Device memory accounting and the budget (ContextDesc::deviceMemoryBudgetBytes): an allocation
// beyond it fails with ErrorCode::OutOfMemory / VK_ERROR_OUT_OF_DEVICE_MEMORY and a sentence
// naming what needed how much; nothing is leaked on the failing path (the accounting returns to
// where it was, and the validation layer, which reports undestroyed objects when the device is
// destroyed, stays silent).
#include "vulkan_test.h"

#include "engine/buffer.h"
#include "engine/error.h"
#include "engine/frame_graph.h"
#include "engine/renderer.h"

#include <memory>
#include <string>

namespace {

using engine::Access;

class DeviceMemoryBudget : public testsupport::VulkanTest {
protected:
    std::unique_ptr<engine::Context> makeContext(VkDeviceSize budget) {
        engine::ContextDesc d = testsupport::validatedContextDesc();
        d.deviceMemoryBudgetBytes = budget;
        return std::make_unique<engine::Context>(d);
    }
};

// Runs `statement`, expects ErrorCode::OutOfMemory with every `needles` in the message.
template <class F>
void expectOutOfMemory(F&& statement, std::initializer_list<const char*> needles) {
    try {
        statement();
        ADD_FAILURE() << "no out-of-memory error";
    } catch (const engine::Error& e) {
        EXPECT_EQ(e.code(), engine::ErrorCode::OutOfMemory) << e.what();
        EXPECT_EQ(e.result(), VK_ERROR_OUT_OF_DEVICE_MEMORY) << e.what();
        for (const char* n : needles) EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << "no '" << n << "' in: " << e.what();
    }
}

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

TEST_F(DeviceMemoryBudget, BuffersAreCountedAndFreed) {
    auto ctx = makeContext(0);
    const engine::DeviceMemoryStats before = ctx->memoryStats();
    EXPECT_EQ(before.budget, 0u);
    {
        engine::Buffer a(*ctx, 1 << 20, kStorage, engine::MemoryUsage::DeviceLocal);
        engine::Buffer b(*ctx, 4096, kStorage, engine::MemoryUsage::Upload);
        const engine::DeviceMemoryStats during = ctx->memoryStats();
        EXPECT_GE(during.inUse, before.inUse + (1 << 20) + 4096);
        EXPECT_EQ(during.liveAllocations, before.liveAllocations + 2);
        EXPECT_EQ(during.allocations, before.allocations + 2);
        engine::Buffer moved = std::move(a);  // the memory moves with the buffer, counted once
        EXPECT_EQ(ctx->memoryStats().liveAllocations, before.liveAllocations + 2);
    }
    const engine::DeviceMemoryStats after = ctx->memoryStats();
    EXPECT_EQ(after.inUse, before.inUse);
    EXPECT_EQ(after.liveAllocations, before.liveAllocations);
    EXPECT_GE(after.peak, before.inUse + (1 << 20) + 4096);
}

TEST_F(DeviceMemoryBudget, ABufferBeyondTheBudgetIsANamedOutOfMemoryError) {
    auto ctx = makeContext(1 << 20);
    engine::Buffer fits(*ctx, 512 << 10, kStorage, engine::MemoryUsage::DeviceLocal, "first half");
    const engine::DeviceMemoryStats before = ctx->memoryStats();
    expectOutOfMemory([&] { engine::Buffer(*ctx, 768 << 10, kStorage, engine::MemoryUsage::DeviceLocal, "test weights"); },
                      {"out of device memory: test weights needs 768.0 KiB, budget 1.0 MiB (512.0 KiB in use)"});
    const engine::DeviceMemoryStats after = ctx->memoryStats();
    EXPECT_EQ(after.inUse, before.inUse);
    EXPECT_EQ(after.liveAllocations, before.liveAllocations);
    EXPECT_EQ(after.failedAllocations, before.failedAllocations + 1);
    // What is left still fits.
    EXPECT_NO_THROW(engine::Buffer(*ctx, 256 << 10, kStorage, engine::MemoryUsage::DeviceLocal));
}

engine::PassDesc computePass(std::string name, std::vector<engine::ResourceUse> uses) {
    engine::PassDesc p;
    p.name = std::move(name);
    p.type = engine::PassType::Compute;
    p.uses = std::move(uses);
    p.record = [](engine::PassContext&) {};
    return p;
}

// A 4 MiB image and a 64 KiB buffer: two heaps (images and buffers never share one), the image
// heap allocated first (largest first).
void declareTwoHeapGraph(engine::FrameGraph& graph) {
    const auto image = graph.createImage("big", {VK_FORMAT_R16G16B16A16_SFLOAT, 1024, 512});
    const auto buffer = graph.createBuffer("small", {64 << 10, 0});
    graph.addPass(computePass("write", {{image, Access::StorageImageWrite}, {buffer, Access::StorageBufferWrite}}));
    graph.addPass(computePass("read", {{image, Access::SampledCompute}, {buffer, Access::StorageBufferRead}}));
}

TEST_F(DeviceMemoryBudget, AFrameGraphBeyondTheBudgetKeepsNothingOfTheFailedBake) {
    VkDeviceSize transientBytes = 0;
    {
        auto unlimited = makeContext(0);
        engine::FrameGraph graph(*unlimited);
        declareTwoHeapGraph(graph);
        graph.bake();
        transientBytes = graph.stats().transientBytes;
    }
    // One byte short: the image heap fits, the buffer heap after it does not.
    auto ctx = makeContext((1 << 20) + transientBytes - 1);
    engine::Buffer resident(*ctx, 1 << 20, kStorage, engine::MemoryUsage::DeviceLocal);
    const engine::DeviceMemoryStats before = ctx->memoryStats();
    {
        engine::FrameGraph graph(*ctx);
        declareTwoHeapGraph(graph);
        expectOutOfMemory([&] { graph.bake(); }, {"out of device memory: frame graph transient memory (buffer heap 2 of 2", "needs 64.0 KiB", "budget "});
        // The image heap allocated before the buffer heap failed was given back, and the images
        // and buffers of the bake were destroyed (the validation layer would name them when the
        // device goes).
        EXPECT_EQ(ctx->memoryStats().inUse, before.inUse);
        EXPECT_EQ(ctx->memoryStats().liveAllocations, before.liveAllocations);
        EXPECT_EQ(graph.stats().transientBytes, 0u);
        EXPECT_THROW(graph.execute(VK_NULL_HANDLE, 0), engine::Error);  // left unbaked
    }
    EXPECT_EQ(ctx->memoryStats().inUse, before.inUse);
    EXPECT_EQ(ctx->validationMessageCount(), 0u);
}

TEST_F(DeviceMemoryBudget, ARendererThatDoesNotFitFailsToBuildAndLeavesNothing) {
    auto ctx = makeContext(0);
    engine::RendererDesc desc;
    desc.outputWidth = 256;
    desc.outputHeight = 128;
    VkDeviceSize built = 0, constructed = 0;
    {
        engine::Renderer renderer(*ctx, desc);
        constructed = ctx->memoryStats().inUse;
        renderer.build({});
        built = ctx->memoryStats().inUse;
    }
    ASSERT_GT(built, constructed);
    // The same renderer with a budget that holds its construction but not its frame graph.
    auto tight = makeContext(constructed + (built - constructed) / 2);
    {
        engine::Renderer renderer(*tight, desc);
        expectOutOfMemory([&] { renderer.build({}); }, {"needs", "budget"});
        // The failed frame graph holds nothing (the read-back buffers of the build stay with
        // the renderer until it is rebuilt or destroyed).
        EXPECT_LT(tight->memoryStats().inUse, built);
    }
    EXPECT_EQ(tight->memoryStats().inUse, 0u);
    EXPECT_EQ(tight->memoryStats().liveAllocations, 0u);
}

}  // namespace
