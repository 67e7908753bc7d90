// OperatorInitializer: binding properties over mixed operators, reset, and initializing two
// operators in one recorded sequence (each in its own descriptor set) checked on the GPU.
#include "framework_fixture.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlplugin;
using namespace fwtest;
using ::testing::HasSubstr;

namespace {

class InitializerTest : public testsupport::VulkanTest {};

TEST_F(InitializerTest, PropertiesOverMixedOperators) {
    auto add = compile(addDesc(16));
    auto bn1 = compile(batchNormDesc(3, true, "bn1"));
    auto bn2 = compile(batchNormDesc(5, true, "bn2"));
    ASSERT_TRUE(add && bn1 && bn2);
    CompiledOperator* ops[] = {add.get(), bn1.get(), bn2.get()};
    auto init = optest::device().createOperatorInitializer(ops);
    ASSERT_TRUE(init.ok()) << init.error().message;
    BindingProperties p = (*init)->bindingProperties();
    EXPECT_EQ(p.descriptorSetCount, 2u);  // the add has nothing to initialize: no set
    EXPECT_EQ(p.descriptorCount, 2 * kDescriptorsPerSet);
    EXPECT_EQ(p.temporaryBytes, 0u);
    EXPECT_EQ(p.persistentBytes, 0u);
    EXPECT_EQ((*init)->inputCount(), 2u + 5u + 5u);
    EXPECT_EQ((*init)->outputCount(), 3u);
}

TEST_F(InitializerTest, EmptyThenReset) {
    auto init = optest::device().createOperatorInitializer({});
    ASSERT_TRUE(init.ok());
    EXPECT_EQ((*init)->bindingProperties().descriptorSetCount, 0u);
    EXPECT_EQ((*init)->inputCount(), 0u);
    auto bn = compile(batchNormDesc(3, true));
    ASSERT_TRUE(bn);
    CompiledOperator* ops[] = {bn.get()};
    ASSERT_TRUE((*init)->reset(ops).ok());
    EXPECT_EQ((*init)->bindingProperties().descriptorSetCount, 1u);
    EXPECT_EQ((*init)->inputCount(), 5u);
    EXPECT_THAT((*init)->name(), HasSubstr("bn1"));
}

TEST_F(InitializerTest, TablesMustBeResetAfterTheInitializer) {
    auto bn1 = compile(batchNormDesc(3, true, "bn1"));
    auto bn2 = compile(batchNormDesc(4, true, "bn2"));
    ASSERT_TRUE(bn1 && bn2);
    CompiledOperator* one[] = {bn1.get()};
    CompiledOperator* two[] = {bn1.get(), bn2.get()};
    auto init = optest::device().createOperatorInitializer(one);
    ASSERT_TRUE(init.ok());
    DescriptorPool pool(2);
    auto sets = pool.allocate(2);
    auto table = optest::device().createBindingTable({init->get(), rangeOf(sets)});
    ASSERT_TRUE(table.ok());
    ASSERT_TRUE((*init)->reset(two).ok());  // now 10 inputs: the table's bookkeeping is for 5
    std::vector<BufferBinding> inputs(10);
    EXPECT_THAT(messageOf((*table)->bindInputs(inputs)), HasSubstr("was reset after this binding table was created"));
    ASSERT_TRUE((*table)->reset({init->get(), rangeOf(sets)}).ok());
    EXPECT_TRUE((*table)->bindInputs(inputs).ok());
}

TEST_F(InitializerTest, RejectsNullAndDuplicateOperators) {
    auto bn = compile(batchNormDesc(3, true));
    ASSERT_TRUE(bn);
    CompiledOperator* twice[] = {bn.get(), bn.get()};
    auto r = optest::device().createOperatorInitializer(twice);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("batch_normalization 'bn1' is listed twice"));
    CompiledOperator* none[] = {nullptr};
    r = optest::device().createOperatorInitializer(none);
    ASSERT_FALSE(r.ok());
    EXPECT_THAT(r.error().message, HasSubstr("operator 0 is null"));
}

// Statistics per channel c: mean c, variance 1 + c, scale 2, bias -c (channel-specific, so a
// set or slot mix-up between the two operators shows).
struct Stats {
    std::vector<float> mean, variance, scale, bias;
};
Stats statsFor(uint32_t channels, float salt) {
    Stats s;
    for (uint32_t c = 0; c < channels; ++c) {
        s.mean.push_back(float(c) + salt);
        s.variance.push_back(1.0f + float(c));
        s.scale.push_back(2.0f + salt);
        s.bias.push_back(-float(c));
    }
    return s;
}

