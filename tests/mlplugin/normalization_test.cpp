// Normalization operators on the GPU against the CPU reference: batch normalization (constants
// owned by the plugin, not owned, and mixed; per-channel constants in several layouts),
// instance normalization and mean-variance normalization over many axis sets, both row modes
// (short rows walked per invocation, long rows per workgroup), fp16, and validation errors.
#include "op_test.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlplugin;
using optest::compileError;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;
constexpr uint32_t Owned = TensorFlagOwnedByPlugin;

class Normalization : public testsupport::VulkanTest {};


BatchNormalizationDesc batchNorm(const TensorDesc& x, const TensorDesc& constant, uint32_t ownedMask = 0) {
    BatchNormalizationDesc d;
    d.name = "bn";
    d.input = x;
    d.output = x;
    TensorDesc* constants[] = {&d.mean, &d.variance, &d.scale, &d.bias};
    for (int i = 0; i < 4; ++i) {
        *constants[i] = constant;
        if ((ownedMask >> i) & 1u) constants[i]->flags |= Owned;
    }
    return d;
}

// Random inputs with a positive variance.
void checkBatchNorm(const BatchNormalizationDesc& d, uint32_t seed = 3) {
    auto inputs = optest::randomInputs(d, seed);
    inputs[2] = optest::randomTensor(d.variance, seed + 10, 0.05, 2.0);
    optest::checkOperator(d, inputs);
}

TEST_F(Normalization, BatchNormConstantsNotOwned) {
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {2, 5, 3, 7}), TensorDesc::make(F32, {5})));
}

TEST_F(Normalization, BatchNormConstantsOwnedFoldedAtInitialization) {
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {2, 5, 3, 7}), TensorDesc::make(F32, {5}), 0xF));
}

TEST_F(Normalization, BatchNormMixedOwnership) {
    // Mean and scale owned (packed into the persistent resource), variance and bias bound.
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {1, 17, 4, 5}), TensorDesc::make(F32, {17}), 0b0101));
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {1, 17, 4, 5}), TensorDesc::make(F32, {17}), 0b1110));
}

TEST_F(Normalization, BatchNormConstantLayoutsAndRanks) {
    // [1,C,1,1] constants; strided constants (every other element); 3-D and 5-D inputs.
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {2, 3, 5, 5}), TensorDesc::make(F32, {1, 3, 1, 1})));
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {2, 3, 5, 5}), TensorDesc::strided(F32, {1, 3, 1, 1}, {6, 2, 1, 1}), 0b0011));
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {2, 33, 9}), TensorDesc::make(F32, {33})));
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {1, 4, 2, 3, 5}), TensorDesc::make(F32, {4}), 0xF));
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {3, 1, 2, 2}), TensorDesc::make(F32, {1})));
    checkBatchNorm(batchNorm(TensorDesc::make(F32, {2, 3, 2, 1, 3, 2, 2, 3}), TensorDesc::make(F32, {3}), 0b0101));  // 8-D
}

TEST_F(Normalization, BatchNormNhwcAndActivation) {
    BatchNormalizationDesc d = batchNorm(TensorDesc::strided(F32, {2, 5, 3, 7}, {105, 1, 35, 5}), TensorDesc::make(F32, {5}));
    d.output = TensorDesc::make(F32, {2, 5, 3, 7});
    d.activation = relu();
    d.epsilon = 1e-3f;
    checkBatchNorm(d);
    d.activation = sigmoid();
    checkBatchNorm(d, 4);
}

TEST_F(Normalization, BatchNormFp16) {
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    checkBatchNorm(batchNorm(TensorDesc::make(F16, {2, 5, 3, 7}), TensorDesc::make(F16, {5}), 0xF));
    BatchNormalizationDesc mixed = batchNorm(TensorDesc::make(F16, {1, 3, 8, 8}), TensorDesc::make(F32, {3}), 0b0011);
    mixed.output = TensorDesc::make(F32, {1, 3, 8, 8});
    checkBatchNorm(mixed);
}

InstanceNormalizationDesc instanceNorm(const TensorDesc& x, bool scale, bool bias, uint32_t flags = 0) {
    InstanceNormalizationDesc d;
    d.name = "in";
    d.input = x;
    d.output = x;
    if (scale) d.scale = TensorDesc::make(x.dataType, {x.sizes[1]}, flags);
    if (bias) d.bias = TensorDesc::make(x.dataType, {x.sizes[1]}, flags);
    return d;
}

TEST_F(Normalization, InstanceNormShortAndLongRows) {
    optest::checkOperator(instanceNorm(TensorDesc::make(F32, {2, 3, 3, 3}), true, true));    // 9 per row: per invocation
    optest::checkOperator(instanceNorm(TensorDesc::make(F32, {1, 2, 37, 41}), true, true));  // 1517 per row: per workgroup
    optest::checkOperator(instanceNorm(TensorDesc::make(F32, {2, 5, 33}), false, false));
    optest::checkOperator(instanceNorm(TensorDesc::make(F32, {1, 3, 2, 3, 7}), true, false));
}

