// Binding-table validation: every error the always-on checks and the Debug layer report,
// triggered on purpose, with the message checked for the operator, the slot and the numbers.
#include "compiled_operator.h"  // internal: fan-out rules as compiled graphs build them
#include "framework_fixture.h"

#include <gtest/gtest.h>

using namespace mlplugin;
using namespace fwtest;
using ::testing::HasSubstr;

namespace {

constexpr uint32_t kCount = 120;  // fp32[120]: 480 bytes

class BindingTest : public testsupport::VulkanTest {
protected:
    void SetUp() override {
        VulkanTest::SetUp();
        op = compile(addDesc(kCount));
        ASSERT_TRUE(op);
        sets = pool.allocate(2);
        auto t = optest::device().createBindingTable({op.get(), rangeOf(sets)});
        ASSERT_TRUE(t.ok()) << t.error().message;
        table = std::move(t).value();
    }
    Status record(const Dispatchable& d, const BindingTable& t) {
        auto recorder = optest::device().createCommandRecorder();
        EXPECT_TRUE(recorder.ok());
        Status s;
        ctx().submitAndWait([&](VkCommandBuffer cmd) { s = (*recorder)->record(cmd, d, t); });
        return s;
    }
    void bindAll() {
        ASSERT_TRUE(table->bindInputs(std::vector<BufferBinding>{whole(a), whole(b)}).ok());
        ASSERT_TRUE(table->bindOutputs(std::vector<BufferBinding>{whole(out)}).ok());
    }