TEST_F(InitializerTest, InitializesTwoOperatorsThenExecutesThem) {
    const uint32_t channels[2] = {3, 5};
    std::unique_ptr<CompiledOperator> ops[2] = {compile(batchNormDesc(channels[0], true, "bn_a")), compile(batchNormDesc(channels[1], true, "bn_b"))};
    ASSERT_TRUE(ops[0] && ops[1]);
    CompiledOperator* list[] = {ops[0].get(), ops[1].get()};
    auto init = optest::device().createOperatorInitializer(list);
    ASSERT_TRUE(init.ok());

    DescriptorPool pool(4);
    auto initSets = pool.allocate((*init)->bindingProperties().descriptorSetCount);
    auto execSets = pool.allocate(2);
    auto initTable = optest::device().createBindingTable({init->get(), rangeOf(initSets)});
    ASSERT_TRUE(initTable.ok());

    std::vector<engine::Buffer> keep;  // statistics, inputs, outputs, persistent resources
    std::vector<BufferBinding> initInputs, persistentBindings;
    std::unique_ptr<BindingTable> tables[2];
    engine::Buffer* outputs[2] = {};
    Stats stats[2] = {statsFor(channels[0], 0.5f), statsFor(channels[1], 1.5f)};
    keep.reserve(32);
    for (int k = 0; k < 2; ++k) {
        initInputs.push_back({});  // input: bound at execution
        for (const auto* v : {&stats[k].mean, &stats[k].variance, &stats[k].scale, &stats[k].bias}) {
            keep.push_back(hostBuffer(*v));
            initInputs.push_back(whole(keep.back()));
        }
        keep.push_back(hostBuffer({}, ops[k]->bindingProperties().persistentBytes));
        persistentBindings.push_back(whole(keep.back()));

        auto t = optest::device().createBindingTable({ops[k].get(), {&execSets[k], 1}});
        ASSERT_TRUE(t.ok());
        tables[k] = std::move(t).value();
        std::vector<float> x(4 * channels[k]);
        for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 7) - 3.0f;
        keep.push_back(hostBuffer(x));
        ASSERT_TRUE(tables[k]->bindInputs(std::vector<BufferBinding>{whole(keep.back()), {}, {}, {}, {}}).ok());
        keep.push_back(hostBuffer(std::vector<float>(x.size(), NAN)));
        outputs[k] = &keep.back();
        ASSERT_TRUE(tables[k]->bindOutputs(std::vector<BufferBinding>{whole(keep.back())}).ok());
        ASSERT_TRUE(tables[k]->bindPersistent(persistentBindings.back()).ok());
    }
    ASSERT_TRUE((*initTable)->bindInputs(initInputs).ok());
    ASSERT_TRUE((*initTable)->bindOutputs(persistentBindings).ok());

    auto recorder = optest::device().createCommandRecorder();
    ASSERT_TRUE(recorder.ok());
    Status s[3];
    ctx().submitAndWait([&](VkCommandBuffer cmd) {
        s[0] = (*recorder)->record(cmd, **init, **initTable);
        recordComputeBarrier(optest::device(), cmd);
        s[1] = (*recorder)->record(cmd, *ops[0], *tables[0]);
        s[2] = (*recorder)->record(cmd, *ops[1], *tables[1]);
        hostReadBarrier(cmd);
    });
    for (const Status& st : s) ASSERT_TRUE(st.ok()) << st.error().message;

    for (int k = 0; k < 2; ++k) {
        std::vector<float> got = read(*outputs[k], 4 * channels[k]);
        for (uint32_t c = 0; c < channels[k]; ++c)
            for (uint32_t i = 0; i < 4; ++i) {
                double x = double((c * 4 + i) % 7) - 3.0;
                double want = (x - stats[k].mean[c]) / std::sqrt(stats[k].variance[c] + 1e-5) * stats[k].scale[c] + stats[k].bias[c];
                ASSERT_NEAR(got[c * 4 + i], want, 1e-4) << "operator " << k << " channel " << c;
            }
    }
}

}  // namespace
