// Frames in flight, per-frame descriptor arenas, the upload ring and deferred deletion.
#include "vulkan_test.h"

#include "engine/buffer.h"
#include "engine/deferred_deletion.h"
#include "engine/descriptor_arena.h"
#include "engine/error.h"
#include "engine/frames.h"
#include "engine/upload_ring.h"

#include "engine/frame_graph.h"
#include "engine/gpu_timer.h"
#include <vkutil/pipeline.h>

#include <array>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

// Counts C++ heap allocations made by the current thread while counting is on: the steady-state
// test below records frames and expects none (driver worker threads are not counted).
namespace {
thread_local bool t_countAllocations = false;
thread_local uint64_t t_allocations = 0;
}  // namespace

void* operator new(std::size_t size) {
    if (t_countAllocations) ++t_allocations;
    if (void* p = std::malloc(size ? size : 1)) return p;
    throw std::bad_alloc();
}
// noinline: once inlined into a caller, GCC 12 pairs the visible free() with the builtin
// operator new and warns (-Wmismatched-new-delete) although both are replaced here.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
// The nothrow form too (libLLVM and libstdc++'s temporary buffers use it): otherwise it stays
// the runtime's, and AddressSanitizer reports its blocks freed through the replaced delete.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    if (t_countAllocations) ++t_allocations;
    return std::malloc(size ? size : 1);
}
[[gnu::noinline]] void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace {

class Frames : public testsupport::VulkanTest {};

#define EXPECT_THROW_CONTAINING(statement, needle)                                                         \
    do {                                                                                                   \
        try {                                                                                              \
            statement;                                                                                     \
            ADD_FAILURE() << "expected engine::Error containing \"" << (needle) << "\"";                     \
        } catch (const engine::Error& e) {                                                                 \
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();  \
        }                                                                                                  \
    } while (0)

// A layout as an external library would hand it over: the arena knows nothing about it.
struct ForeignLayout {
    explicit ForeignLayout(VkDevice d, uint32_t storageBuffers = 2) : device(d) {
        std::vector<VkDescriptorType> types(storageBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER);
        types.push_back(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
        ENGINE_VK(vkutil::createDescriptorSetLayout(device, types, VK_SHADER_STAGE_COMPUTE_BIT, &layout));
    }
    ~ForeignLayout() { vkDestroyDescriptorSetLayout(device, layout, nullptr); }
    VkDevice device;
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
};

TEST_F(Frames, DescriptorArenaAllocatesAnyLayoutResetsAndReportsExhaustion) {
    ForeignLayout foreign(ctx().device());
    engine::DescriptorArena arena(ctx().device(), {.name = "test arena", .maxSets = 3, .poolSizes = {}});
    std::vector<VkDescriptorSet> sets;
    for (int i = 0; i < 3; ++i) sets.push_back(arena.allocate(foreign.layout));
    for (VkDescriptorSet s : sets) EXPECT_NE(s, VK_NULL_HANDLE);
    EXPECT_NE(sets[0], sets[1]);
    EXPECT_EQ(arena.allocatedSets(), 3u);
    EXPECT_THROW_CONTAINING(arena.allocate(foreign.layout), "test arena is exhausted: all 3 descriptor sets");
    arena.reset();
    EXPECT_EQ(arena.allocatedSets(), 0u);
    EXPECT_NE(arena.allocate(foreign.layout), VK_NULL_HANDLE);
    EXPECT_THROW_CONTAINING(arena.allocate(VK_NULL_HANDLE), "needs a descriptor set layout");
}

TEST_F(Frames, EachSlotHasItsOwnArenaResetWhenTheSlotComesBack) {
    ForeignLayout foreign(ctx().device());
    engine::Frames frames(ctx(), {.framesInFlight = 2, .descriptors = {.name = "frame arena", .maxSets = 2, .poolSizes = {}}});
    engine::DescriptorArena* arenas[2] = {};
    for (uint64_t n = 0; n < 4; ++n) {
        engine::Frame& f = frames.beginFrame();
        EXPECT_EQ(f.slot, n % 2);
        EXPECT_EQ(f.descriptors->allocatedSets(), 0u) << "arena of frame " << n << " was not reset";
        f.descriptors->allocate(foreign.layout);
        f.descriptors->allocate(foreign.layout);
        EXPECT_THROW_CONTAINING(f.descriptors->allocate(foreign.layout), "frame arena (frame slot " + std::to_string(f.slot) + ") is exhausted");
        if (n < 2) arenas[f.slot] = f.descriptors;
        EXPECT_EQ(arenas[f.slot], f.descriptors);
        frames.endFrame();
    }
    EXPECT_NE(arenas[0], arenas[1]);
}

TEST_F(Frames, MisuseIsAClearError) {
    engine::Frames frames(ctx(), {.framesInFlight = 2});
    EXPECT_THROW_CONTAINING(frames.endFrame(), "endFrame() without beginFrame()");
    frames.beginFrame();
    EXPECT_THROW_CONTAINING(frames.beginFrame(), "beginFrame() called twice");
    frames.endFrame();
    EXPECT_THROW_CONTAINING(engine::Frames(ctx(), {.framesInFlight = 4}), "framesInFlight must be 1, 2 or 3");
}

TEST_F(Frames, UploadRingCarvesOneRegionPerSlot) {
    engine::UploadRing ring(ctx(), {.framesInFlight = 3, .bytesPerFrame = 1024});
    ring.beginFrame(0);
    const auto a = ring.allocate(100);
    const auto b = ring.allocate(100, 256);
    EXPECT_EQ(a.offset, 0u);
    EXPECT_EQ(b.offset % 256, 0u);
    EXPECT_GE(b.offset, 100u);
    EXPECT_EQ(a.buffer, ring.buffer());
    EXPECT_NE(a.data, nullptr);
    EXPECT_THROW_CONTAINING(ring.allocate(2000), "raise UploadRingDesc::bytesPerFrame");
    ring.beginFrame(2);
    const auto c = ring.allocate(16);
    EXPECT_EQ(c.offset, 2 * ring.bytesPerFrame());
    EXPECT_EQ(static_cast<uint8_t*>(c.data) - static_cast<uint8_t*>(a.data), ptrdiff_t(c.offset));
    EXPECT_THROW_CONTAINING(ring.beginFrame(3), "frame slot 3 out of range");
    EXPECT_THROW_CONTAINING(ring.allocate(16, 24), "not a power of two");
}

TEST(DeferredDeletion, RunsEntriesInOrderOnceTheirFrameCompleted) {
    engine::DeferredDeletion deletion;
    std::vector<std::string> log;
    deletion.setCurrentFrame(0);
    deletion.defer([&] { log.push_back("a0"); });
    deletion.defer([&] { log.push_back("b0"); });
    deletion.setCurrentFrame(1);
    deletion.defer([&] { log.push_back("a1"); });
    deletion.setCurrentFrame(2);
    deletion.defer([&] { log.push_back("a2"); });
    EXPECT_EQ(deletion.pending(), 4u);
    deletion.collect(0);
    EXPECT_EQ(log, (std::vector<std::string>{"a0", "b0"}));
    deletion.collect(1);
    EXPECT_EQ(log, (std::vector<std::string>{"a0", "b0", "a1"}));
    deletion.flush();
    EXPECT_EQ(log, (std::vector<std::string>{"a0", "b0", "a1", "a2"}));
    EXPECT_EQ(deletion.pending(), 0u);
}

// A buffer the GPU writes in frame 0 is retired in frame 0; it must survive until frame 0's
// fence signalled (destroying it earlier is a validation error) and go before frame 1's.
TEST_F(Frames, DeferredDeletionWaitsForTheFrameThatLastUsedTheResource) {
    engine::Frames frames(ctx(), {.framesInFlight = 2});
    std::vector<std::string> log;
    for (uint64_t n = 0; n < 4; ++n) {
        engine::Frame& f = frames.beginFrame();
        log.push_back("begin" + std::to_string(n));
        engine::Buffer scratch(ctx(), 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::DeviceLocal);
        vkCmdFillBuffer(f.cmd, scratch.handle(), 0, VK_WHOLE_SIZE, uint32_t(n));
        frames.deletion().retire(std::move(scratch));
        frames.deletion().defer([&log, n] { log.push_back("delete" + std::to_string(n)); });
        frames.endFrame();
    }
    EXPECT_EQ(log, (std::vector<std::string>{"begin0", "begin1", "delete0", "begin2", "delete1", "begin3"}));
    frames.waitIdle();
    EXPECT_EQ(log.back(), "delete3");
    EXPECT_EQ(frames.deletion().pending(), 0u);
}

TEST_F(Frames, SubmitWaitsAndSignalsSemaphores) {
    // Frame n signals sems[n % 2], frame n + 1 waits for it: the chain a windowed app builds
    // with acquire/present semaphores.
    std::array<VkSemaphore, 2> sems{};
    for (VkSemaphore& s : sems) {
        VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        ENGINE_VK(vkCreateSemaphore(ctx().device(), &ci, nullptr, &s));
    }
    {
        engine::Frames frames(ctx(), {.framesInFlight = 2});
        for (uint64_t n = 0; n < 5; ++n) {
            engine::Frame& f = frames.beginFrame();
            const VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, sems[n % 2], 0,
                                               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0};
            const VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, sems[(n + 1) % 2], 0,
                                             VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0};
            (void)f;
            engine::FrameSubmit submit;
            submit.signals = {&signal, 1};
            if (n > 0) submit.waits = {&wait, 1};
            frames.endFrame(submit);
        }
        EXPECT_EQ(frames.frameCount(), 5u);
    }  // ~Frames waits for the submitted frames
    // The last signal was never waited on; a submit that waits consumes it before destruction.
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, sems[0], 0,
                               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0};
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.waitSemaphoreInfoCount = 1;
    si.pWaitSemaphoreInfos = &wait;
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    ENGINE_VK(vkCreateFence(ctx().device(), &fci, nullptr, &fence));
    ENGINE_VK(vkQueueSubmit2(ctx().queue(), 1, &si, fence));
    ENGINE_VK(vkWaitForFences(ctx().device(), 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(ctx().device(), fence, nullptr);
    for (VkSemaphore s : sems) vkDestroySemaphore(ctx().device(), s, nullptr);
}

// Steady state: beginFrame, timer, frame graph execution (barriers, dynamic rendering,
// callbacks, timestamps), rebinding an import and endFrame allocate nothing on the heap.
// Own context without the validation layer, whose bookkeeping allocates per call.
TEST(FramesSteadyState, RecordingFramesAllocatesNothing) {
    engine::ContextDesc desc;
    desc.validation = false;
    engine::Context ctx(desc);
    engine::Frames frames(ctx, {.framesInFlight = 2});
    engine::GpuTimer timer(ctx, {.framesInFlight = 2});
    std::array<engine::Buffer, 2> readbacks = {
        engine::Buffer(ctx, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback),
        engine::Buffer(ctx, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback)};

    engine::FrameGraph graph(ctx);
    const auto image = graph.createImage("color", {VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 0});
    const auto scratch = graph.createBuffer("scratch", {1024, 0});
    const auto readback = graph.importBuffer("readback", readbacks[0].handle(), 4096, {},
                                             {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    engine::PassDesc fill;
    fill.name = "fill";
    fill.type = engine::PassType::Transfer;
    fill.uses = {{scratch, engine::Access::TransferWrite}};
    fill.record = [&](engine::PassContext& pc) { vkCmdFillBuffer(pc.commandBuffer(), pc.buffer(scratch), 0, VK_WHOLE_SIZE, 7); };
    engine::PassDesc clear;
    clear.name = "clear";
    clear.type = engine::PassType::Graphics;
    clear.uses = {{image, engine::Access::ColorAttachmentWrite}};
    engine::PassDesc copy;
    copy.name = "copy";
    copy.type = engine::PassType::Transfer;
    copy.uses = {{image, engine::Access::TransferRead}, {scratch, engine::Access::TransferRead},
                 {readback, engine::Access::TransferWrite}};
    copy.record = [&](engine::PassContext& pc) {
        VkBufferImageCopy ic{};
        ic.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        ic.imageExtent = {16, 16, 1};
        vkCmdCopyImageToBuffer(pc.commandBuffer(), pc.image(image), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pc.buffer(readback), 1, &ic);
        const VkBufferCopy bc{0, 1024, 1024};
        vkCmdCopyBuffer(pc.commandBuffer(), pc.buffer(scratch), pc.buffer(readback), 1, &bc);
    };
    graph.addPass(fill);
    graph.addPass(clear);
    graph.addPass(copy);
    graph.bake();

    auto recordFrame = [&] {
        engine::Frame& f = frames.beginFrame();
        graph.rebindImportedBuffer(readback, readbacks[f.slot].handle());
        timer.beginFrame(f.cmd, f.slot);
        graph.execute(f.cmd, f.slot, &timer);
        frames.endFrame();
    };
    for (int i = 0; i < 4; ++i) recordFrame();  // warm-up: timer series, driver caches
    t_allocations = 0;
    t_countAllocations = true;
    for (int i = 0; i < 8; ++i) recordFrame();
    t_countAllocations = false;
    EXPECT_EQ(t_allocations, 0u) << "heap allocations while recording 8 steady-state frames";
    frames.waitIdle();
}

}  // namespace
