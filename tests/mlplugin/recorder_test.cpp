// Recording: tables reused across frames, two frames in flight over separate descriptor
// ranges, dependent dispatches separated by recordComputeBarrier. Results checked on the host.
// Note: synchronization validation (layer 1.3.239) does not see hazards through the dynamically
// indexed descriptor array (a missing barrier between dependent dispatches goes unreported), so
// these tests check the barrier is recorded by construction, not by the layer.
#include "framework_fixture.h"

#include <gtest/gtest.h>

using namespace mlplugin;
using namespace fwtest;

namespace {

constexpr uint32_t kCount = 37;  // odd: no vec4 fast path hides a wrong size

std::vector<float> iota(float start, float step = 1.0f) {
    std::vector<float> v(kCount);
    for (uint32_t i = 0; i < kCount; ++i) v[i] = start + step * float(i);
    return v;
}

class RecorderTest : public testsupport::VulkanTest {
protected:
    void SetUp() override {
        VulkanTest::SetUp();
        auto r = optest::device().createCommandRecorder();
        ASSERT_TRUE(r.ok());
        recorder = std::move(r).value();
    }
    std::unique_ptr<BindingTable> bindAdd(const CompiledOperator& op, const VkDescriptorSet* set, const engine::Buffer& a,
                                          const engine::Buffer& b, const engine::Buffer& out) {
        auto t = optest::device().createBindingTable({&op, {set, 1}});
        EXPECT_TRUE(t.ok());
        EXPECT_TRUE((*t)->bindInputs(std::vector<BufferBinding>{whole(a), whole(b)}).ok());
        EXPECT_TRUE((*t)->bindOutputs(std::vector<BufferBinding>{whole(out)}).ok());
        return std::move(t).value();
    }

    DescriptorPool pool{4};
    std::unique_ptr<CommandRecorder> recorder;
};

TEST_F(RecorderTest, TableBoundOnceIsRecordedEveryFrame) {
    auto op = compile(addDesc(kCount));
    ASSERT_TRUE(op);
    auto sets = pool.allocate(1);
    engine::Buffer a = hostBuffer(iota(0)), b = hostBuffer(iota(100)), out = hostBuffer(std::vector<float>(kCount, -1));
    auto table = bindAdd(*op, sets.data(), a, b, out);
    for (int frame = 0; frame < 3; ++frame) {
        // New input contents each frame; the bindings (and descriptors) stay as they are.
        std::vector<float> av = iota(float(frame) * 10, 0.5f);
        std::memcpy(a.mapped(), av.data(), av.size() * 4);
        a.flush();
        Status s;
        ctx().submitAndWait([&](VkCommandBuffer cmd) {
            s = recorder->record(cmd, *op, *table);
            hostReadBarrier(cmd);
        });
        ASSERT_TRUE(s.ok()) << s.error().message;
        std::vector<float> got = read(out, kCount);
        for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], av[i] + 100.0f + float(i)) << "frame " << frame << " element " << i;
    }
}

TEST_F(RecorderTest, TwoFramesInFlightUseSeparateRanges) {
    auto op = compile(addDesc(kCount));
    ASSERT_TRUE(op);
    auto sets = pool.allocate(2);  // one descriptor range per frame in flight
    engine::Buffer a0 = hostBuffer(iota(1)), b0 = hostBuffer(iota(2)), out0 = hostBuffer(std::vector<float>(kCount, -1));
    engine::Buffer a1 = hostBuffer(iota(1000, 3)), b1 = hostBuffer(iota(-5)), out1 = hostBuffer(std::vector<float>(kCount, -1));
    auto frame0 = bindAdd(*op, &sets[0], a0, b0, out0);
    auto frame1 = bindAdd(*op, &sets[1], a1, b1, out1);
    Status s0, s1;
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        s0 = recorder->record(cmd, *op, *frame0);
        s1 = recorder->record(cmd, *op, *frame1);
        hostReadBarrier(cmd);
    });
    ASSERT_TRUE(s0.ok() && s1.ok());
    std::vector<float> got0 = read(out0, kCount), got1 = read(out1, kCount);
    for (uint32_t i = 0; i < kCount; ++i) {
        ASSERT_EQ(got0[i], 3.0f + 2.0f * float(i)) << i;
        ASSERT_EQ(got1[i], 995.0f + 4.0f * float(i)) << i;
    }
}

TEST_F(RecorderTest, DependentDispatchesWithComputeBarrier) {
    // t = a + b; out = t + b: the second dispatch reads what the first wrote. Recorded, and as
    // two CommandBundles ordered by the same application barrier.
    for (bool bundles : {false, true}) {
        SCOPED_TRACE(bundles ? "bundles" : "recorded");
        auto op = compile(addDesc(kCount));
        ASSERT_TRUE(op);
        auto sets = pool.allocate(2);
        engine::Buffer a = hostBuffer(iota(0)), b = hostBuffer(iota(1)), t = hostBuffer(std::vector<float>(kCount, -1)),
                       out = hostBuffer(std::vector<float>(kCount, -1));
        auto first = bindAdd(*op, &sets[0], a, b, t);
        auto second = bindAdd(*op, &sets[1], t, b, out);
        std::unique_ptr<CommandBundle> bundle0, bundle1;
        if (bundles) {
            bundle0 = std::move(recorder->recordBundle(*op, *first)).value();
            bundle1 = std::move(recorder->recordBundle(*op, *second)).value();
        }
        Status s0, s1;
        ctx().submitAndWait([&](VkCommandBuffer cmd) {
            s0 = bundles ? bundle0->execute(cmd) : recorder->record(cmd, *op, *first);
            recordComputeBarrier(optest::device(), cmd);
            s1 = bundles ? bundle1->execute(cmd) : recorder->record(cmd, *op, *second);
            hostReadBarrier(cmd);
        });
        ASSERT_TRUE(s0.ok() && s1.ok());
        std::vector<float> got = read(out, kCount);
        for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], 2.0f + 3.0f * float(i)) << i;
    }
}