TEST_F(Normalization, InstanceNormOwnedScaleBiasAndActivation) {
    InstanceNormalizationDesc d = instanceNorm(TensorDesc::make(F32, {2, 17, 5, 9}), true, true, Owned);
    d.activation = leakyRelu(0.2f);
    optest::checkOperator(d);
    InstanceNormalizationDesc nhwc = instanceNorm(TensorDesc::strided(F32, {1, 3, 11, 13}, {429, 1, 39, 3}), true, true);
    nhwc.output = TensorDesc::make(F32, {1, 3, 11, 13});
    nhwc.scale->flags = Owned;
    optest::checkOperator(nhwc);
}

TEST_F(Normalization, InstanceNormFp16) {
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    optest::checkOperator(instanceNorm(TensorDesc::make(F16, {1, 5, 19, 23}), true, true, Owned));
    optest::checkOperator(instanceNorm(TensorDesc::make(F16, {2, 3, 4, 4}), true, true));
}

MeanVarianceNormalizationDesc mvn(const TensorDesc& x, uint32_t axesMask) {
    MeanVarianceNormalizationDesc d;
    d.name = "mvn";
    d.input = x;
    d.output = x;
    d.axesMask = axesMask;
    return d;
}

TEST_F(Normalization, MvnOverAxisSets) {
    const TensorDesc x = TensorDesc::make(F32, {2, 5, 6, 7});
    for (uint32_t mask : {0b1100u, 0b1110u, 0b1000u, 0b0010u, 0b0101u, 0b1111u, 0b1010u}) {
        SCOPED_TRACE("axesMask " + std::to_string(mask));
        optest::checkOperator(mvn(x, mask));
    }
}

TEST_F(Normalization, MvnWithoutVarianceAndWithBroadcastScaleBias) {
    MeanVarianceNormalizationDesc d = mvn(TensorDesc::make(F32, {2, 3, 4, 45}), 0b1110);  // layer norm over C,H,W
    d.scale = TensorDesc::make(F32, {45});                                             // per W
    d.bias = TensorDesc::make(F32, {1, 3, 1, 1});                                      // per C
    d.activation = gelu();
    optest::checkOperator(d);
    d.normalizeVariance = false;
    d.scale->flags = Owned;
    optest::checkOperator(d);
}

// Layer norm over the last dims of 6-D to 8-D inputs, with broadcast scale and bias; and over
// alternating dims, whose collapsed loop keeps 8 dims (the outer 3 as specialization constants).
TEST_F(Normalization, MvnRanksSixToEight) {
    MeanVarianceNormalizationDesc d = mvn(TensorDesc::make(F32, {2, 2, 3, 1, 2, 3, 4, 5}), 0b11000000);
    d.scale = TensorDesc::make(F32, {4, 5});
    d.bias = TensorDesc::make(F32, {5});
    optest::checkOperator(d);
    MeanVarianceNormalizationDesc alternating = mvn(TensorDesc::make(F32, {2, 3, 2, 3, 2, 3, 2, 3}), 0b10101010);
    alternating.scale = TensorDesc::make(F32, {2, 1, 2, 1, 2, 1, 2, 1});
    alternating.bias = TensorDesc::make(F32, {1, 3, 1, 3, 1, 3, 1, 3});
    optest::checkOperator(alternating);
    optest::checkOperator(mvn(TensorDesc::make(F32, {3, 2, 5, 2, 1, 7}), 0b100101));
    if (!optest::fp16Supported()) return;
    MeanVarianceNormalizationDesc h = mvn(TensorDesc::make(F16, {2, 3, 2, 3, 2, 3, 2, 3}), 0b01010101);
    h.scale = TensorDesc::make(F16, {2, 1, 2, 1, 2, 1, 2, 1});
    optest::checkOperator(h);
}

TEST_F(Normalization, MvnStridedAndFp16) {
    MeanVarianceNormalizationDesc d = mvn(TensorDesc::strided(F32, {1, 4, 3, 5}, {60, 1, 20, 4}), 0b0010);  // over C of NHWC
    d.output = TensorDesc::strided(F32, {1, 4, 3, 5}, {128, 32, 8, 1});                                   // padded rows
    optest::checkOperator(d);
    if (!optest::fp16Supported()) return;
    MeanVarianceNormalizationDesc h = mvn(TensorDesc::make(F16, {3, 50, 10}), 0b110);
    h.scale = TensorDesc::make(F16, {50, 1});
    h.output = TensorDesc::make(F32, {3, 50, 10});
    optest::checkOperator(h);
}

