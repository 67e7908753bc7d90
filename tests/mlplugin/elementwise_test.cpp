// Element-wise operators on the GPU against the CPU reference: every op and activation,
// broadcasting, strides (padding, NHWC), precision conversions, the packed vec4 path with and
// without a tail, and every validation error.
#include "op_test.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlplugin;
using optest::compileError;
using optest::nhwc;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class ElementWise : public testsupport::VulkanTest {};

ElementWiseDesc unary(ElementWiseOp op, const TensorDesc& a, const TensorDesc& out) {
    ElementWiseDesc d;
    d.name = std::string(toString(op));
    d.op = op;
    d.a = a;
    d.output = out;
    return d;
}

ElementWiseDesc binary(ElementWiseOp op, const TensorDesc& a, const TensorDesc& b, const TensorDesc& out) {
    ElementWiseDesc d = unary(op, a, out);
    d.b = b;
    return d;
}

// Inputs drawn from [lo, hi): a and b separately so each op gets a valid domain.
void checkWithRanges(const ElementWiseDesc& d, double aLo, double aHi, double bLo = -1, double bHi = 1, uint32_t seed = 7) {
    std::vector<HostTensor> inputs{optest::randomTensor(d.a, seed, aLo, aHi), HostTensor{}};
    if (d.b) inputs[1] = optest::randomTensor(*d.b, seed + 1, bLo, bHi);
    optest::checkOperator(d, inputs);
}


ErrorCode compileErrorCode(const OperatorDesc& desc) {
    auto compiled = optest::device().compileOperator(desc);
    EXPECT_FALSE(compiled.ok());
    return compiled.ok() ? ErrorCode::InvalidArgument : compiled.error().code;
}

const TensorDesc kOdd = TensorDesc::make(F32, {2, 3, 5, 7});  // 210 elements: generic rank 1 -> packed with a tail

TEST_F(ElementWise, UnaryOpsFp32) {
    struct Case { ElementWiseOp op; double lo, hi; };
    for (Case c : {Case{ElementWiseOp::Identity, -2, 2}, Case{ElementWiseOp::Sqrt, 0.01, 4}, Case{ElementWiseOp::Reciprocal, 0.25, 4},
                   Case{ElementWiseOp::Exp, -3, 3}, Case{ElementWiseOp::Log, 0.01, 5}, Case{ElementWiseOp::Abs, -2, 2},
                   Case{ElementWiseOp::Negate, -2, 2}}) {
        SCOPED_TRACE(toString(c.op));
        checkWithRanges(unary(c.op, kOdd, kOdd), c.lo, c.hi);
    }
}

TEST_F(ElementWise, ClipFp32) {
    ElementWiseDesc d = unary(ElementWiseOp::Clip, kOdd, kOdd);
    d.clipMin = -0.25f;
    d.clipMax = 0.5f;
    optest::checkOperator(d);
}

TEST_F(ElementWise, BinaryOpsBroadcastFp32) {
    const TensorDesc out = TensorDesc::make(F32, {2, 3, 5, 7});
    const TensorDesc b = TensorDesc::make(F32, {3, 1, 7});  // right-aligned: broadcasts over N and H
    struct Case { ElementWiseOp op; double aLo, aHi, bLo, bHi; };
    for (Case c : {Case{ElementWiseOp::Add, -1, 1, -1, 1}, Case{ElementWiseOp::Subtract, -1, 1, -1, 1},
                   Case{ElementWiseOp::Multiply, -1, 1, -1, 1}, Case{ElementWiseOp::Divide, -1, 1, 0.5, 2},
                   Case{ElementWiseOp::Min, -1, 1, -1, 1}, Case{ElementWiseOp::Max, -1, 1, -1, 1},
                   Case{ElementWiseOp::Pow, 0.1, 3, -2, 2}, Case{ElementWiseOp::PRelu, -1, 1, 0, 0.5}}) {
        SCOPED_TRACE(toString(c.op));
        checkWithRanges(binary(c.op, out, b, out), c.aLo, c.aHi, c.bLo, c.bHi);
    }
}

TEST_F(ElementWise, BroadcastBothInputsAndScalar) {
    // a [5,1] x b [1,7] -> [5,7]; and a scalar [1] against a 5-D output.
    checkWithRanges(binary(ElementWiseOp::Multiply, TensorDesc::make(F32, {5, 1}), TensorDesc::make(F32, {1, 7}),
                           TensorDesc::make(F32, {5, 7})), -1, 1);
    checkWithRanges(binary(ElementWiseOp::Subtract, TensorDesc::make(F32, {2, 3, 2, 3, 5}), TensorDesc::make(F32, {1}),
                           TensorDesc::make(F32, {2, 3, 2, 3, 5})), -1, 1);
}