TEST_F(RecorderTest, FailedRecordRecordsNothing) {
    auto op = compile(addDesc(kCount));
    ASSERT_TRUE(op);
    auto sets = pool.allocate(1);
    auto table = optest::device().createBindingTable({op.get(), {sets.data(), 1}});
    ASSERT_TRUE(table.ok());
    Status s;
    // Nothing bound: the recorder must refuse before touching the command buffer, so the
    // validation layer sees no dispatch with unbound resources.
    ctx().submitAndWait([&](VkCommandBuffer cmd) { s = recorder->record(cmd, *op, **table); });
    EXPECT_FALSE(s.ok());
    EXPECT_FALSE(recorder->record(VK_NULL_HANDLE, *op, **table).ok());
}

// CommandBundle: recorded once, executed every frame; the inputs' contents change, the bindings
// do not.
TEST_F(RecorderTest, BundleRecordedOnceIsExecutedEveryFrame) {
    auto op = compile(addDesc(kCount));
    ASSERT_TRUE(op);
    auto sets = pool.allocate(1);
    engine::Buffer a = hostBuffer(iota(0)), b = hostBuffer(iota(100)), out = hostBuffer(std::vector<float>(kCount, -1));
    auto table = bindAdd(*op, sets.data(), a, b, out);
    auto bundle = recorder->recordBundle(*op, *table);
    ASSERT_TRUE(bundle.ok()) << bundle.error().message;
    EXPECT_TRUE((*bundle)->current());
    for (int frame = 0; frame < 3; ++frame) {
        std::vector<float> av = iota(float(frame) * 7, 0.25f);
        std::memcpy(a.mapped(), av.data(), av.size() * 4);
        a.flush();
        Status s;
        ctx().submitAndWait([&](VkCommandBuffer cmd) {
            s = (*bundle)->execute(cmd);
            hostReadBarrier(cmd);
        });
        ASSERT_TRUE(s.ok()) << s.error().message;
        std::vector<float> got = read(out, kCount);
        for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], av[i] + 100.0f + float(i)) << "frame " << frame << " element " << i;
    }
}

// Binding the table again makes the bundle stale: execute() refuses (naming why) and records
// nothing; a new bundle picks up the new bindings.
TEST_F(RecorderTest, BundleGoesStaleWhenItsTableIsBoundAgain) {
    auto op = compile(addDesc(kCount));
    ASSERT_TRUE(op);
    auto sets = pool.allocate(1);
    engine::Buffer a = hostBuffer(iota(0)), b = hostBuffer(iota(100)), out = hostBuffer(std::vector<float>(kCount, -1));
    engine::Buffer other = hostBuffer(iota(-50));
    auto table = bindAdd(*op, sets.data(), a, b, out);
    auto bundle = recorder->recordBundle(*op, *table);
    ASSERT_TRUE(bundle.ok());
    ASSERT_TRUE(table->bindInputs(std::vector<BufferBinding>{whole(other), whole(b)}).ok());
    EXPECT_FALSE((*bundle)->current());
    Status stale;
    ctx().submitAndWait([&](VkCommandBuffer cmd) { stale = (*bundle)->execute(cmd); });
    ASSERT_FALSE(stale.ok());
    EXPECT_EQ(stale.error().code, ErrorCode::InvalidArgument);
    EXPECT_THAT(stale.error().message, testing::HasSubstr("stale"));
    EXPECT_THAT(stale.error().message, testing::HasSubstr("add1"));
    EXPECT_EQ(read(out, 1)[0], -1.0f) << "a stale bundle must record nothing";

    auto fresh = recorder->recordBundle(*op, *table);
    ASSERT_TRUE(fresh.ok());
    Status s;
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        s = (*fresh)->execute(cmd);
        hostReadBarrier(cmd);
    });
    ASSERT_TRUE(s.ok()) << s.error().message;
    std::vector<float> got = read(out, kCount);
    for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], -50.0f + 100.0f + 2.0f * float(i)) << i;
}

TEST_F(RecorderTest, BundleRefusesWhatRecordRefuses) {
    auto op = compile(addDesc(kCount));
    ASSERT_TRUE(op);
    auto other = compile(addDesc(kCount, "add2"));
    ASSERT_TRUE(other);
    auto sets = pool.allocate(1);
    auto table = optest::device().createBindingTable({op.get(), {sets.data(), 1}});
    ASSERT_TRUE(table.ok());
    auto unbound = recorder->recordBundle(*op, **table);
    ASSERT_FALSE(unbound.ok());
    EXPECT_THAT(unbound.error().message, testing::HasSubstr("is not bound"));
    engine::Buffer a = hostBuffer(iota(0)), b = hostBuffer(iota(1)), out = hostBuffer(std::vector<float>(kCount, -1));
    auto bound = bindAdd(*op, sets.data(), a, b, out);
    auto wrongTable = recorder->recordBundle(*other, *bound);
    ASSERT_FALSE(wrongTable.ok());
    EXPECT_THAT(wrongTable.error().message, testing::HasSubstr("add2"));
    auto bundle = recorder->recordBundle(*op, *bound);
    ASSERT_TRUE(bundle.ok());
    EXPECT_FALSE((*bundle)->execute(VK_NULL_HANDLE).ok());
}

}  // namespace