    DescriptorPool pool{8};
    std::vector<VkDescriptorSet> sets;
    std::unique_ptr<CompiledOperator> op;
    std::unique_ptr<BindingTable> table;
    engine::Buffer a = hostBuffer(std::vector<float>(kCount, 1.0f));
    engine::Buffer b = hostBuffer(std::vector<float>(kCount, 2.0f));
    engine::Buffer out = hostBuffer(std::vector<float>(kCount, 0.0f));
};

TEST_F(BindingTest, WrongBindingCount) {
    Status s = table->bindInputs(std::vector<BufferBinding>{whole(a)});
    EXPECT_THAT(messageOf(s), HasSubstr("element_wise 'add1': bindInputs got 1 bindings, expected 2"));
    s = table->bindOutputs(std::vector<BufferBinding>{whole(out), whole(out)});
    EXPECT_THAT(messageOf(s), HasSubstr("bindOutputs got 2 bindings, expected 1"));
}

TEST_F(BindingTest, UndersizedBinding) {
    Status s = table->bindInputs(std::vector<BufferBinding>{whole(a), {b.handle(), 0, 400}});
    EXPECT_EQ(s.ok() ? ErrorCode::Unsupported : s.error().code, ErrorCode::InvalidArgument);
    EXPECT_THAT(messageOf(s), HasSubstr("input 1 'b': the range of 400 bytes is smaller than the 480 bytes fp32[120] needs"));
}

TEST_F(BindingTest, MisalignedOffset) {
    engine::Buffer big = hostBuffer({}, 1024);
    Status s = table->bindOutputs(std::vector<BufferBinding>{{big.handle(), 8, 480}});
    EXPECT_THAT(messageOf(s), HasSubstr("output 0 'output': offset 8 is not a multiple of"));
    // An aligned offset into the same buffer is fine.
    EXPECT_TRUE(table->bindOutputs(std::vector<BufferBinding>{{big.handle(), 256, 480}}).ok());
}

TEST_F(BindingTest, ZeroSizeBinding) {
    Status s = table->bindInputs(std::vector<BufferBinding>{{a.handle(), 0, 0}, whole(b)});
    EXPECT_THAT(messageOf(s), HasSubstr("input 0 'a': the binding's size is 0"));
}

TEST_F(BindingTest, MissingBindingAtRecord) {
    ASSERT_TRUE(table->bindInputs(std::vector<BufferBinding>{whole(a), whole(b)}).ok());
    EXPECT_THAT(messageOf(record(*op, *table)), HasSubstr("cannot record element_wise 'add1': output 0 'output' (fp32[120]) is not bound"));
    // Unbinding an input (empty binding) makes it missing again.
    ASSERT_TRUE(table->bindOutputs(std::vector<BufferBinding>{whole(out)}).ok());
    ASSERT_TRUE(table->bindInputs(std::vector<BufferBinding>{whole(a), {}}).ok());
    EXPECT_THAT(messageOf(record(*op, *table)), HasSubstr("input 1 'b' (fp32[120]) is not bound"));
}

TEST_F(BindingTest, TemporaryAndPersistentTheOperatorDoesNotHave) {
    engine::Buffer scratch = hostBuffer({}, 512);
    EXPECT_THAT(messageOf(table->bindTemporary(whole(scratch))),
                HasSubstr("temporary resource must not be bound: the operator needs no temporary resource"));
    EXPECT_THAT(messageOf(table->bindPersistent(whole(scratch))), HasSubstr("persistent resource must not be bound"));
}

TEST_F(BindingTest, TableUsedWithAnotherDispatchable) {
    bindAll();
    auto other = compile(addDesc(kCount, "add2"));
    ASSERT_TRUE(other);
    EXPECT_THAT(messageOf(record(*other, *table)),
                HasSubstr("cannot record element_wise 'add2' with a binding table created for element_wise 'add1'"));
    // Re-targeted, the table works for the other operator.
    ASSERT_TRUE(table->reset({other.get(), rangeOf(sets)}).ok());
    bindAll();
    EXPECT_TRUE(record(*other, *table).ok());
}

TEST_F(BindingTest, DescriptorRangeTooSmall) {
    auto t = optest::device().createBindingTable({op.get(), {sets.data(), 0}});
    ASSERT_FALSE(t.ok());
    EXPECT_THAT(t.error().message, HasSubstr("element_wise 'add1': the descriptor range has 0 sets, it needs 1"));
    // A failed reset leaves the table unusable rather than half-targeted.
    EXPECT_FALSE(table->reset({op.get(), {sets.data(), 0}}).ok());
    EXPECT_THAT(messageOf(table->bindInputs(std::vector<BufferBinding>{whole(a), whole(b)})), HasSubstr("its last reset failed"));
}

TEST_F(BindingTest, InitializerRangeTooSmall) {
    auto bn1 = compile(batchNormDesc(3, true, "bn1"));
    auto bn2 = compile(batchNormDesc(3, true, "bn2"));
    ASSERT_TRUE(bn1 && bn2);
    CompiledOperator* ops[] = {bn1.get(), bn2.get()};
    auto init = optest::device().createOperatorInitializer(ops);
    ASSERT_TRUE(init.ok());
    ASSERT_EQ((*init)->bindingProperties().descriptorSetCount, 2u);
    auto t = optest::device().createBindingTable({init->get(), {sets.data(), 1}});
    ASSERT_FALSE(t.ok());
    EXPECT_THAT(t.error().message, HasSubstr("operator initializer for 2 operators: the descriptor range has 1 sets, it needs 2"));
}

TEST_F(BindingTest, OwnedTensorBoundAtExecution) {
    auto bn = compile(batchNormDesc(3, true));
    ASSERT_TRUE(bn);
    ASSERT_TRUE(table->reset({bn.get(), rangeOf(sets)}).ok());
    engine::Buffer x = hostBuffer(std::vector<float>(12, 1.0f));
    engine::Buffer stats = hostBuffer(std::vector<float>(3, 1.0f));
    std::vector<BufferBinding> inputs{whole(x), whole(stats), {}, {}, {}};
    EXPECT_THAT(messageOf(table->bindInputs(inputs)),
                HasSubstr("batch_normalization 'bn1': input 1 'mean' must not be bound: it is owned by the plugin"));
}

TEST_F(BindingTest, UninitializedPersistentResource) {
    auto bn = compile(batchNormDesc(3, true, "conv1"));
    ASSERT_TRUE(bn);
    BindingProperties props = bn->bindingProperties();
    ASSERT_GT(props.persistentBytes, 0u);
    ASSERT_TRUE(table->reset({bn.get(), rangeOf(sets)}).ok());
    engine::Buffer x = hostBuffer(std::vector<float>(12, 1.0f));
    engine::Buffer y = hostBuffer(std::vector<float>(12, 0.0f));
    engine::Buffer persistent = hostBuffer({}, props.persistentBytes);
    ASSERT_TRUE(table->bindInputs(std::vector<BufferBinding>{whole(x), {}, {}, {}, {}}).ok());
    ASSERT_TRUE(table->bindOutputs(std::vector<BufferBinding>{whole(y)}).ok());
    ASSERT_TRUE(table->bindPersistent(whole(persistent)).ok());
    EXPECT_THAT(messageOf(record(*bn, *table)), HasSubstr("persistent resource of batch_normalization 'conv1' was never initialized"));
}

TEST_F(BindingTest, PersistentResourceUndersizedOrMisaligned) {
    auto bn = compile(batchNormDesc(3, true));
    ASSERT_TRUE(bn);
    uint64_t bytes = bn->bindingProperties().persistentBytes;
    ASSERT_TRUE(table->reset({bn.get(), rangeOf(sets)}).ok());
    engine::Buffer persistent = hostBuffer({}, 4096);
    EXPECT_THAT(messageOf(table->bindPersistent({persistent.handle(), 0, bytes - 4})),
                HasSubstr("persistent resource: the range of " + std::to_string(bytes - 4) + " bytes is smaller than the " +
                          std::to_string(bytes) + " bytes required"));
    EXPECT_THAT(messageOf(table->bindPersistent({persistent.handle(), 16, bytes})), HasSubstr("offset 16 is not a multiple of 256"));
}

TEST_F(BindingTest, NonOwnedTensorBoundToInitializer) {
    auto bn = compile(batchNormDesc(3, true));
    ASSERT_TRUE(bn);
    CompiledOperator* ops[] = {bn.get()};
    auto init = optest::device().createOperatorInitializer(ops);
    ASSERT_TRUE(init.ok());
    auto t = optest::device().createBindingTable({init->get(), rangeOf(sets)});
    ASSERT_TRUE(t.ok());
    engine::Buffer x = hostBuffer(std::vector<float>(12, 1.0f));
    engine::Buffer stats = hostBuffer(std::vector<float>(3, 1.0f));
    std::vector<BufferBinding> inputs{whole(x), whole(stats), whole(stats), whole(stats), whole(stats)};
    EXPECT_THAT(messageOf((*t)->bindInputs(inputs)),
                HasSubstr("input 0 (batch_normalization 'bn1' input 0 'input') must not be bound: it is not owned by the plugin"));
}

TEST_F(BindingTest, ChecksThatKeepTheGpuSafeRunWithoutDebug) {
    auto dev = createDevice(deviceDesc());
    ASSERT_TRUE(dev.ok());
    auto add = (*dev)->compileOperator(addDesc(kCount));
    ASSERT_TRUE(add.ok());
    // Sets of the plugin device's layout are compatible (identical layout definitions).
    auto t = (*dev)->createBindingTable({add->get(), rangeOf(sets)});
    ASSERT_TRUE(t.ok());
    EXPECT_THAT(messageOf((*t)->bindInputs(std::vector<BufferBinding>{whole(a), {b.handle(), 0, 400}})), HasSubstr("400 bytes"));
    // Contract checks are Debug-only: an unexpected temporary is ignored (left unbound) here.
    engine::Buffer scratch = hostBuffer({}, 512);
    EXPECT_TRUE((*t)->bindTemporary(whole(scratch)).ok());
}

TEST_F(BindingTest, OneBindingFansOutToSubRanges) {
    // Rewire the add the way a compiled graph does: its one input binding feeds slot 0 (first
    // 480 bytes) and slot 1 (480 bytes at offset 512) of set 0.
    auto& impl = dynamic_cast<detail::CompiledOperatorImpl&>(*op);
    impl.inputs[0].set = detail::kNoSet;
    impl.inputs[0].minBytes = 512 + 480;
    impl.inputs[0].alsoWrites = {{0, 0, 0, 480}, {0, 1, 512, 480}};
    impl.inputs[1].set = detail::kNoSet;
    impl.inputs[1].use = detail::SlotUse::Optional;
    ASSERT_TRUE(table->reset({op.get(), rangeOf(sets)}).ok());
    std::vector<float> packed(248, 0.0f);
    for (uint32_t i = 0; i < kCount; ++i) {
        packed[i] = float(i);
        packed[128 + i] = 1000.0f * float(i);
    }
    engine::Buffer both = hostBuffer(packed);
    EXPECT_THAT(messageOf(table->bindInputs(std::vector<BufferBinding>{{both.handle(), 0, 960}, {}})), HasSubstr("smaller than the 992 bytes"));
    ASSERT_TRUE(table->bindInputs(std::vector<BufferBinding>{whole(both), {}}).ok());
    ASSERT_TRUE(table->bindOutputs(std::vector<BufferBinding>{whole(out)}).ok());
    auto recorder = optest::device().createCommandRecorder();
    Status s;
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        s = (*recorder)->record(cmd, *op, *table);
        hostReadBarrier(cmd);
    });
    ASSERT_TRUE(s.ok()) << s.error().message;
    std::vector<float> got = read(out, kCount);
    for (uint32_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], 1001.0f * float(i)) << i;
}

}  // namespace