// 6-D to 8-D: packed (one dim after collapsing), and alternating broadcast dims that stay 6, 7
// or 8 loop dims (the outer ones as specialization constants), fp32, fp16 and mixed.
TEST_F(ElementWise, RanksSixToEight) {
    const TensorDesc out8 = TensorDesc::make(F32, {2, 3, 2, 3, 2, 3, 2, 3});
    checkWithRanges(binary(ElementWiseOp::Add, out8, out8, out8), -1, 1);
    checkWithRanges(binary(ElementWiseOp::Multiply, TensorDesc::make(F32, {2, 1, 2, 1, 2, 1, 2, 1}),
                           TensorDesc::make(F32, {1, 3, 1, 3, 1, 3, 1, 3}), out8), -1, 1);
    checkWithRanges(binary(ElementWiseOp::Subtract, TensorDesc::make(F32, {3, 1, 2, 1, 5, 1, 2}), TensorDesc::make(F32, {2, 1, 3, 1, 4, 1}),
                           TensorDesc::make(F32, {3, 2, 2, 3, 5, 4, 2})), -1, 1);
    checkWithRanges(binary(ElementWiseOp::Max, TensorDesc::make(F32, {2, 1, 3, 1, 2, 1}), TensorDesc::make(F32, {1, 2, 1, 3, 1, 2}),
                           TensorDesc::make(F32, {2, 2, 3, 3, 2, 2})), -1, 1);
    // Strided output: every element of a padded 8-D layout, the input transposed by strides.
    const TensorDesc strided = TensorDesc::strided(F32, {2, 2, 2, 2, 2, 2, 2, 3}, {1024, 512, 256, 128, 64, 16, 4, 1});
    const TensorDesc transposed = TensorDesc::strided(F32, {2, 2, 2, 2, 2, 2, 2, 3}, {1, 2, 4, 8, 16, 32, 64, 128});
    optest::checkOperator(unary(ElementWiseOp::Exp, transposed, strided));
    if (!optest::fp16Supported()) return;
    checkWithRanges(binary(ElementWiseOp::Divide, TensorDesc::make(F16, {2, 1, 2, 1, 2, 1, 2, 1}),
                           TensorDesc::make(F32, {1, 3, 1, 3, 1, 3, 1, 3}), TensorDesc::make(F16, {2, 3, 2, 3, 2, 3, 2, 3})),
                    -1, 1, 1, 2);
}

TEST_F(ElementWise, StrideZeroBroadcast) {
    // A per-channel vector addressed as [1,C,H,W] with strides [0,1,0,0]: DirectML-style broadcast.
    const TensorDesc out = TensorDesc::make(F32, {1, 5, 3, 9});
    ElementWiseDesc d = binary(ElementWiseOp::Add, out, TensorDesc::strided(F32, {1, 5, 3, 9}, {0, 1, 0, 0}), out);
    optest::checkOperator(d);
}

TEST_F(ElementWise, PReluPerChannelSlope) {
    const TensorDesc x = TensorDesc::make(F32, {2, 17, 3, 5});
    checkWithRanges(binary(ElementWiseOp::PRelu, x, TensorDesc::make(F32, {1, 17, 1, 1}), x), -1, 1, 0, 0.3);
}

// [1, C, 1, 1] operands over packed activations whose H x W is a multiple of 4 take the per-channel
// vector path (elementwise_plan_test checks the choice): PReLU, scale, bias, batch > 1, a strided
// b, fp16 activations with an fp32 slope.
TEST_F(ElementWise, PerChannelBroadcastPath) {
    const TensorDesc x = TensorDesc::make(F32, {2, 17, 4, 9});
    checkWithRanges(binary(ElementWiseOp::PRelu, x, TensorDesc::make(F32, {1, 17, 1, 1}), x), -1, 1, 0, 0.3);
    checkWithRanges(binary(ElementWiseOp::Multiply, x, TensorDesc::make(F32, {17, 1, 1}), x), -1, 1, 0.5, 2);
    checkWithRanges(binary(ElementWiseOp::Add, x, TensorDesc::strided(F32, {1, 17, 1, 1}, {0, 2, 0, 0}), x), -1, 1);
    if (!optest::fp16Supported()) return;
    const TensorDesc h = TensorDesc::make(F16, {1, 56, 6, 10});
    checkWithRanges(binary(ElementWiseOp::PRelu, h, TensorDesc::make(F32, {1, 56, 1, 1}), h), -1, 1, 0, 0.3);
    checkWithRanges(binary(ElementWiseOp::Subtract, h, TensorDesc::make(F16, {1, 56, 1, 1}), h), -1, 1);
}

