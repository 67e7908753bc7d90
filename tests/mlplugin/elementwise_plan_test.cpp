// CPU-only checks of the element-wise / normalization / reduction planners and their shape
// helpers: which kernel path a desc gets, how dims collapse, where constants live, and the
// fp16-without-device-support error (the test device has fp16, so only here).
#include "kernel.h"
#include "ops/strided_loop.h"

#include <gtest/gtest.h>

using namespace mlplugin;
using namespace mlplugin::detail;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

PlanContext withFp16(bool fp16) {
    PlanContext pc;
    pc.fp16Storage = fp16;
    return pc;
}

ElementWiseDesc add(const TensorDesc& a, const TensorDesc& b, const TensorDesc& out) {
    ElementWiseDesc d;
    d.op = ElementWiseOp::Add;
    d.a = a;
    d.b = b;
    d.output = out;
    return d;
}

constexpr uint32_t kPackedSpec = 15;  // PACKED in elementwise.comp
constexpr uint32_t kRankSpec = 16;    // RANK
constexpr uint32_t kPerChannelSpec = 17;  // PER_CHANNEL

TEST(ElementWisePlan, PerChannelBroadcastTakesTheVectorPath) {
    auto plan = [](const TensorDesc& a, const TensorDesc& b) {
        ElementWiseDesc d = add(a, b, a);
        d.op = ElementWiseOp::PRelu;
        auto p = planElementWise(withFp16(true), d);
        EXPECT_TRUE(p.ok()) << p.error().message;
        return std::move(*p);
    };
    TensorDesc x = TensorDesc::make(F16, {2, 56, 6, 10});
    Plan slope = plan(x, TensorDesc::make(F32, {1, 56, 1, 1}));
    EXPECT_EQ(slope.pipelines[0].specConstants.at(kPerChannelSpec), 1u);
    EXPECT_EQ(slope.pipelines[0].specConstants.at(kPackedSpec), 0u);
    const Launch& l = slope.execute[0];
    EXPECT_EQ(l.pushWords, 4u) << "count, inner, channels, b's stride";
    EXPECT_EQ(l.push[1], 60u);
    EXPECT_EQ(l.push[2], 56u);
    EXPECT_EQ(l.push[3], 1u);
    Plan strided = plan(x, TensorDesc::strided(F32, {1, 56, 1, 1}, {0, 3, 0, 0}));
    EXPECT_EQ(strided.execute[0].push[3], 3u);
    // Not for it: an inner size not a multiple of 4, b varying along W, a not packed.
    EXPECT_EQ(plan(TensorDesc::make(F16, {1, 56, 3, 5}), TensorDesc::make(F32, {1, 56, 1, 1})).pipelines[0].specConstants.at(kPerChannelSpec), 0u);
    EXPECT_EQ(plan(x, TensorDesc::make(F32, {1, 56, 1, 10})).pipelines[0].specConstants.at(kPerChannelSpec), 0u);
    TensorDesc nhwc = TensorDesc::strided(F16, {2, 56, 6, 10}, {3360, 1, 560, 56});
    EXPECT_EQ(plan(nhwc, TensorDesc::make(F32, {1, 56, 1, 1})).pipelines[0].specConstants.at(kPerChannelSpec), 0u);
}

