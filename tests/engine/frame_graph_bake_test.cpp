// bake(): graph errors (with messages naming pass and resource), ordering, hooks, aliasing.
#include "frame_graph_test_util.h"
#include "vulkan_test.h"

#include "engine/error.h"
#include "engine/frame_graph.h"

#include <string>
#include <vector>

using engine::Access;
using engine::PassType;
using fgtest::pass;

namespace {

class FrameGraphBake : public testsupport::VulkanTest {
protected:
    // The message bake() throws, or "" when it does not throw.
    static std::string bakeError(engine::FrameGraph& g) {
        try {
            g.bake();
        } catch (const engine::Error& e) {
            return e.what();
        }
        return "";
    }
    engine::ImageDesc color{VK_FORMAT_R8G8B8A8_UNORM, 32, 32, 0};
    engine::BufferDesc bytes{65536, 0};
};

#define EXPECT_CONTAINS(haystack, needle) \
    EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "message: " << (haystack)

TEST_F(FrameGraphBake, CycleIsReportedWithPassesAndResources) {
    engine::FrameGraph g(ctx());
    const auto x = g.createBuffer("x", bytes);
    const auto y = g.createBuffer("y", bytes);
    g.addPass(pass("A", PassType::Compute, {{y, Access::StorageBufferRead}, {x, Access::StorageBufferWrite}}));
    g.addPass(pass("B", PassType::Compute, {{x, Access::StorageBufferRead}, {y, Access::StorageBufferWrite}}));
    const std::string msg = bakeError(g);
    EXPECT_CONTAINS(msg, "dependency cycle");
    EXPECT_CONTAINS(msg, "'A' -> 'B' -> 'A'");
    EXPECT_CONTAINS(msg, "because of 'x'");
    EXPECT_CONTAINS(msg, "because of 'y'");
}

TEST_F(FrameGraphBake, LongerCycleIsWalkedInExecutionOrder) {
    engine::FrameGraph g(ctx());
    const auto x = g.createBuffer("x", bytes);
    const auto y = g.createBuffer("y", bytes);
    const auto z = g.createBuffer("z", bytes);
    g.addPass(pass("head", PassType::Compute, {}));  // not on the cycle: never named
    g.addPass(pass("A", PassType::Compute, {{z, Access::StorageBufferRead}, {x, Access::StorageBufferWrite}}));
    g.addPass(pass("B", PassType::Compute, {{x, Access::StorageBufferRead}, {y, Access::StorageBufferWrite}}));
    g.addPass(pass("C", PassType::Compute, {{y, Access::StorageBufferRead}, {z, Access::StorageBufferWrite}}));
    const std::string msg = bakeError(g);
    EXPECT_CONTAINS(msg, "dependency cycle between passes 'A' -> 'B' -> 'C' -> 'A'");
    EXPECT_CONTAINS(msg, "'A' must run after 'C' because of 'z'");
    EXPECT_EQ(msg.find("head"), std::string::npos) << msg;
}

TEST_F(FrameGraphBake, ReadOfANeverWrittenTransientIsReported) {
    engine::FrameGraph g(ctx());
    const auto gbuffer = g.createImage("gbuffer", color);
    const auto out = g.createImage("lit", color);
    g.addPass(pass("lighting", PassType::Graphics, {{gbuffer, Access::SampledFragment}, {out, Access::ColorAttachmentWrite}}));
    const std::string msg = bakeError(g);
    EXPECT_CONTAINS(msg, "pass 'lighting' reads 'gbuffer' (as SampledFragment), but no pass writes it");
}

TEST_F(FrameGraphBake, ReadOfAnImportedResourceNeedsNoWriter) {
    engine::FrameGraph g(ctx());
    const auto weights = g.importBuffer("weights", reinterpret_cast<VkBuffer>(uintptr_t(0x10)), 256, {}, {});
    const auto out = g.createBuffer("out", bytes);
    g.addPass(pass("infer", PassType::Compute, {{weights, Access::StorageBufferRead}, {out, Access::StorageBufferWrite}}));
    EXPECT_EQ(bakeError(g), "");
}

TEST_F(FrameGraphBake, UnknownHookIsReported) {
    engine::FrameGraph g(ctx());
    g.addHook("post-lighting");
    g.insertAtHook("post-lightning", pass("upscale", PassType::Compute, {}));
    const std::string msg = bakeError(g);
    EXPECT_CONTAINS(msg, "pass 'upscale' was inserted at hook 'post-lightning', but no such hook was declared");
    EXPECT_CONTAINS(msg, "'post-lighting'");
}

TEST_F(FrameGraphBake, ConflictingUsesInOnePassAreReported) {
    engine::FrameGraph g(ctx());
    const auto img = g.createImage("color", color);
    g.addPass(pass("draw", PassType::Graphics, {{img, Access::ColorAttachmentWrite}}));
    g.addPass(pass("feedback", PassType::Graphics, {{img, Access::SampledFragment}, {img, Access::ColorAttachmentWrite}}));
    const std::string msg = bakeError(g);
    EXPECT_CONTAINS(msg, "pass 'feedback' uses 'color' twice (as SampledFragment and ColorAttachmentWrite)");
}

TEST_F(FrameGraphBake, ReadsNeedingDifferentLayoutsInOnePassAreReported) {
    engine::FrameGraph g(ctx());
    const auto img = g.createImage("features", color);
    g.addPass(pass("make", PassType::Compute, {{img, Access::StorageImageWrite}}));
    g.addPass(pass("use", PassType::Compute, {{img, Access::SampledCompute}, {img, Access::StorageImageRead}}));
    EXPECT_CONTAINS(bakeError(g), "pass 'use' uses 'features' twice (as SampledCompute and StorageImageRead), which need different image layouts");
}

TEST_F(FrameGraphBake, WrongKindsOfAccessAreReported) {
    {
        engine::FrameGraph g(ctx());
        const auto buf = g.createBuffer("buf", bytes);
        g.addPass(pass("p", PassType::Graphics, {{buf, Access::SampledFragment}}));
        EXPECT_CONTAINS(bakeError(g), "pass 'p' uses buffer 'buf' as SampledFragment, which is an image access");
    }
    {
        engine::FrameGraph g(ctx());
        const auto img = g.createImage("img", color);
        g.addPass(pass("c", PassType::Compute, {{img, Access::ColorAttachmentWrite}}));
        EXPECT_CONTAINS(bakeError(g), "pass 'c' (Compute) uses 'img' as ColorAttachmentWrite, but it is only valid in a Graphics pass");
    }
    {
        engine::FrameGraph g(ctx());
        g.addPass(pass("c", PassType::Compute, {{42, Access::StorageBufferRead}}));
        EXPECT_CONTAINS(bakeError(g), "pass 'c' uses resource handle 42, which this graph did not create");
    }
    {
        engine::FrameGraph g(ctx());
        g.addPass(pass("same", PassType::Compute, {}));
        g.addPass(pass("same", PassType::Compute, {}));
        EXPECT_CONTAINS(bakeError(g), "pass 'same' is declared twice");
    }
}

TEST_F(FrameGraphBake, UnsupportedFormatForTheDeclaredAccessIsReported) {
    engine::FrameGraph g(ctx());
    const auto depthAsColor = g.createImage("shadowmap", {VK_FORMAT_D32_SFLOAT, 32, 32, 0});
    g.addPass(pass("shadows", PassType::Graphics, {{depthAsColor, Access::ColorAttachmentWrite}}));
    EXPECT_CONTAINS(bakeError(g), "transient image 'shadowmap' (VkFormat 126, usage 0x10) is not supported by the device");
}

TEST_F(FrameGraphBake, ExecuteBeforeBakeIsAnError) {
    engine::FrameGraph g(ctx());
    g.addPass(pass("p", PassType::Compute, {}));
    EXPECT_THROW(g.execute(VK_NULL_HANDLE, 0), engine::Error);
}

TEST_F(FrameGraphBake, HookedPassesAreInsertedAtTheirHookInRegistrationOrder) {
    engine::FrameGraph g(ctx());
    g.insertAtHook("post", pass("H1", PassType::Compute, {}));  // before the hook is declared
    g.addPass(pass("A", PassType::Compute, {}));
    g.addHook("pre");
    g.addHook("post");
    g.addPass(pass("B", PassType::Compute, {}));
    g.insertAtHook("post", pass("H2", PassType::Compute, {}));
    g.insertAtHook("pre", pass("P1", PassType::Compute, {}));
    g.bake();
    EXPECT_EQ(g.passOrder(), (std::vector<std::string>{"A", "P1", "H1", "H2", "B"}));
    EXPECT_EQ(g.hooks(), (std::vector<std::string>{"pre", "post"}));
    EXPECT_EQ(g.stats().passCount, 5u);
}

TEST_F(FrameGraphBake, HookedPassesGetBarriersLikeAnyOther) {
    engine::FrameGraph g(ctx());
    const auto lit = g.createImage("lit", color);
    const auto up = g.createImage("upscaled", color);
    g.addPass(pass("light", PassType::Compute, {{lit, Access::StorageImageWrite}}));
    g.addHook("ml");
    g.addPass(pass("present", PassType::Graphics, {{up, Access::SampledFragment}, {lit, Access::ColorAttachmentWrite}}));
    g.insertAtHook("ml", pass("network", PassType::Compute, {{lit, Access::SampledCompute}, {up, Access::StorageImageWrite}}));
    g.bake();
    EXPECT_EQ(g.passOrder(), (std::vector<std::string>{"light", "network", "present"}));
    const auto in = fgtest::imageBarrier(g, "network", lit);
    ASSERT_TRUE(in);
    EXPECT_EQ(in->newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    const auto out = fgtest::imageBarrier(g, "present", up);
    ASSERT_TRUE(out);
    EXPECT_EQ(out->srcAccessMask, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    EXPECT_EQ(out->newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
}

TEST_F(FrameGraphBake, AConsumerDeclaredBeforeItsProducerMovesAfterIt) {
    engine::FrameGraph g(ctx());
    const auto buf = g.createBuffer("b", bytes);
    g.addPass(pass("first", PassType::Compute, {}));
    g.addPass(pass("consumer", PassType::Compute, {{buf, Access::StorageBufferRead}}));
    g.addPass(pass("producer", PassType::Compute, {{buf, Access::StorageBufferWrite}}));
    g.addPass(pass("last", PassType::Compute, {}));
    g.bake();
    EXPECT_EQ(g.passOrder(), (std::vector<std::string>{"first", "producer", "consumer", "last"}));
}

TEST_F(FrameGraphBake, TransientsWithDisjointLifetimesShareMemory) {
    engine::FrameGraph g(ctx());
    const auto a = g.createBuffer("a", bytes);      // passes 0..1
    const auto b = g.createBuffer("b", bytes);      // passes 2..3
    const auto c = g.createBuffer("c", bytes);      // passes 0..3: overlaps both
    const auto i1 = g.createImage("i1", color);     // passes 0..1
    const auto i2 = g.createImage("i2", color);     // passes 2..3
    g.addPass(pass("p0", PassType::Compute,
                   {{a, Access::StorageBufferWrite}, {c, Access::StorageBufferWrite}, {i1, Access::StorageImageWrite}}));
    g.addPass(pass("p1", PassType::Compute, {{a, Access::StorageBufferRead}, {i1, Access::SampledCompute}}));
    g.addPass(pass("p2", PassType::Compute, {{b, Access::StorageBufferWrite}, {i2, Access::StorageImageWrite}}));
    g.addPass(pass("p3", PassType::Compute,
                   {{b, Access::StorageBufferRead}, {c, Access::StorageBufferRead}, {i2, Access::SampledCompute}}));
    g.bake();

    EXPECT_TRUE(g.aliased(a, b));
    EXPECT_TRUE(g.aliased(i1, i2));
    EXPECT_FALSE(g.aliased(a, c));
    EXPECT_FALSE(g.aliased(b, c));
    EXPECT_FALSE(g.aliased(a, i1)) << "images and buffers live in separate heaps";
    EXPECT_NE(g.physicalBuffer(a), g.physicalBuffer(b));
    const std::string text = g.describe();
    EXPECT_CONTAINS(text, "[2] Compute 'p2' b:StorageBufferWrite i2:StorageImageWrite");
    EXPECT_CONTAINS(text, "barrier image 'i2' UNDEFINED -> GENERAL");
    EXPECT_CONTAINS(text, "transient 'a' heap");
    EXPECT_EQ(g.stats().transientResources, 5u);
    EXPECT_LT(g.stats().transientBytes, g.stats().transientBytesUnaliased);
    EXPECT_GE(g.stats().transientBytes, 2 * bytes.size) << "a/b and c each need their own bytes";

    // The later tenant starts from UNDEFINED and waits for the earlier tenant's reads.
    const auto handover = fgtest::imageBarrier(g, "p2", i2);
    ASSERT_TRUE(handover);
    EXPECT_EQ(handover->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
    EXPECT_TRUE(handover->srcStageMask & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
    const auto bufferHandover = fgtest::bufferBarrier(g, "p2", b);
    ASSERT_TRUE(bufferHandover);
    EXPECT_TRUE(bufferHandover->srcStageMask & VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
}

TEST_F(FrameGraphBake, OverlappingLifetimesNeverAlias) {
    engine::FrameGraph g(ctx());
    std::vector<engine::ResourceHandle> all;
    engine::PassDesc writer = pass("write", PassType::Compute, {});
    engine::PassDesc reader = pass("read", PassType::Compute, {});
    for (int i = 0; i < 4; ++i) {
        all.push_back(g.createBuffer("b" + std::to_string(i), {bytes.size * VkDeviceSize(i + 1), 0}));
        writer.uses.push_back({all.back(), Access::StorageBufferWrite});
        reader.uses.push_back({all.back(), Access::StorageBufferRead});
    }
    g.addPass(writer);
    g.addPass(reader);
    g.bake();
    for (size_t i = 0; i < all.size(); ++i)
        for (size_t j = 0; j < all.size(); ++j)
            if (i != j) {
                EXPECT_FALSE(g.aliased(all[i], all[j])) << i << " vs " << j;
            }
    EXPECT_EQ(g.stats().transientBytes, g.stats().transientBytesUnaliased);
}

TEST_F(FrameGraphBake, RebakeAfterChangesReplacesTheTransients) {
    engine::FrameGraph g(ctx());
    const auto a = g.createBuffer("a", bytes);
    g.addPass(pass("w", PassType::Compute, {{a, Access::StorageBufferWrite}}));
    g.bake();
    EXPECT_NE(g.physicalBuffer(a), VK_NULL_HANDLE);
    g.addPass(pass("r", PassType::Compute, {{a, Access::StorageBufferRead}}));
    g.bake();
    EXPECT_EQ(g.passOrder(), (std::vector<std::string>{"w", "r"}));
    EXPECT_NE(g.physicalBuffer(a), VK_NULL_HANDLE);
}

}  // namespace