TEST_F(ElementWise, EveryActivation) {
    const TensorDesc x = TensorDesc::make(F32, {1, 3, 7, 9});
    for (Activation a : {Activation{}, linear(0.5f, -0.25f), relu(), leakyRelu(0.1f), elu(0.8f), selu(), sigmoid(), hardSigmoid(),
                         tanhActivation(), softplus(), softplus(2.0f), gelu(), silu(), hardSwish(), geluTanh()}) {
        SCOPED_TRACE(toString(a.type));
        ElementWiseDesc d = unary(ElementWiseOp::Activation, x, x);
        d.activation = a;
        checkWithRanges(d, -4, 4);
    }
}

TEST_F(ElementWise, ScaleBiasAndFusedActivation) {
    const TensorDesc x = TensorDesc::make(F32, {2, 5, 3, 3});
    ElementWiseDesc add = binary(ElementWiseOp::Add, x, TensorDesc::make(F32, {5, 1, 1}), x);
    add.inputScaleBias = ScaleBias{2.0f, -0.5f};
    add.activation = relu();
    optest::checkOperator(add);

    ElementWiseDesc log = unary(ElementWiseOp::Log, x, x);
    log.inputScaleBias = ScaleBias{0.5f, 1.0f};  // inputs in [0.5, 2): log(0.5a + 1) stays in domain
    log.activation = tanhActivation();
    checkWithRanges(log, 0, 2);
}

TEST_F(ElementWise, PackedPathWithAndWithoutTail) {
    for (auto sizes : {std::initializer_list<uint32_t>{1, 1, 1, 1}, {3}, {5}, {2, 4, 8, 8}, {1, 3, 17, 33}}) {
        TensorDesc t = TensorDesc::make(F32, sizes);
        SCOPED_TRACE(t.toString());
        optest::checkOperator(binary(ElementWiseOp::Add, t, t, t));
        optest::checkOperator(unary(ElementWiseOp::Identity, t, t));
    }
}

TEST_F(ElementWise, PaddedStridesOnEveryTensor) {
    // Rows padded to 12 (a), 9 (b) and 16 (output) elements.
    TensorDesc a = TensorDesc::strided(F32, {2, 3, 5, 7}, {3 * 5 * 12, 5 * 12, 12, 1});
    TensorDesc b = TensorDesc::strided(F32, {2, 3, 5, 7}, {3 * 5 * 9, 5 * 9, 9, 1});
    TensorDesc out = TensorDesc::strided(F32, {2, 3, 5, 7}, {3 * 5 * 16, 5 * 16, 16, 1});
    optest::checkOperator(binary(ElementWiseOp::Max, a, b, out));
}


TEST_F(ElementWise, LayoutConversionNchwNhwc) {
    TensorDesc nchw = TensorDesc::make(F32, {2, 5, 3, 7});
    optest::checkOperator(unary(ElementWiseOp::Identity, nchw, nhwc(F32, 2, 5, 3, 7)));
    optest::checkOperator(unary(ElementWiseOp::Identity, nhwc(F32, 2, 5, 3, 7), nchw));
}

TEST_F(ElementWise, PrecisionConversions) {
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    TensorDesc f32 = TensorDesc::make(F32, {1, 3, 9, 11});
    TensorDesc f16 = TensorDesc::make(F16, {1, 3, 9, 11});
    optest::checkOperator(unary(ElementWiseOp::Identity, f32, f16));
    optest::checkOperator(unary(ElementWiseOp::Identity, f16, f32));
    optest::checkOperator(unary(ElementWiseOp::Identity, f16, f16));
    // Precision and layout at once, both directions.
    optest::checkOperator(unary(ElementWiseOp::Identity, f32, nhwc(F16, 1, 3, 9, 11)));
    optest::checkOperator(unary(ElementWiseOp::Identity, nhwc(F16, 1, 3, 9, 11), f32));
}