TEST(ElementWisePlan, CollapseMergesContiguousDimsAndDropsOnes) {
    constexpr uint32_t last = kMaxTensorRank - 1;  // collapsed loops are right-aligned
    TensorDesc packed = TensorDesc::make(F32, {2, 3, 1, 5, 7});
    StridedLoop loop = collapseLoop(packed.sizes, 5, {packed.effectiveStrides(), packed.effectiveStrides()});
    EXPECT_EQ(loop.rank, 1u);
    EXPECT_EQ(loop.sizes[last], 210u);
    EXPECT_TRUE(loop.packed());

    // NHWC against NCHW: H and W merge in both, nothing merges across C.
    TensorDesc nhwc = TensorDesc::strided(F32, {2, 3, 5, 7}, {105, 1, 21, 3});
    TensorDesc nchw = TensorDesc::make(F32, {2, 3, 5, 7});
    loop = collapseLoop(nchw.sizes, 4, {nhwc.effectiveStrides(), nchw.effectiveStrides()});
    EXPECT_FALSE(loop.packed());
    EXPECT_EQ(loop.rank, 3u);
    EXPECT_EQ(loop.sizes[last], 35u);
    EXPECT_EQ(loop.strides[0][last], 3u);
    EXPECT_EQ(loop.strides[1][last], 1u);

    // Grouped: reduced dims never merge with kept ones.
    loop = collapseLoop(nchw.sizes, 4, {nchw.effectiveStrides()}, 0b1100);
    EXPECT_EQ(loop.rank, 2u);
    EXPECT_EQ(loop.groupMask, 1u << last);
    EXPECT_EQ(loop.sizes[last], 35u);
    EXPECT_EQ(loop.sizes[last - 1], 6u);

    // 8-D with alternating broadcast dims: nothing merges; the outer 3 dims are the ones
    // kernels take as specialization constants.
    TensorDesc a = TensorDesc::make(F32, {2, 1, 3, 1, 2, 1, 3, 1});
    TensorDesc out = TensorDesc::make(F32, {2, 2, 3, 2, 2, 3, 3, 2});
    auto as = broadcastStrides(a, out, "a");
    ASSERT_TRUE(as.ok());
    loop = collapseLoop(out.sizes, 8, {*as, out.effectiveStrides()});
    EXPECT_EQ(loop.rank, 8u);
    EXPECT_EQ(loop.sizes, out.sizes);
    EXPECT_EQ(loop.strides[0], (Dims{18, 0, 6, 0, 3, 0, 1, 0}));
}

TEST(ElementWisePlan, BroadcastStridesAreZeroWhereInputsRepeat) {
    auto s = broadcastStrides(TensorDesc::make(F32, {3, 1, 7}), TensorDesc::make(F32, {2, 3, 5, 7}), "b");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(*s, (Dims{0, 7, 0, 1, 0}));
}

TEST(ElementWisePlan, PackedTensorsTakeTheVectorPath) {
    TensorDesc t = TensorDesc::make(F32, {1, 3, 17, 33});
    auto plan = planElementWise(withFp16(true), add(t, t, t));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->pipelines.size(), 1u);
    EXPECT_EQ(plan->pipelines[0].specConstants[kPackedSpec], 1u);
    EXPECT_EQ(plan->execute[0].groups[0], divUp(divUp(t.elementCount(), 4), 256));
    EXPECT_EQ(plan->execute[0].pushWords, 1u);
    EXPECT_TRUE(plan->initialize.empty());
    EXPECT_EQ(plan->persistentBytes + plan->temporaryBytes, 0u);
}

TEST(ElementWisePlan, BroadcastAndStridesTakeTheGenericPath) {
    TensorDesc out = TensorDesc::make(F32, {2, 3, 5, 7});
    auto plan = planElementWise(withFp16(true), add(out, TensorDesc::make(F32, {3, 1, 7}), out));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->pipelines[0].specConstants[kPackedSpec], 0u);
    EXPECT_EQ(plan->pipelines[0].specConstants[kRankSpec], 4u);
    EXPECT_EQ(plan->execute[0].pushWords, 21u);
}

TEST(ElementWisePlan, Fp16WithoutDeviceSupportIsUnsupported) {
    TensorDesc h = TensorDesc::make(F16, {4});
    ElementWiseDesc d = add(h, h, TensorDesc::make(F32, {4}));
    d.name = "h";
    auto plan = planElementWise(withFp16(false), d);
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.error().code, ErrorCode::Unsupported);
    EXPECT_NE(plan.error().message.find("element_wise 'h' input a is fp16"), std::string::npos) << plan.error().message;

    SoftmaxDesc s{"s", TensorDesc::make(F32, {4}), TensorDesc::make(F16, {4}), 1};
    auto softmax = planSoftmax(withFp16(false), s);
    ASSERT_FALSE(softmax.ok());
    EXPECT_EQ(softmax.error().code, ErrorCode::Unsupported);
}

BatchNormalizationDesc batchNorm(uint32_t ownedMask) {
    BatchNormalizationDesc d;
    d.input = d.output = TensorDesc::make(F32, {1, 6, 4, 4});
    TensorDesc* constants[] = {&d.mean, &d.variance, &d.scale, &d.bias};
    for (int i = 0; i < 4; ++i) *constants[i] = TensorDesc::make(F32, {6}, ((ownedMask >> i) & 1u) ? TensorFlagOwnedByPlugin : 0u);
    return d;
}

