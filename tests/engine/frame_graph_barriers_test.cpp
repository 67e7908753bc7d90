// Barrier and layout derivation: RAW, WAR, WAW on images and buffers across graphics,
// compute and transfer passes; read-after-read; imported before/after states.
#include "frame_graph_test_util.h"
#include "vulkan_test.h"

#include "engine/frame_graph.h"

using engine::Access;
using engine::PassType;
using fgtest::bufferBarrier;
using fgtest::imageBarrier;
using fgtest::pass;

namespace {

constexpr VkPipelineStageFlags2 kFragmentTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;

class FrameGraphBarriers : public testsupport::VulkanTest {
protected:
    engine::ImageDesc color{VK_FORMAT_R8G8B8A8_UNORM, 64, 32, 0};
    engine::BufferDesc bytes{4096, 0};
};

TEST_F(FrameGraphBarriers, RawImageGraphicsToCompute) {
    engine::FrameGraph g(ctx());
    const auto img = g.createImage("albedo", color);
    const auto out = g.createImage("blurred", color);
    g.addPass(pass("draw", PassType::Graphics, {{img, Access::ColorAttachmentWrite}}));
    g.addPass(pass("blur", PassType::Compute, {{img, Access::SampledCompute}, {out, Access::StorageImageWrite}}));
    g.bake();

    const auto first = imageBarrier(g, "draw", img);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(first->newLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(first->dstStageMask, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);

    const auto raw = imageBarrier(g, "blur", img);
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->srcStageMask, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
    EXPECT_EQ(raw->srcAccessMask, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    EXPECT_EQ(raw->dstStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(raw->dstAccessMask, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    EXPECT_EQ(raw->oldLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(raw->newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);

    const auto storage = imageBarrier(g, "blur", out);
    ASSERT_TRUE(storage);
    EXPECT_EQ(storage->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(storage->newLayout, VK_IMAGE_LAYOUT_GENERAL);
    EXPECT_EQ(storage->dstAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

TEST_F(FrameGraphBarriers, RawImageComputeToFragmentAndDepth) {
    engine::FrameGraph g(ctx());
    const auto img = g.createImage("lit", color);
    const auto depth = g.createImage("depth", {VK_FORMAT_D32_SFLOAT, 64, 32, 0});
    const auto target = g.createImage("target", color);
    g.addPass(pass("prepass", PassType::Graphics, {{depth, Access::DepthAttachmentWrite}}));
    g.addPass(pass("light", PassType::Compute, {{img, Access::StorageImageWrite}}));
    g.addPass(pass("compose", PassType::Graphics,
                   {{img, Access::SampledFragment}, {depth, Access::DepthAttachmentRead}, {target, Access::ColorAttachmentWrite}}));
    g.bake();

    const auto raw = imageBarrier(g, "compose", img);
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->srcStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(raw->srcAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(raw->dstStageMask, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    EXPECT_EQ(raw->oldLayout, VK_IMAGE_LAYOUT_GENERAL);
    EXPECT_EQ(raw->newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);

    const auto depthRaw = imageBarrier(g, "compose", depth);
    ASSERT_TRUE(depthRaw);
    EXPECT_EQ(depthRaw->srcStageMask, kFragmentTests);
    EXPECT_EQ(depthRaw->srcAccessMask, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    EXPECT_EQ(depthRaw->dstAccessMask, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
    EXPECT_EQ(depthRaw->oldLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    EXPECT_EQ(depthRaw->newLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    EXPECT_EQ(depthRaw->subresourceRange.aspectMask, VkImageAspectFlags(VK_IMAGE_ASPECT_DEPTH_BIT));
}

TEST_F(FrameGraphBarriers, WarImageComputeReadThenGraphicsWrite) {
    // load: loadColor; else cleared, or (covers) left undefined for a pass that writes every pixel.
    for (auto [load, covers] : {std::pair{true, false}, std::pair{true, true}, std::pair{false, false}, std::pair{false, true}}) {
        SCOPED_TRACE(std::string(load ? "load" : "no load") + (covers ? ", covers" : ""));
        engine::FrameGraph g(ctx());
        const auto img = g.createImage("history", color);
        g.addPass(pass("draw", PassType::Graphics, {{img, Access::ColorAttachmentWrite}}));
        g.addPass(pass("sample", PassType::Compute, {{img, Access::SampledCompute}}));
        auto redraw = pass("redraw", PassType::Graphics, {{img, Access::ColorAttachmentWrite}});
        redraw.loadColor = load;
        redraw.coversColor = covers;
        g.addPass(redraw);
        g.bake();

        const auto war = imageBarrier(g, "redraw", img);
        ASSERT_TRUE(war);
        // The compute read must finish before the attachment is written again.
        EXPECT_TRUE(war->srcStageMask & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
        EXPECT_EQ(war->dstStageMask, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
        EXPECT_EQ(war->srcAccessMask & VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, 0u) << "reads need no availability";
        // Loading keeps the contents (real transition), clearing or covering discards them.
        EXPECT_EQ(war->oldLayout, load ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED);
        EXPECT_EQ(war->newLayout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    }
}

TEST_F(FrameGraphBarriers, WawImageComputeThenTransfer) {
    engine::FrameGraph g(ctx());
    const auto img = g.createImage("scratch", color);
    g.addPass(pass("fill", PassType::Compute, {{img, Access::StorageImageReadWrite}}));
    g.addPass(pass("overwrite", PassType::Transfer, {{img, Access::TransferWrite}}));
    g.bake();
    const auto waw = imageBarrier(g, "overwrite", img);
    ASSERT_TRUE(waw);
    EXPECT_EQ(waw->srcStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(waw->srcAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(waw->dstStageMask, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(waw->dstAccessMask, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(waw->oldLayout, VK_IMAGE_LAYOUT_GENERAL);
    EXPECT_EQ(waw->newLayout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
}

TEST_F(FrameGraphBarriers, BufferRawWawWarAcrossComputeTransferGraphics) {
    engine::FrameGraph g(ctx());
    const auto buf = g.createBuffer("verts", bytes);
    g.addPass(pass("generate", PassType::Compute, {{buf, Access::StorageBufferWrite}}));
    g.addPass(pass("patch", PassType::Transfer, {{buf, Access::TransferWrite}}));            // WAW
    g.addPass(pass("draw", PassType::Graphics, {{buf, Access::VertexBufferRead}}));          // RAW
    g.addPass(pass("regenerate", PassType::Compute, {{buf, Access::StorageBufferWrite}}));   // WAR
    g.bake();

    const auto waw = bufferBarrier(g, "patch", buf);
    ASSERT_TRUE(waw);
    EXPECT_EQ(waw->srcStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(waw->srcAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(waw->dstStageMask, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(waw->dstAccessMask, VK_ACCESS_2_TRANSFER_WRITE_BIT);

    const auto raw = bufferBarrier(g, "draw", buf);
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->srcStageMask, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(raw->srcAccessMask, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(raw->dstStageMask, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT);
    EXPECT_EQ(raw->dstAccessMask, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT);

    const auto war = bufferBarrier(g, "regenerate", buf);
    ASSERT_TRUE(war);
    EXPECT_TRUE(war->srcStageMask & VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT);
    EXPECT_EQ(war->srcAccessMask & VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, 0u);
    EXPECT_EQ(war->dstStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(war->dstAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

TEST_F(FrameGraphBarriers, ReadAfterReadNeedsNoBarrierUnlessTheLayoutChanges) {
    engine::FrameGraph g(ctx());
    const auto buf = g.createBuffer("weights", bytes);
    const auto img = g.createImage("features", color);
    g.addPass(pass("produce", PassType::Compute, {{buf, Access::StorageBufferWrite}, {img, Access::StorageImageWrite}}));
    g.addPass(pass("read1", PassType::Compute, {{buf, Access::StorageBufferRead}, {img, Access::SampledCompute}}));
    g.addPass(pass("read2", PassType::Compute, {{buf, Access::StorageBufferRead}, {img, Access::SampledCompute}}));
    g.addPass(pass("read3", PassType::Compute, {{buf, Access::StorageBufferRead}, {img, Access::StorageImageRead}}));
    g.bake();

    EXPECT_TRUE(bufferBarrier(g, "read1", buf));
    EXPECT_TRUE(imageBarrier(g, "read1", img));
    EXPECT_FALSE(bufferBarrier(g, "read2", buf));
    EXPECT_FALSE(imageBarrier(g, "read2", img));
    EXPECT_FALSE(bufferBarrier(g, "read3", buf));
    const auto relayout = imageBarrier(g, "read3", img);
    ASSERT_TRUE(relayout);
    EXPECT_EQ(relayout->oldLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    EXPECT_EQ(relayout->newLayout, VK_IMAGE_LAYOUT_GENERAL);
    EXPECT_TRUE(relayout->srcStageMask & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
}

TEST_F(FrameGraphBarriers, RawBufferComputeToGraphicsUniform) {
    engine::FrameGraph g(ctx());
    const auto params = g.createBuffer("params", bytes);
    const auto target = g.createImage("target", color);
    g.addPass(pass("update", PassType::Compute, {{params, Access::StorageBufferWrite}}));
    g.addPass(pass("draw", PassType::Graphics, {{params, Access::UniformBufferRead}, {target, Access::ColorAttachmentWrite}}));
    g.bake();
    const auto raw = bufferBarrier(g, "draw", params);
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->srcStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(raw->srcAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(raw->dstStageMask, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    EXPECT_EQ(raw->dstAccessMask, VK_ACCESS_2_UNIFORM_READ_BIT);
}

TEST_F(FrameGraphBarriers, ReadInANewStageWaitsForTheWrite) {
    engine::FrameGraph g(ctx());
    const auto buf = g.createBuffer("params", bytes);
    g.addPass(pass("write", PassType::Compute, {{buf, Access::StorageBufferWrite}}));
    g.addPass(pass("computeRead", PassType::Compute, {{buf, Access::StorageBufferRead}}));
    g.addPass(pass("indirect", PassType::Compute, {{buf, Access::IndirectRead}}));
    g.bake();
    const auto second = bufferBarrier(g, "indirect", buf);
    ASSERT_TRUE(second);
    EXPECT_EQ(second->srcStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    EXPECT_EQ(second->srcAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(second->dstStageMask, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
}

TEST_F(FrameGraphBarriers, ImportedResourcesStartAndEndInTheirExternalStates) {
    engine::FrameGraph g(ctx());
    const auto fakeImage = reinterpret_cast<VkImage>(uintptr_t(0x1000));
    const auto fakeBuffer = reinterpret_cast<VkBuffer>(uintptr_t(0x2000));
    const auto swapchain = g.importImage("swapchain", fakeImage, VK_NULL_HANDLE, color,
                                         {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0},
                                         {VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_NONE, 0});
    const auto readback = g.importBuffer("readback", fakeBuffer, 4096, {},
                                         {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT});
    g.addPass(pass("present", PassType::Graphics, {{swapchain, Access::ColorAttachmentWrite}}));
    g.addPass(pass("copy", PassType::Transfer, {{swapchain, Access::TransferRead}, {readback, Access::TransferWrite}}));
    g.bake();

    const auto acquire = imageBarrier(g, "present", swapchain);
    ASSERT_TRUE(acquire);
    EXPECT_EQ(acquire->srcStageMask, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);
    EXPECT_EQ(acquire->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_EQ(acquire->image, fakeImage);
    EXPECT_FALSE(bufferBarrier(g, "copy", readback)) << "the readback buffer had no prior access in the frame";

    const auto toPresent = imageBarrier(g, "", swapchain);
    ASSERT_TRUE(toPresent);
    EXPECT_EQ(toPresent->oldLayout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    EXPECT_EQ(toPresent->newLayout, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
    EXPECT_EQ(toPresent->srcStageMask, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT);

    const auto toHost = bufferBarrier(g, "", readback);
    ASSERT_TRUE(toHost);
    EXPECT_EQ(toHost->srcStageMask, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    EXPECT_EQ(toHost->srcAccessMask, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    EXPECT_EQ(toHost->dstStageMask, VK_PIPELINE_STAGE_2_HOST_BIT);
    EXPECT_EQ(toHost->dstAccessMask, VK_ACCESS_2_HOST_READ_BIT);

    // Rebinding an import re-points it without a re-bake.
    const auto nextImage = reinterpret_cast<VkImage>(uintptr_t(0x3000));
    g.rebindImportedImage(swapchain, nextImage, VK_NULL_HANDLE);
    EXPECT_EQ(g.physicalImage(swapchain), nextImage);
    EXPECT_EQ(imageBarrier(g, "", swapchain)->image, nextImage);
}

TEST_F(FrameGraphBarriers, SeveralReadsOfOneResourceInAPassShareOneBarrier) {
    engine::FrameGraph g(ctx());
    const auto depth = g.createImage("depth", {VK_FORMAT_D32_SFLOAT, 64, 32, 0});
    const auto target = g.createImage("target", color);
    const auto args = g.createBuffer("args", bytes);
    g.addPass(pass("prepass", PassType::Graphics, {{depth, Access::DepthAttachmentWrite}}));
    g.addPass(pass("args", PassType::Compute, {{args, Access::StorageBufferWrite}}));
    g.addPass(pass("fog", PassType::Graphics,
                   {{depth, Access::DepthAttachmentRead}, {depth, Access::SampledFragment},
                    {target, Access::ColorAttachmentWrite}, {args, Access::IndirectRead}, {args, Access::StorageBufferRead}}));
    g.bake();
    const auto d = imageBarrier(g, "fog", depth);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->newLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
    EXPECT_EQ(d->dstStageMask, kFragmentTests | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    EXPECT_EQ(d->dstAccessMask, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    const auto a = bufferBarrier(g, "fog", args);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->dstStageMask, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
    size_t depthBarriers = 0;
    for (const auto& b : fgtest::batchBefore(g, fgtest::orderIndex(g, "fog"))->images) depthBarriers += b.image == g.physicalImage(depth);
    EXPECT_EQ(depthBarriers, 1u);
}

}  // namespace
