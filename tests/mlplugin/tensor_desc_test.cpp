// TensorDesc and the CPU-side helpers every operator relies on; no GPU needed.
#include "mlplugin/cpu_reference.h"
#include "mlplugin/half.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/tensor_desc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mlplugin;

namespace {
std::string messageOf(const Status& s) { return s.ok() ? std::string("(ok)") : s.error().message; }
}  // namespace

TEST(TensorDesc, PackedStridesAndBytes) {
    auto t = TensorDesc::make(DataType::Float32, {2, 3, 5, 7});
    EXPECT_EQ(t.elementCount(), 210u);
    auto s = t.effectiveStrides();
    EXPECT_EQ(s[0], 105u);
    EXPECT_EQ(s[1], 35u);
    EXPECT_EQ(s[2], 7u);
    EXPECT_EQ(s[3], 1u);
    EXPECT_EQ(t.requiredBytes(), 840u);
    EXPECT_TRUE(t.isPacked());
    EXPECT_EQ(t.toString(), "fp32[2,3,5,7]");
}

TEST(TensorDesc, Fp16BytesRoundUpToFour) {
    auto t = TensorDesc::make(DataType::Float16, {1, 3, 1, 3});  // 9 halves = 18 bytes
    EXPECT_EQ(t.requiredBytes(), 20u);
}

TEST(TensorDesc, PaddedRowsAndBroadcastStrides) {
    // 5x7 image stored with a row pitch of 8 elements.
    auto padded = TensorDesc::strided(DataType::Float32, {1, 1, 5, 7}, {40, 40, 8, 1});
    EXPECT_FALSE(padded.isPacked());
    EXPECT_EQ(padded.requiredBytes(), (4u * 8 + 6 + 1) * 4);
    // A per-channel vector broadcast over H and W with zero strides.
    auto bcast = TensorDesc::strided(DataType::Float32, {1, 3, 4, 4}, {3, 1, 0, 0});
    EXPECT_EQ(bcast.requiredBytes(), 12u);
    EXPECT_TRUE(validateTensor(bcast, "bias", false).ok());
}

TEST(TensorDesc, NhwcByStrides) {
    auto nhwc = TensorDesc::strided(DataType::Float16, {1, 3, 4, 5}, {60, 1, 15, 3});
    EXPECT_TRUE(validateTensor(nhwc, "x", true).ok()) << messageOf(validateTensor(nhwc, "x", true));
    EXPECT_EQ(nhwc.requiredBytes(), 120u);
}

TEST(TensorDesc, RejectsZeroSizeNamingTheDim) {
    auto t = TensorDesc::make(DataType::Float32, {1, 0, 4});
    auto s = validateTensor(t, "conv 'c1' input", false);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(s.error().message, "conv 'c1' input: size of dim 1 is 0");
}

TEST(TensorDesc, RejectsBadRank) {
    EXPECT_NE(messageOf(validateTensor(TensorDesc{}, "x", false)).find("rank 0 is out of range"), std::string::npos);
    // DirectML's limit: 8 dims.
    auto eight = TensorDesc::make(DataType::Float32, {1, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_TRUE(validateTensor(eight, "x", false).ok());
    EXPECT_EQ(eight.elementCount(), 40320u);
    EXPECT_EQ(eight.toString(), "fp32[1,2,3,4,5,6,7,8]");
    auto nine = TensorDesc::make(DataType::Float32, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    EXPECT_EQ(messageOf(validateTensor(nine, "x", false)), "x: rank 9 is out of range (1..8)");
    auto nineStrided = TensorDesc::strided(DataType::Float32, {1, 1, 1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1});
    EXPECT_EQ(messageOf(validateTensor(nineStrided, "x", false)), "x: rank 9 is out of range (1..8)");
    auto mismatch = TensorDesc::strided(DataType::Float32, {2, 2}, {2});
    EXPECT_NE(messageOf(validateTensor(mismatch, "x", false)).find("different lengths"), std::string::npos);
}

TEST(TensorDesc, RejectsMoreThan2To32Elements) {
    auto huge = TensorDesc::make(DataType::Float32, {65536, 65536, 2});
    auto s = validateTensor(huge, "x", false);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("2^32 or more elements"), std::string::npos) << s.error().message;
    auto farStride = TensorDesc::strided(DataType::Float32, {3, 2}, {3000000000u, 1});
    EXPECT_NE(messageOf(validateTensor(farStride, "x", false)).find("beyond the 2^32 - 1 limit"), std::string::npos);
}

TEST(TensorDesc, OutputStridesMustNotAlias) {
    auto broadcastOut = TensorDesc::strided(DataType::Float32, {1, 3, 4, 4}, {3, 1, 0, 0});
    auto s = validateTensor(broadcastOut, "add 'a' output", true);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("overlap"), std::string::npos) << s.error().message;
    auto overlapping = TensorDesc::strided(DataType::Float32, {4, 4}, {2, 1});
    EXPECT_FALSE(validateTensor(overlapping, "y", true).ok());
    EXPECT_TRUE(validateTensor(overlapping, "x", false).ok()) << "inputs may overlap (reads only)";
}

TEST(TensorDesc, Equality) {
    auto a = TensorDesc::make(DataType::Float32, {2, 3});
    auto b = TensorDesc::strided(DataType::Float32, {2, 3}, {3, 1});
    EXPECT_TRUE(a == b);
    b.dataType = DataType::Float16;
    EXPECT_FALSE(a == b);
}

TEST(RoundToHalf, MatchesIeeeHalf) {
    EXPECT_EQ(roundToHalf(1.0), 1.0);
    EXPECT_EQ(roundToHalf(65504.0), 65504.0);
    EXPECT_TRUE(std::isinf(roundToHalf(70000.0)));
    EXPECT_EQ(roundToHalf(1.0 + 1.0 / 2048), 1.0);                  // tie -> even
    EXPECT_EQ(roundToHalf(1.0 + 3.0 / 2048), 1.0 + 2.0 / 1024);     // tie -> even (up)
    EXPECT_EQ(roundToHalf(0.1), 0.0999755859375);
    EXPECT_EQ(roundToHalf(-0.1), -0.0999755859375);
    EXPECT_EQ(roundToHalf(std::ldexp(1.0, -24)), std::ldexp(1.0, -24));  // smallest subnormal
    EXPECT_EQ(roundToHalf(std::ldexp(1.0, -26)), 0.0);
}

TEST(OperatorDesc, InputsOutputsInBindingOrder) {
    ConvolutionDesc conv;
    conv.name = "enc1";
    OperatorDesc d = conv;
    EXPECT_STREQ(operatorKind(d), "convolution");
    EXPECT_EQ(operatorLabel(d), "convolution 'enc1'");
    auto in = operatorInputs(d);
    ASSERT_EQ(in.size(), 3u);
    EXPECT_NE(in[0], nullptr);
    EXPECT_NE(in[1], nullptr);
    EXPECT_EQ(in[2], nullptr) << "absent bias still takes a slot";
    SplitDesc split;
    split.outputs.resize(3);
    EXPECT_EQ(operatorOutputs(OperatorDesc(split)).size(), 3u);
    EXPECT_EQ(operatorLabel(OperatorDesc(SoftmaxDesc{})), "softmax");
}

TEST(CpuReference, RejectsWrongInputCount) {
    ElementWiseDesc add;
    add.name = "add1";
    add.op = ElementWiseOp::Add;
    add.a = add.output = TensorDesc::make(DataType::Float32, {4});
    add.b = add.a;
    auto r = referenceEvaluate(add, {});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("given 0 inputs, expected 2"), std::string::npos) << r.error().message;
}

