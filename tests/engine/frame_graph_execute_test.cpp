// End to end on the GPU: a small graph (compute -> compute -> graphics clear -> compute ->
// transfer to an imported readback buffer) runs over several frames in flight with a
// GpuTimer, descriptor sets from the per-frame arenas and aliased transients. Contents are
// checked per frame; the fixture fails on any validation or synchronization message.
#include "vulkan_test.h"

#include "engine/buffer.h"
#include "engine/error.h"
#include "engine/frame_graph.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "fg_test_shaders.h"

#include <vkutil/barrier.h>
#include <vkutil/create_info.h>
#include <vkutil/image.h>
#include <vkutil/descriptors.h>
#include <vkutil/pipeline.h>

#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <cstring>
#include <span>
#include <vector>

using engine::Access;
using engine::PassType;

namespace {

// A compute pipeline whose bindings are all of the given descriptor types (set 0).
class Kernel {
public:
    Kernel(VkDevice device, std::span<const uint32_t> spirv, std::vector<VkDescriptorType> bindings, uint32_t pushBytes)
        : device_(device) {
        ENGINE_VK(vkutil::createDescriptorSetLayout(device_, bindings, VK_SHADER_STAGE_COMPUTE_BIT, &setLayout));
        ENGINE_VK(vkutil::createPipelineLayout(device_, {.setLayouts = {&setLayout, 1}, .pushConstantBytes = pushBytes}, &layout));
        ENGINE_VK(vkutil::createComputePipeline(device_, {.layout = layout, .spirv = spirv}, &pipeline));
    }
    ~Kernel() {
        vkDestroyPipeline(device_, pipeline, nullptr);
        vkDestroyPipelineLayout(device_, layout, nullptr);
        vkDestroyDescriptorSetLayout(device_, setLayout, nullptr);
    }
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;

private:
    VkDevice device_;
};

// A fullscreen-triangle pipeline for dynamic rendering into one RGBA8 attachment, sampling
// one combined image sampler (set 0, binding 0) with texelFetch.
class FullscreenPipeline {
public:
    FullscreenPipeline(VkDevice device, VkFormat colorFormat) : device_(device) {
        ENGINE_VK(vkutil::createSampler(device_, VK_FILTER_NEAREST, &sampler));  // texelFetch only
        const VkDescriptorType binding = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        ENGINE_VK(vkutil::createDescriptorSetLayout(device_, {&binding, 1}, VK_SHADER_STAGE_FRAGMENT_BIT, &setLayout));
        ENGINE_VK(vkutil::createPipelineLayout(device_, {.setLayouts = {&setLayout, 1}}, &layout));

        ENGINE_VK(vkutil::createGraphicsPipeline(device_,
                                                 {.layout = layout, .vertex = fgtest::shaders::fg_fullscreen_vert(),
                                                  .fragment = fgtest::shaders::fg_swizzle_frag(), .colorFormats = {&colorFormat, 1}},
                                                 &pipeline));
    }
    ~FullscreenPipeline() {
        vkDestroyPipeline(device_, pipeline, nullptr);
        vkDestroyPipelineLayout(device_, layout, nullptr);
        vkDestroyDescriptorSetLayout(device_, setLayout, nullptr);
        vkDestroySampler(device_, sampler, nullptr);
    }
    VkSampler sampler = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;

private:
    VkDevice device_;
};

struct BufferPush {
    uint32_t count, useSrc, mul, add, indexMul;
};

constexpr uint32_t kCount = 256;
constexpr uint32_t kWidth = 16, kHeight = 8;
constexpr VkDeviceSize kBufferBytes = kCount * sizeof(uint32_t);
constexpr VkDeviceSize kImageBytes = kWidth * kHeight * 4;
constexpr VkDeviceSize kPaintOffset = kBufferBytes;
constexpr VkDeviceSize kClearOffset = kBufferBytes + kImageBytes;
constexpr VkDeviceSize kCompositeOffset = kBufferBytes + 2 * kImageBytes;
constexpr VkDeviceSize kEarlyOffset = kBufferBytes + 3 * kImageBytes;
constexpr VkDeviceSize kReadbackBytes = kBufferBytes + 4 * kImageBytes;
constexpr uint32_t kEarlyTag = 200;
constexpr float kClear[4] = {0.25f, 0.5f, 0.75f, 1.0f};

// Parameter: frames in flight.
class FrameGraphExecute : public testsupport::VulkanTest, public ::testing::WithParamInterface<uint32_t> {};

void checkReadback(const engine::Buffer& readback, uint64_t frame) {
    readback.invalidate();
    const auto* words = static_cast<const uint32_t*>(readback.mapped());
    for (uint32_t i = 0; i < kCount; ++i)
        ASSERT_EQ(words[i], 3 * (uint32_t(frame) + i) + 1) << "frame " << frame << " element " << i;
    const auto* paint = static_cast<const uint8_t*>(readback.mapped()) + kPaintOffset;
    const auto* early = static_cast<const uint8_t*>(readback.mapped()) + kEarlyOffset;
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            for (auto [texels, tag] : {std::pair{paint, uint8_t(frame)}, std::pair{early, uint8_t(kEarlyTag)}}) {
                const uint8_t* t = texels + (y * kWidth + x) * 4;
                ASSERT_EQ(t[0], x);
                ASSERT_EQ(t[1], y);
                ASSERT_EQ(t[2], tag);
                ASSERT_EQ(t[3], 255);
            }
        }
    const auto* clear = static_cast<const uint8_t*>(readback.mapped()) + kClearOffset;
    for (uint32_t p = 0; p < kWidth * kHeight; ++p)
        for (int c = 0; c < 4; ++c) ASSERT_NEAR(clear[p * 4 + c], kClear[c] * 255.0f, 1.0f) << "pixel " << p;
    // The composite pass drew `paint` with red and blue swapped.
    const auto* composite = static_cast<const uint8_t*>(readback.mapped()) + kCompositeOffset;
    for (uint32_t p = 0; p < kWidth * kHeight; ++p) {
        ASSERT_EQ(composite[p * 4 + 0], paint[p * 4 + 2]) << "pixel " << p;
        ASSERT_EQ(composite[p * 4 + 1], paint[p * 4 + 1]) << "pixel " << p;
        ASSERT_EQ(composite[p * 4 + 2], paint[p * 4 + 0]) << "pixel " << p;
    }
}