TEST_F(Normalization, LongRowsSplitIntoChunks) {
    // Rows above 8192 elements: chunk statistics, then a merge (Chan) per chunk.
    optest::checkOperator(instanceNorm(TensorDesc::make(F32, {1, 3, 97, 101}), true, true));  // 3 uneven chunks
    InstanceNormalizationDesc owned = instanceNorm(TensorDesc::make(F32, {2, 2, 128, 130}), true, true, Owned);
    owned.activation = relu();
    optest::checkOperator(owned);
    // A ramp: chunk means differ widely, so the merge's between-chunk variance term matters.
    InstanceNormalizationDesc ramp = instanceNorm(TensorDesc::make(F32, {1, 1, 100, 100}), false, false);
    HostTensor rampInput = optest::randomTensor(ramp.input, 21, -1, 1);
    for (size_t i = 0; i < rampInput.data.size(); ++i) rampInput.data[i] += double(i) * 1e-3;
    optest::checkOperator(ramp, {rampInput, HostTensor{}, HostTensor{}});
    // An offset mean: the merge must not lose precision to catastrophic cancellation.
    MeanVarianceNormalizationDesc offset = mvn(TensorDesc::make(F32, {2, 3, 50, 70}), 0b1110);
    optest::checkOperator(offset, optest::randomInputs(offset, 9, 99, 101));
    offset.normalizeVariance = false;
    offset.axesMask = 0b1101;  // non-adjacent dims, 7000 * 2 per row
    optest::checkOperator(offset);
    if (!optest::fp16Supported()) return;
    optest::checkOperator(instanceNorm(TensorDesc::make(F16, {1, 2, 100, 90}), true, false));
}

// --- validation ---------------------------------------------------------------------------

TEST_F(Normalization, BatchNormRejectsBadDescs) {
    BatchNormalizationDesc d = batchNorm(TensorDesc::make(F32, {2, 5, 3, 3}), TensorDesc::make(F32, {5}));
    BatchNormalizationDesc bad = d;
    bad.variance = TensorDesc::make(F32, {4});
    EXPECT_EQ(compileError(bad), "batch_normalization 'bn': variance [4] holds 4 values, expected one per channel (5)");
    bad = d;
    bad.scale = TensorDesc::make(F32, {1, 5, 1, 1});
    EXPECT_EQ(compileError(bad), "<compiled>");  // one value per channel, along dim 1: fine
    bad.input = bad.output = TensorDesc::make(F32, {2, 6, 3, 3});
    bad.mean = bad.variance = bad.bias = TensorDesc::make(F32, {6});
    bad.scale = TensorDesc::make(F32, {2, 3});
    EXPECT_EQ(compileError(bad), "batch_normalization 'bn': scale [2,3] must hold its 6 values along one dim");
    bad = d;
    bad.epsilon = -1;
    EXPECT_EQ(compileError(bad), "batch_normalization 'bn': epsilon -1 must be finite and >= 0");
    bad = d;
    bad.input = bad.output = TensorDesc::make(F32, {5});
    EXPECT_EQ(compileError(bad), "batch_normalization 'bn': input [5] has rank 1, batch normalization needs [N, C, ...]");
    bad = d;
    bad.output = TensorDesc::make(F32, {2, 5, 3, 4});
    EXPECT_EQ(compileError(bad), "batch_normalization 'bn': input sizes [2,5,3,3] differ from output sizes [2,5,3,4]");
}

TEST_F(Normalization, InstanceAndMvnRejectBadDescs) {
    InstanceNormalizationDesc in = instanceNorm(TensorDesc::make(F32, {4, 5}), false, false);
    EXPECT_EQ(compileError(in), "instance_normalization 'in': input [4,5] has rank 2, instance normalization needs [N, C, spatial...]");
    in = instanceNorm(TensorDesc::make(F32, {1, 5, 2, 2}), true, false);
    in.scale = TensorDesc::make(F32, {3});
    EXPECT_EQ(compileError(in), "instance_normalization 'in': scale [3] holds 3 values, expected one per channel (5)");

    MeanVarianceNormalizationDesc m = mvn(TensorDesc::make(F32, {2, 3, 4}), 0);
    EXPECT_EQ(compileError(m), "mean_variance_normalization 'mvn': axesMask is empty (name at least one dim)");
    m.axesMask = 0b1010;
    EXPECT_EQ(compileError(m), "mean_variance_normalization 'mvn': axesMask 10 names dims beyond the input's rank 3");
    m.axesMask = 0b110;
    m.bias = TensorDesc::make(F32, {3, 2});
    EXPECT_EQ(compileError(m), "mean_variance_normalization 'mvn': bias size 2 at dim 1 cannot broadcast to input size 4");
}

}  // namespace