// An fp16 scalar (a constant ONNX exports) addresses 1 value although its buffer rounds to 4 bytes.
TEST(CpuReference, Fp16ScalarNeedsOneValue) {
    ElementWiseDesc mul;
    mul.op = ElementWiseOp::Multiply;
    mul.a = mul.output = TensorDesc::make(DataType::Float16, {1, 3});
    mul.b = TensorDesc::strided(DataType::Float16, {1, 3}, {0, 0});
    EXPECT_EQ(mul.b->addressedElements(), 1u);
    EXPECT_EQ(mul.b->requiredBytes(), 4u);
    auto r = referenceEvaluate(mul, {{mul.a, {1.0, 2.0, -3.0}}, {*mul.b, {0.5}}});
    ASSERT_TRUE(r.ok()) << r.error().message;
    const std::vector<double>& out = (*r)[0].data;  // sized to the output's 4-byte-rounded span
    ASSERT_GE(out.size(), 3u);
    EXPECT_EQ(std::vector<double>(out.begin(), out.begin() + 3), (std::vector<double>{0.5, 1.0, -1.5}));
    auto tooFew = referenceEvaluate(mul, {{mul.a, {1.0, 2.0}}, {*mul.b, {0.5}}});
    ASSERT_FALSE(tooFew.ok());
    EXPECT_NE(tooFew.error().message.find("holds 2 values, its desc addresses 3"), std::string::npos) << tooFew.error().message;
}

TEST(Half, ConversionsRoundTripAndRoundToNearestEven) {
    for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 0.1f, 6.1035156e-05f, 5.9604645e-08f, 1000.3f}) {
        float back = halfToFloat(floatToHalf(v));
        EXPECT_EQ(double(back), roundToHalf(v)) << v;
    }
    EXPECT_EQ(floatToHalf(1.0f + 1.0f / 2048), floatToHalf(1.0f));  // tie to even
    EXPECT_TRUE(std::isinf(halfToFloat(floatToHalf(1e6f))));
    EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(NAN))));
    EXPECT_EQ(floatToHalf(-0.0f), 0x8000u);
}

TEST(Errors, VulkanResultsMapToDistinctCodes) {
    Error lost = vulkanError(VK_ERROR_DEVICE_LOST, "recording 'conv1'");
    EXPECT_EQ(lost.code, ErrorCode::DeviceLost);
    EXPECT_EQ(lost.vkResult, VK_ERROR_DEVICE_LOST);
    EXPECT_NE(lost.message.find("recording 'conv1'"), std::string::npos);
    EXPECT_NE(lost.message.find("VK_ERROR_DEVICE_LOST"), std::string::npos);
    EXPECT_EQ(vulkanError(VK_ERROR_OUT_OF_DEVICE_MEMORY, "x").code, ErrorCode::OutOfMemory);
    EXPECT_EQ(vulkanError(VK_ERROR_OUT_OF_HOST_MEMORY, "x").code, ErrorCode::OutOfMemory);
    EXPECT_EQ(vulkanError(VK_ERROR_INITIALIZATION_FAILED, "x").code, ErrorCode::VulkanError);
    EXPECT_STREQ(toString(ErrorCode::DeviceLost), "device lost");
}