TEST_P(FrameGraphExecute, SmallGraphOverFramesInFlight) {
    const uint32_t inFlight = GetParam();
    const VkDevice device = ctx().device();
    Kernel bufferKernel(device, fgtest::shaders::fg_buffer_comp(),
                        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, sizeof(BufferPush));
    Kernel imageKernel(device, fgtest::shaders::fg_image_comp(), {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, sizeof(uint32_t));
    FullscreenPipeline swizzle(device, VK_FORMAT_R8G8B8A8_UNORM);

    engine::Frames frames(ctx(), {.framesInFlight = inFlight});
    engine::GpuTimer timer(ctx(), {.framesInFlight = inFlight});
    engine::Buffer ones(ctx(), kBufferBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::Upload);
    std::fill_n(static_cast<uint32_t*>(ones.mapped()), kCount, 1u);
    std::vector<engine::Buffer> readbacks(inFlight);
    for (auto& rb : readbacks) {
        rb = engine::Buffer(ctx(), kReadbackBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
        std::memset(rb.mapped(), 0xCD, kReadbackBytes);
    }

    engine::FrameGraph graph(ctx());
    const auto onesH = graph.importBuffer("ones", ones.handle(), kBufferBytes, {}, {});
    const auto readbackH = graph.importBuffer("readback", readbacks[0].handle(), kReadbackBytes, {},
                                              {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    const auto a = graph.createBuffer("a", {kBufferBytes, 0});
    const auto b = graph.createBuffer("b", {kBufferBytes, 0});
    const auto e = graph.createBuffer("e", {kBufferBytes, 0});
    const auto paint = graph.createImage("paint", {VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, 0});
    const auto clear = graph.createImage("clear", {VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, 0});
    const auto composite = graph.createImage("composite", {VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, 0});
    const auto early = graph.createImage("early", {VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, 0});

    engine::Frame* frame = nullptr;  // the frame being recorded (record callbacks allocate from its arena)
    auto runBufferKernel = [&](engine::PassContext& pc, engine::ResourceHandle src, engine::ResourceHandle dst, BufferPush push) {
        const VkDescriptorSet set = frame->descriptors->allocate(bufferKernel.setLayout);
        const VkDescriptorBufferInfo infos[2] = {{pc.buffer(src), 0, VK_WHOLE_SIZE}, {pc.buffer(dst), 0, VK_WHOLE_SIZE}};
        vkutil::DescriptorWrites(set).buffers(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, infos).update(device);
        const VkCommandBuffer cmd = pc.commandBuffer();
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, bufferKernel.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, bufferKernel.layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, bufferKernel.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatch(cmd, (kCount + 63) / 64, 1, 1);
    };
    auto runImageKernel = [&](engine::PassContext& pc, engine::ResourceHandle image, uint32_t tag) {
        const VkDescriptorSet set = frame->descriptors->allocate(imageKernel.setLayout);
        vkutil::DescriptorWrites(set).image(0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {VK_NULL_HANDLE, pc.imageView(image), VK_IMAGE_LAYOUT_GENERAL}).update(device);
        const VkCommandBuffer cmd = pc.commandBuffer();
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, imageKernel.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, imageKernel.layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, imageKernel.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(tag), &tag);
        vkCmdDispatch(cmd, (kWidth + 7) / 8, (kHeight + 7) / 8, 1);
    };
    auto copyImage = [](engine::PassContext& pc, engine::ResourceHandle image, engine::ResourceHandle buffer, VkDeviceSize offset) {
        VkBufferImageCopy ic{};
        ic.bufferOffset = offset;
        ic.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        ic.imageExtent = {kWidth, kHeight, 1};
        vkCmdCopyImageToBuffer(pc.commandBuffer(), pc.image(image), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pc.buffer(buffer), 1, &ic);
    };
    auto computePass = [](std::string name, std::vector<engine::ResourceUse> uses, engine::RecordFn fn) {
        engine::PassDesc p;
        p.name = std::move(name);
        p.type = PassType::Compute;
        p.uses = std::move(uses);
        p.record = std::move(fn);
        return p;
    };

    // "early" lives in the first two passes only, so it shares memory with a later image.
    graph.addPass(computePass("stamp", {{early, Access::StorageImageWrite}},
                              [&](engine::PassContext& pc) { runImageKernel(pc, early, kEarlyTag); }));
    engine::PassDesc grab;
    grab.name = "grab";
    grab.type = PassType::Transfer;
    grab.uses = {{early, Access::TransferRead}, {readbackH, Access::TransferWrite}};
    grab.record = [&](engine::PassContext& pc) { copyImage(pc, early, readbackH, kEarlyOffset); };
    graph.addPass(grab);
    graph.addPass(computePass("seed", {{onesH, Access::StorageBufferRead}, {a, Access::StorageBufferWrite}},
                              [&](engine::PassContext& pc) {
                                  runBufferKernel(pc, onesH, a, {kCount, 1, uint32_t(frame->number), 0, 1});
                              }));
    graph.addPass(computePass("triple", {{a, Access::StorageBufferRead}, {b, Access::StorageBufferWrite}},
                              [&](engine::PassContext& pc) {
                                  // The pass sees the graph's timer and may time its own steps inside its scope.
                                  ASSERT_EQ(pc.timer(), &timer);
                                  pc.timer()->beginScope(pc.commandBuffer(), "triple/kernel");
                                  runBufferKernel(pc, a, b, {kCount, 1, 3, 0, 0});
                                  pc.timer()->endScope(pc.commandBuffer());
                              }));
    graph.addPass(computePass("paint", {{paint, Access::StorageImageWrite}}, [&](engine::PassContext& pc) {
        runImageKernel(pc, paint, uint32_t(frame->number & 0xff));
    }));
    engine::PassDesc clearPass;
    clearPass.name = "clear";
    clearPass.type = PassType::Graphics;
    clearPass.uses = {{clear, Access::ColorAttachmentWrite}};
    std::copy(std::begin(kClear), std::end(kClear), clearPass.clearColor);
    VkExtent2D seenExtent{};
    clearPass.record = [&](engine::PassContext& pc) { seenExtent = pc.renderExtent(); };  // the clear is the point
    graph.addPass(clearPass);
    graph.addHook("post-clear");
    graph.addPass(computePass("plusOne", {{b, Access::StorageBufferRead}, {e, Access::StorageBufferWrite}},
                              [&](engine::PassContext& pc) { runBufferKernel(pc, b, e, {kCount, 1, 1, 1, 0}); }));
    engine::PassDesc copy;
    copy.name = "readback";
    copy.type = PassType::Transfer;
    copy.uses = {{e, Access::TransferRead}, {paint, Access::TransferRead}, {clear, Access::TransferRead},
                 {composite, Access::TransferRead}, {readbackH, Access::TransferWrite}};
    copy.record = [&](engine::PassContext& pc) {
        const VkCommandBuffer cmd = pc.commandBuffer();
        const VkBufferCopy region{0, 0, kBufferBytes};
        vkCmdCopyBuffer(cmd, pc.buffer(e), pc.buffer(readbackH), 1, &region);
        copyImage(pc, paint, readbackH, kPaintOffset);
        copyImage(pc, clear, readbackH, kClearOffset);
        copyImage(pc, composite, readbackH, kCompositeOffset);
    };
    graph.addPass(copy);

    // An "external" graphics pass, inserted at the hook (registered last, runs in the middle).
    engine::PassDesc draw;
    draw.name = "composite";
    draw.type = PassType::Graphics;
    draw.uses = {{paint, Access::SampledFragment}, {composite, Access::ColorAttachmentWrite}};
    draw.record = [&](engine::PassContext& pc) {
        const VkCommandBuffer cmd = pc.commandBuffer();
        const VkDescriptorSet set = frame->descriptors->allocate(swizzle.setLayout);
        vkutil::DescriptorWrites(set)
            .image(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {swizzle.sampler, pc.imageView(paint), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL})
            .update(device);
        const VkExtent2D extent = pc.renderExtent();
        const VkViewport viewport{0, 0, float(extent.width), float(extent.height), 0, 1};
        const VkRect2D scissor{{0, 0}, extent};
        vkCmdSetViewport(cmd, 0, 1, &viewport);
        vkCmdSetScissor(cmd, 0, 1, &scissor);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, swizzle.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, swizzle.layout, 0, 1, &set, 0, nullptr);
        vkCmdDraw(cmd, 3, 1, 0, 0);
    };
    graph.insertAtHook("post-clear", draw);
    graph.bake();
    EXPECT_EQ(graph.passOrder(), (std::vector<std::string>{"stamp", "grab", "seed", "triple", "paint", "clear", "composite",
                                                           "plusOne", "readback"}));
    EXPECT_TRUE(graph.aliased(early, paint) || graph.aliased(early, clear) || graph.aliased(early, composite))
        << graph.describe();
    EXPECT_TRUE(graph.aliased(a, e)) << "a (seed..triple) and e (plusOne..readback) have disjoint lifetimes";
    EXPECT_FALSE(graph.aliased(a, b));
    EXPECT_LT(graph.stats().transientBytes, graph.stats().transientBytesUnaliased);

    constexpr uint64_t kFrames = 7;
    uint64_t checked = 0;
    for (uint64_t n = 0; n < kFrames; ++n) {
        frame = &frames.beginFrame();
        ASSERT_EQ(frame->number, n);
        engine::Buffer& readback = readbacks[frame->slot];
        if (n >= inFlight) {  // this slot's previous frame completed: its results are ready
            checkReadback(readback, n - inFlight);
            ++checked;
            std::memset(readback.mapped(), 0xCD, kReadbackBytes);
        }
        graph.rebindImportedBuffer(readbackH, readback.handle());
        timer.beginFrame(frame->cmd, frame->slot);
        graph.execute(frame->cmd, frame->slot, &timer);
        frames.endFrame();
    }
    frames.waitIdle();
    for (uint64_t n = kFrames - inFlight; n < kFrames; ++n, ++checked) checkReadback(readbacks[n % inFlight], n);
    EXPECT_EQ(checked, kFrames);
    EXPECT_EQ(seenExtent.width, kWidth);
    EXPECT_EQ(seenExtent.height, kHeight);

    for (uint32_t slot = 0; slot < inFlight; ++slot) timer.collect(slot);
    const auto timings = timer.timings();
    if (ctx().features().timestamps) {
        std::vector<std::string> names;
        for (const auto& t : timings) {
            names.push_back(t.name);
            EXPECT_GE(t.lastMs, 0.0) << t.name;
            EXPECT_GE(t.medianMs, 0.0) << t.name;
            EXPECT_EQ(t.samples, kFrames) << t.name;
        }
        EXPECT_EQ(names, (std::vector<std::string>{"stamp", "grab", "seed", "triple", "triple/kernel", "paint", "clear", "composite",
                                                   "plusOne", "readback"}));
    }
}


class FrameGraphImports : public testsupport::VulkanTest {};

// Ping-pong history images imported with before == after == SHADER_READ_ONLY (as if sampled by
// the next frame's fragment shader), rebound every frame without a re-bake. Frame n reads the
// history frame n-1 wrote and writes its own. Core validation checks at submit that each
// frame's first barrier's old layout matches the layout the previous frame left, so a wrong
// after-transition fails the test; synchronization validation checks the frame-to-frame
// chaining through the before/after stages.
TEST_F(FrameGraphImports, HistoryImagesRoundTripAcrossFrames) {
    constexpr VkExtent2D kExtent{4, 4};
    constexpr VkDeviceSize kBytes = 4 * 4 * sizeof(uint32_t);
    constexpr uint32_t kInFlight = 2;
    // Test-owned images with their own memory (what an app imports: history buffers, swapchain).
    std::array<vkutil::Image, 2> history;
    for (vkutil::Image& h : history)
        ENGINE_VK(h.create(ctx().physicalDevice(), ctx().device(), VK_FORMAT_R32_UINT, kExtent,
                           VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    // Start both in the steady-state layout, holding 1000.
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        for (vkutil::Image& h : history) {
            vkutil::imageBarrier(cmd, h.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            VkClearColorValue value{};
            value.uint32[0] = 1000;
            vkCmdClearColorImage(cmd, h.handle(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
            vkutil::imageBarrier(cmd, h.handle(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                 VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        }
    });

    std::vector<engine::Buffer> readbacks;
    for (uint32_t i = 0; i < kInFlight; ++i)
        readbacks.emplace_back(ctx(), kBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    const engine::ExternalState sampled{VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                        VK_ACCESS_2_SHADER_SAMPLED_READ_BIT};
    const engine::ImageDesc desc{VK_FORMAT_R32_UINT, kExtent.width, kExtent.height, 0};
    engine::FrameGraph graph(ctx());
    const auto previous = graph.importImage("previous", history[1].handle(), VK_NULL_HANDLE, desc, sampled, sampled);
    const auto current = graph.importImage("current", history[0].handle(), VK_NULL_HANDLE, desc, sampled, sampled);
    const auto readback = graph.importBuffer("readback", readbacks[0].handle(), kBytes, {},
                                             {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    uint64_t frameNumber = 0;
    engine::PassDesc resolve;
    resolve.name = "resolve";
    resolve.type = PassType::Transfer;
    resolve.uses = {{previous, Access::TransferRead}, {current, Access::TransferWrite}, {readback, Access::TransferWrite}};
    resolve.record = [&](engine::PassContext& pc) {
        EXPECT_EQ(pc.timer(), nullptr) << "executed without a timer";
        VkBufferImageCopy ic{};
        ic.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        ic.imageExtent = {kExtent.width, kExtent.height, 1};
        vkCmdCopyImageToBuffer(pc.commandBuffer(), pc.image(previous), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pc.buffer(readback), 1, &ic);
        VkClearColorValue value{};
        value.uint32[0] = uint32_t(frameNumber);
        vkCmdClearColorImage(pc.commandBuffer(), pc.image(current), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
    };
    graph.addPass(resolve);
    graph.bake();

    engine::Frames frames(ctx(), {.framesInFlight = kInFlight});
    auto expectHistory = [&](const engine::Buffer& rb, uint64_t frame) {
        rb.invalidate();
        const auto* v = static_cast<const uint32_t*>(rb.mapped());
        const uint32_t expected = frame == 0 ? 1000u : uint32_t(frame - 1);
        for (uint32_t i = 0; i < kExtent.width * kExtent.height; ++i) ASSERT_EQ(v[i], expected) << "frame " << frame;
    };
    constexpr uint64_t kFrames = 6;
    for (uint64_t n = 0; n < kFrames; ++n) {
        engine::Frame& f = frames.beginFrame();
        if (n >= kInFlight) expectHistory(readbacks[f.slot], n - kInFlight);
        frameNumber = n;
        graph.rebindImportedImage(previous, history[(n + 1) % 2].handle(), VK_NULL_HANDLE);
        graph.rebindImportedImage(current, history[n % 2].handle(), VK_NULL_HANDLE);
        graph.rebindImportedBuffer(readback, readbacks[f.slot].handle());
        graph.execute(f.cmd, f.slot);
        frames.endFrame();
    }
    frames.waitIdle();
    for (uint64_t n = kFrames - kInFlight; n < kFrames; ++n) expectHistory(readbacks[n % kInFlight], n);
}

// Re-baking while frames are in flight hands the old transients to Frames::deletion(): the
// validation layer reports destroying a buffer a pending command buffer uses, so destroying
// them at once would fail this test.
TEST_F(FrameGraphImports, RebakeWhileFramesAreInFlightRetiresTheOldTransients) {
    constexpr VkDeviceSize kBytes = 256;
    engine::Frames frames(ctx(), {.framesInFlight = 2});
    std::vector<engine::Buffer> readbacks;
    for (int i = 0; i < 2; ++i) readbacks.emplace_back(ctx(), kBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
    engine::FrameGraph graph(ctx());
    const auto scratch = graph.createBuffer("scratch", {kBytes, 0});
    const auto readback = graph.importBuffer("readback", readbacks[0].handle(), kBytes, {},
                                             {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    uint32_t value = 0;
    engine::PassDesc fill;
    fill.name = "fill";
    fill.type = PassType::Transfer;
    fill.uses = {{scratch, Access::TransferWrite}};
    fill.record = [&](engine::PassContext& pc) { vkCmdFillBuffer(pc.commandBuffer(), pc.buffer(scratch), 0, VK_WHOLE_SIZE, value); };
    engine::PassDesc copy;
    copy.name = "copy";
    copy.type = PassType::Transfer;
    copy.uses = {{scratch, Access::TransferRead}, {readback, Access::TransferWrite}};
    copy.record = [&](engine::PassContext& pc) {
        const VkBufferCopy region{0, 0, kBytes};
        vkCmdCopyBuffer(pc.commandBuffer(), pc.buffer(scratch), pc.buffer(readback), 1, &region);
    };
    graph.addPass(fill);
    graph.addPass(copy);
    graph.bake();

    for (uint32_t n = 0; n < 6; ++n) {
        engine::Frame& f = frames.beginFrame();
        if (n >= 2) {
            readbacks[f.slot].invalidate();
            EXPECT_EQ(static_cast<const uint32_t*>(readbacks[f.slot].mapped())[0], n - 2);
        }
        if (n % 2 == 1) graph.bake(&frames.deletion());  // the previous frame still uses the old scratch
        value = n;
        graph.rebindImportedBuffer(readback, readbacks[f.slot].handle());
        graph.execute(f.cmd, f.slot);
        frames.endFrame();
    }
    frames.waitIdle();
    for (uint32_t n = 4; n < 6; ++n) {
        readbacks[n % 2].invalidate();
        EXPECT_EQ(static_cast<const uint32_t*>(readbacks[n % 2].mapped())[0], n);
    }
    EXPECT_EQ(frames.deletion().pending(), 0u);
}

INSTANTIATE_TEST_SUITE_P(FramesInFlight, FrameGraphExecute, ::testing::Values(1u, 2u, 3u),
                         [](const ::testing::TestParamInfo<uint32_t>& p) { return std::to_string(p.param) + "InFlight"; });

}  // namespace