TEST(NormalizationPlan, BatchNormFoldsAtInitializationOnlyWhenAllConstantsAreOwned) {
    auto owned = planBatchNormalization(withFp16(true), batchNorm(0xF));
    ASSERT_TRUE(owned.ok()) << owned.error().message;
    EXPECT_EQ(owned->initialize.size(), 1u);
    EXPECT_EQ(owned->execute.size(), 1u);
    EXPECT_EQ(owned->persistentBytes, 6u * 2 * 4);
    EXPECT_EQ(owned->temporaryBytes, 0u);

    auto bound = planBatchNormalization(withFp16(true), batchNorm(0));
    ASSERT_TRUE(bound.ok()) << bound.error().message;
    EXPECT_TRUE(bound->initialize.empty());
    ASSERT_EQ(bound->execute.size(), 2u);
    EXPECT_FALSE(bound->execute[0].barrierBefore);
    EXPECT_TRUE(bound->execute[1].barrierBefore);  // apply reads what fold wrote
    EXPECT_EQ(bound->temporaryBytes, 6u * 2 * 4);
    EXPECT_EQ(bound->persistentBytes, 0u);

    auto mixed = planBatchNormalization(withFp16(true), batchNorm(0b0101));
    ASSERT_TRUE(mixed.ok()) << mixed.error().message;
    ASSERT_EQ(mixed->initialize.size(), 2u);  // packs of mean and scale
    EXPECT_TRUE(mixed->initialize[1].barrierBefore);
    EXPECT_EQ(mixed->persistentBytes, 2u * 32);  // two 6-float copies, 16-byte aligned
    EXPECT_EQ(mixed->execute.size(), 2u);
}

TEST(NormalizationPlan, LongRowsAreSplitIntoChunkStatisticsAndMerge) {
    InstanceNormalizationDesc d;
    d.input = d.output = TensorDesc::make(F32, {1, 3, 100, 100});  // 10000 per row
    auto plan = planInstanceNormalization(withFp16(true), d);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->execute.size(), 2u);
    EXPECT_TRUE(plan->execute[1].barrierBefore);
    EXPECT_EQ(plan->execute[0].groups[0], 3u * 3);  // 3 rows x 3 chunks
    EXPECT_EQ(plan->temporaryBytes, 3u * 3 * 2 * 4);

    d.input = d.output = TensorDesc::make(F32, {1, 3, 90, 90});  // 8100 per row: one workgroup each
    plan = planInstanceNormalization(withFp16(true), d);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_EQ(plan->execute.size(), 1u);
    EXPECT_EQ(plan->temporaryBytes, 0u);
}

TEST(ReductionPlan, ShortRowsPerInvocationLongRowsPerWorkgroup) {
    ReduceDesc r;
    r.input = TensorDesc::make(F32, {64, 3});
    r.output = TensorDesc::make(F32, {64, 1});
    r.axesMask = 0b10;
    auto shortRows = planReduce(withFp16(true), r);
    ASSERT_TRUE(shortRows.ok()) << shortRows.error().message;
    EXPECT_EQ(shortRows->pipelines[0].specConstants[4], 0u);  // ROW_PER_WORKGROUP
    EXPECT_EQ(shortRows->execute[0].groups[0], 1u);           // 64 rows, 64 invocations

    r.input = TensorDesc::make(F32, {5, 1000});
    r.output = TensorDesc::make(F32, {5, 1});
    auto longRows = planReduce(withFp16(true), r);
    ASSERT_TRUE(longRows.ok()) << longRows.error().message;
    EXPECT_EQ(longRows->pipelines[0].specConstants[4], 1u);
    EXPECT_EQ(longRows->pipelines[0].specConstants[0], 256u);
    EXPECT_EQ(longRows->execute[0].groups[0], 5u);

    r.input = TensorDesc::make(F32, {2, 10000});  // over 8192: partials of 3 chunks, then a merge
    r.output = TensorDesc::make(F32, {2, 1});
    auto split = planReduce(withFp16(true), r);
    ASSERT_TRUE(split.ok()) << split.error().message;
    ASSERT_EQ(split->execute.size(), 2u);
    EXPECT_EQ(split->execute[0].groups[0], 2u * 3);
    EXPECT_EQ(split->execute[1].groups[0], 2u);
    EXPECT_TRUE(split->execute[1].barrierBefore);
    EXPECT_EQ(split->temporaryBytes, 2u * 3 * 2 * 4);
}

}  // namespace