TEST_F(ElementWise, Fp16OpsAndMixedPrecision) {
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    TensorDesc h = TensorDesc::make(F16, {2, 3, 4, 8});  // multiple of 4: the f16vec4 path
    TensorDesc hOdd = TensorDesc::make(F16, {1, 5, 3, 3});
    checkWithRanges(binary(ElementWiseOp::Multiply, h, h, h), -1, 1);
    checkWithRanges(unary(ElementWiseOp::Sqrt, hOdd, hOdd), 0.01, 4);
    ElementWiseDesc act = unary(ElementWiseOp::Activation, hOdd, hOdd);
    act.activation = gelu();
    checkWithRanges(act, -3, 3);
    act.activation = geluTanh();
    checkWithRanges(act, -3, 3);
    // a fp16, b fp32 broadcast, out fp32 / fp16.
    checkWithRanges(binary(ElementWiseOp::Add, hOdd, TensorDesc::make(F32, {5, 1, 1}), TensorDesc::make(F32, {1, 5, 3, 3})), -1, 1);
    checkWithRanges(binary(ElementWiseOp::Divide, TensorDesc::make(F32, {1, 5, 3, 3}), TensorDesc::make(F16, {1, 5, 1, 3}), hOdd),
                    -1, 1, 0.5, 2);
}

// --- validation ---------------------------------------------------------------------------

TEST_F(ElementWise, RejectsInputThatCannotBroadcast) {
    ElementWiseDesc d = binary(ElementWiseOp::Add, TensorDesc::make(F32, {2, 7}), TensorDesc::make(F32, {2, 5}),
                               TensorDesc::make(F32, {2, 7}));
    d.name = "add1";
    EXPECT_EQ(compileError(d), "element_wise 'add1': input b size 5 at dim 1 cannot broadcast to output size 7");
    d.b = TensorDesc::make(F32, {3, 2, 7});
    EXPECT_EQ(compileError(d), "element_wise 'add1': input b size 3 at dim 0 has no matching dim in the output (rank 2)");
    ElementWiseDesc e = unary(ElementWiseOp::Exp, TensorDesc::make(F32, {4, 7}), TensorDesc::make(F32, {2, 7}));
    e.name = "e";
    EXPECT_EQ(compileError(e), "element_wise 'e': input a size 4 at dim 0 cannot broadcast to output size 2");
}

TEST_F(ElementWise, RejectsMissingOrExtraInputB) {
    TensorDesc t = TensorDesc::make(F32, {4});
    ElementWiseDesc d = unary(ElementWiseOp::Pow, t, t);
    d.name = "p";
    EXPECT_EQ(compileError(d), "element_wise 'p': pow needs input b");
    ElementWiseDesc s = binary(ElementWiseOp::Sqrt, t, t, t);
    s.name = "s";
    EXPECT_EQ(compileError(s), "element_wise 's': sqrt is unary but input b is given");
}

TEST_F(ElementWise, RejectsBadParameters) {
    TensorDesc t = TensorDesc::make(F32, {4});
    ElementWiseDesc clip = unary(ElementWiseOp::Clip, t, t);
    clip.name = "c";
    clip.clipMin = 1;
    clip.clipMax = 0;
    EXPECT_EQ(compileError(clip), "element_wise 'c': clip min 1 is greater than clip max 0");
    ElementWiseDesc sp = unary(ElementWiseOp::Activation, t, t);
    sp.name = "";
    sp.activation = Activation{ActivationType::Softplus, 0.0f};
    EXPECT_EQ(compileError(sp), "element_wise: softplus steepness (alpha) must not be 0");
    ElementWiseDesc op = unary(ElementWiseOp(99), t, t);
    op.name = "x";
    EXPECT_EQ(compileError(op), "element_wise 'x': unknown operation 99");
}

TEST_F(ElementWise, RejectsBadTensors) {
    ElementWiseDesc d = unary(ElementWiseOp::Identity, TensorDesc::make(F32, {4, 0}), TensorDesc::make(F32, {4, 1}));
    d.name = "bad";
    EXPECT_EQ(compileError(d), "element_wise 'bad' input a: size of dim 1 is 0");
    // An output whose strides alias elements would be written twice.
    ElementWiseDesc race = unary(ElementWiseOp::Identity, TensorDesc::make(F32, {4, 3}), TensorDesc::strided(F32, {4, 3}, {1, 1}));
    race.name = "race";
    EXPECT_EQ(compileErrorCode(race), ErrorCode::InvalidArgument);
    EXPECT_NE(compileError(race).find("element_wise 'race' output"), std::string::npos) << compileError(race);
}

}  // namespace

namespace {

// A 4K fp32 NCHW image to fp16 NHWC: 24.9M elements on the generic path, more workgroups than
// fit in x (the dispatch spreads over y).
TEST_F(ElementWise, FourKImageLayoutAndPrecisionConversion) {
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    optest::checkOperator(unary(ElementWiseOp::Identity, TensorDesc::make(F32, {1, 3, 2160, 3840}), nhwc(F16, 1, 3, 2160, 3840)));
}

}  // namespace
