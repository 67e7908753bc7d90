// Convolution and transposed convolution on the GPU against the CPU reference: the tiled path
// (ungrouped) and the generic one (groups, transposed), odd sizes and channel counts, strides,
// dilation, asymmetric pads, NHWC via strides, owned (packed) and bound weights, fp16, every
// fused activation, the layers of ESPCN and FSRCNN, and every validation error.
#include "device_impl.h"  // planContext, for forcing kernel candidates
#include "kernel.h"  // plans, for the CPU-only checks at the end
#include "ops/convolution_igemm.h"
#include "ops/convolution_winograd.h"
#include "op_test.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>

using namespace mlplugin;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class Convolution : public testsupport::VulkanTest {};

struct ConvParams {
    uint32_t batch = 1, inC = 3, h = 13, w = 11, outC = 5, kH = 3, kW = 3;
    std::array<uint32_t, 2> strides{1, 1}, dilations{1, 1}, padBegin{1, 1}, padEnd{1, 1}, outputPadding{0, 0};
    uint32_t groups = 1;
    bool transposed = false;
    bool bias = true;
    bool owned = true;        // filter and bias owned by the plugin (packed at initialization)
    bool nhwc = false;        // input and output laid out NHWC through strides
    bool paddedFilter = false;  // filter rows padded (non-packed strides), only when not owned
    DataType type = F32;
    Activation activation;
};

TensorDesc activations(const ConvParams& p, uint32_t c, uint32_t h, uint32_t w) {
    if (!p.nhwc) return TensorDesc::make(p.type, {p.batch, c, h, w});
    return TensorDesc::strided(p.type, {p.batch, c, h, w}, {h * w * c, 1, w * c, c});
}

ConvolutionDesc makeConv(const ConvParams& p, const std::string& name = "conv") {
    ConvolutionDesc d;
    d.name = name;
    d.transposed = p.transposed;
    d.strides = p.strides;
    d.dilations = p.dilations;
    d.padBegin = p.padBegin;
    d.padEnd = p.padEnd;
    d.outputPadding = p.outputPadding;
    d.groups = p.groups;
    d.activation = p.activation;
    d.input = activations(p, p.inC, p.h, p.w);
    uint32_t flags = p.owned ? TensorFlagOwnedByPlugin : TensorFlagNone;
    uint32_t f0 = p.transposed ? p.inC : p.outC, f1 = p.transposed ? p.outC / p.groups : p.inC / p.groups;
    if (p.paddedFilter)  // each kernel row padded to kW + 2, each filter to a few extra elements
        d.filter = TensorDesc::strided(p.type, {f0, f1, p.kH, p.kW}, {f1 * p.kH * (p.kW + 2) + 3, p.kH * (p.kW + 2), p.kW + 2, 1}, flags);
    else
        d.filter = TensorDesc::make(p.type, {f0, f1, p.kH, p.kW}, flags);
    if (p.bias) d.bias = TensorDesc::make(p.type, {p.outC}, flags);
    d.output = activations(p, p.outC, convolutionOutputSize(d, 0), convolutionOutputSize(d, 1));
    return d;
}

void check(const ConvParams& p, const std::string& name = "conv", uint32_t seed = 1) {
    SCOPED_TRACE(name);
    optest::checkOperator(makeConv(p, name), {}, seed);
}

bool skipWithoutFp16() { return !optest::fp16Supported(); }

std::string compileError(const ConvolutionDesc& d) {
    auto compiled = optest::device().compileOperator(d);
    return compiled.ok() ? std::string("<compiled>") : compiled.error().message;
}

TEST_F(Convolution, OutputSize) {
    ConvolutionDesc d = makeConv({.h = 64, .w = 64, .strides = {2, 2}});
    EXPECT_EQ(convolutionOutputSize(d, 0), 32u);
    d = makeConv({.h = 13, .w = 11, .kH = 9, .kW = 9, .strides = {2, 2}, .padBegin = {4, 4}, .padEnd = {4, 4},
                  .outputPadding = {1, 1}, .transposed = true});
    EXPECT_EQ(convolutionOutputSize(d, 0), 26u);  // FSRCNN x2: (13 - 1) * 2 - 8 + 9 + 1
    EXPECT_EQ(convolutionOutputSize(d, 1), 22u);
    d = makeConv({.h = 4, .w = 4, .kH = 5, .kW = 5, .padBegin = {0, 0}, .padEnd = {0, 0}});
    EXPECT_EQ(convolutionOutputSize(d, 0), 0u);  // kernel larger than the input
    EXPECT_EQ(convolutionOutputSize(d, 2), 0u);
}

TEST_F(Convolution, Tiled3x3OwnedAndBoundWeights) {
    check({}, "owned");
    check({.owned = false}, "bound");
    check({.owned = false, .paddedFilter = true}, "bound, padded filter strides");
    check({.bias = false}, "no bias");
}

TEST_F(Convolution, OddChannelCountsAndKernels) {
    check({.inC = 17, .outC = 33}, "17 -> 33, 3x3 (input channel chunks and an output block tail)");
    check({.inC = 33, .h = 7, .w = 9, .outC = 17, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}}, "1x1");
    check({.inC = 5, .outC = 3, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}}, "5x5");
    check({.inC = 3, .h = 1, .w = 1, .outC = 33, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}}, "1x1 spatial");
    check({.inC = 5, .h = 1, .w = 1, .outC = 3}, "1x1 spatial, 3x3 kernel all padding");
    check({.batch = 2, .inC = 5, .h = 9, .w = 17, .outC = 17, .kH = 3, .kW = 5, .padBegin = {1, 2}, .padEnd = {1, 2}}, "batch 2, 3x5");
}

TEST_F(Convolution, StridesDilationAsymmetricPads) {
    check({.inC = 5, .outC = 7, .strides = {2, 2}}, "stride 2");
    check({.inC = 5, .h = 12, .w = 16, .outC = 7, .strides = {2, 3}, .padBegin = {0, 1}, .padEnd = {1, 2}}, "stride 2x3, pads 0/1 1/2");
    check({.inC = 4, .outC = 6, .dilations = {2, 2}, .padBegin = {2, 2}, .padEnd = {2, 2}}, "dilation 2");
    check({.inC = 4, .outC = 6, .kH = 5, .kW = 3, .strides = {2, 1}, .dilations = {1, 3}, .padBegin = {0, 3}, .padEnd = {2, 0}},
          "5x3, stride 2x1, dilation 1x3, asymmetric pads");
    check({.inC = 3, .h = 40, .w = 48, .outC = 5, .kH = 9, .kW = 9, .strides = {3, 4}, .dilations = {3, 4}, .padBegin = {0, 0},
           .padEnd = {0, 4}},
          "9x9 dilated past the tiled kernel's shared memory (generic)");
}

TEST_F(Convolution, GroupsAndDepthwise) {
    check({.inC = 6, .outC = 4, .groups = 2}, "groups 2");
    check({.inC = 6, .outC = 4, .groups = 2, .owned = false}, "groups 2, bound weights");
    check({.inC = 17, .outC = 17, .groups = 17}, "depthwise 17");
    check({.inC = 8, .outC = 16, .strides = {2, 2}, .groups = 8, .owned = false}, "depthwise x2 multiplier, stride 2");
}

TEST_F(Convolution, NhwcViaStrides) {
    check({.inC = 5, .outC = 7, .nhwc = true}, "tiled");
    check({.inC = 6, .outC = 4, .groups = 2, .nhwc = true}, "generic");
    ConvolutionDesc mixed = makeConv({.inC = 5, .outC = 7, .nhwc = true});
    mixed.output = TensorDesc::make(F32, {1, 7, 13, 11});  // NHWC in, NCHW out
    optest::checkOperator(mixed);
}

TEST_F(Convolution, PaddedRowsOnInputAndOutput) {
    for (uint32_t groups : {1u, 2u}) {  // tiled and generic
        ConvolutionDesc d = makeConv({.inC = 4, .outC = 6, .groups = groups});
        d.input = TensorDesc::strided(F32, {1, 4, 13, 11}, {4 * 13 * 16, 13 * 16, 16, 1});
        d.output = TensorDesc::strided(F32, {1, 6, 13, 11}, {6 * 14 * 12, 14 * 12, 12, 1});
        SCOPED_TRACE(groups);
        optest::checkOperator(d);
    }
}

TEST_F(Convolution, BiasAs4D) {
    ConvolutionDesc d = makeConv({.inC = 3, .outC = 5});
    d.bias = TensorDesc::make(F32, {1, 5, 1, 1}, TensorFlagOwnedByPlugin);
    optest::checkOperator(d);
    d.bias = TensorDesc::strided(F32, {1, 5, 1, 1}, {0, 3, 0, 0});  // bound, every third element
    optest::checkOperator(d);
}

TEST_F(Convolution, Transposed) {
    // FSRCNN's last layer: 9x9, stride 2, pads 4, output padding 1.
    ConvParams fsrcnn{.inC = 8, .outC = 3, .kH = 9, .kW = 9, .strides = {2, 2}, .padBegin = {4, 4}, .padEnd = {4, 4},
                      .outputPadding = {1, 1}, .transposed = true};
    check(fsrcnn, "FSRCNN 9x9 stride 2 owned");
    fsrcnn.owned = false;
    fsrcnn.paddedFilter = true;
    check(fsrcnn, "FSRCNN 9x9 stride 2 bound, padded filter");
    check({.inC = 6, .h = 5, .w = 7, .outC = 4, .strides = {2, 3}, .padBegin = {0, 1}, .padEnd = {1, 0}, .outputPadding = {1, 2},
           .groups = 2, .transposed = true},
          "groups 2, stride 2x3, asymmetric pads");
    check({.inC = 4, .h = 5, .w = 6, .outC = 6, .kH = 3, .kW = 2, .strides = {1, 2}, .dilations = {2, 1}, .padBegin = {0, 0},
           .padEnd = {0, 0}, .transposed = true, .owned = false},
          "dilation 2x1, no pads, bound weights");
    check({.batch = 2, .inC = 3, .h = 4, .w = 3, .outC = 5, .strides = {2, 2}, .transposed = true, .nhwc = true}, "batch 2, NHWC");
    // Stride and dilation sharing factors: the taps feeding an output repeat every stride / gcd.
    check({.inC = 3, .h = 5, .w = 6, .outC = 2, .kH = 5, .kW = 4, .strides = {4, 6}, .dilations = {2, 4}, .padBegin = {3, 0},
           .padEnd = {1, 2}, .outputPadding = {3, 1}, .transposed = true},
          "stride 4x6, dilation 2x4");
}

TEST_F(Convolution, EspcnLayers) {
    check({.inC = 3, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .activation = tanhActivation()}, "5x5 3->64");
    check({.inC = 64, .outC = 32, .activation = tanhActivation()}, "3x3 64->32");
    check({.inC = 32, .h = 5, .w = 4, .outC = 12}, "3x3 32->12 small spatial");
}

TEST_F(Convolution, EveryFusedActivation) {
    const Activation all[] = {linear(0.5f, -0.25f), relu(), leakyRelu(0.1f), elu(0.7f), selu(), sigmoid(), hardSigmoid(),
                              tanhActivation(), softplus(2.0f), gelu(), silu(), hardSwish()};
    for (const Activation& a : all) {
        SCOPED_TRACE(toString(a.type));
        // Inputs in [-1, 1) over 27 taps: pre-activation values spread over about [-3, 3].
        optest::checkOperator(makeConv({.inC = 3, .h = 7, .w = 6, .outC = 5, .activation = a}));
        optest::checkOperator(makeConv({.inC = 4, .h = 7, .w = 6, .outC = 4, .groups = 2, .activation = a}));
    }
}

TEST_F(Convolution, Fp16) {
    if (skipWithoutFp16()) GTEST_SKIP() << "no fp16 on this device";
    check({.inC = 17, .outC = 33, .type = F16}, "tiled, owned weights packed as fp16");
    check({.inC = 5, .outC = 7, .owned = false, .nhwc = true, .type = F16, .activation = relu()}, "tiled, bound, NHWC");
    check({.inC = 6, .outC = 4, .groups = 2, .type = F16}, "generic groups 2");
    check({.inC = 8, .outC = 3, .kH = 9, .kW = 9, .strides = {2, 2}, .padBegin = {4, 4}, .padEnd = {4, 4}, .outputPadding = {1, 1},
           .transposed = true, .type = F16},
          "transposed 9x9 stride 2");
    // Mixed: fp16 activations with fp32 weights and bias, bound and owned.
    for (bool owned : {false, true}) {
        ConvolutionDesc d = makeConv({.inC = 5, .outC = 7, .type = F16});
        uint32_t flags = owned ? TensorFlagOwnedByPlugin : TensorFlagNone;
        d.filter = TensorDesc::make(F32, {7, 5, 3, 3}, flags);
        d.bias = TensorDesc::make(F32, {7}, flags);
        SCOPED_TRACE(owned ? "mixed owned" : "mixed bound");
        optest::checkOperator(d);
    }
}

// The flag puts fp16 convolutions on the tiled kernel's fp16-accumulator variant (cooperative
// matrix disabled so a device that has it runs this variant too): long reductions (64 channels x
// 5x5 taps = 1600 products), NHWC, activations, stride, fp32 weights must stay within fp16 tolerance.
TEST_F(Convolution, HalfPrecisionComputationFlag) {
    if (skipWithoutFp16()) GTEST_SKIP() << "no fp16 on this device";
    optest::RunOptions options;
    options.executionFlags = ExecutionFlagAllowHalfPrecisionComputation | ExecutionFlagDisableCooperativeMatrix;
    optest::checkOperator(makeConv({.inC = 17, .outC = 33, .type = F16}), options);
    optest::checkOperator(makeConv({.inC = 64, .h = 13, .w = 37, .outC = 32, .type = F16, .activation = tanhActivation()}), options);
    optest::checkOperator(makeConv({.inC = 64, .h = 9, .w = 35, .outC = 19, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16}), options);
    optest::checkOperator(makeConv({.inC = 3, .h = 11, .w = 33, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .nhwc = true, .type = F16}), options);
    optest::checkOperator(makeConv({.inC = 12, .h = 10, .w = 31, .outC = 12, .strides = {2, 2}, .type = F16}), options);
    ConvolutionDesc mixed = makeConv({.inC = 33, .outC = 7, .type = F16});
    mixed.filter = TensorDesc::make(F32, {7, 33, 3, 3});
    optest::checkOperator(mixed, options);
}

// --- tensor cores (VK_NV_cooperative_matrix) -----------------------------------------------
// conv2d_coopmat runs every ungrouped fp16 convolution except few-input-channel shapes the tiled
// kernel takes (measured faster); ExecutionFlagForceCooperativeMatrix puts those on it too, so
// both of its staging modes (direct, im2col) are checked on awkward shapes.

bool skipWithoutCooperativeMatrix() { return !optest::fp16Supported() || !optest::device().capabilities().cooperativeMatrixNV; }
#define REQUIRE_COOPMAT() \
    if (skipWithoutCooperativeMatrix()) GTEST_SKIP() << "no VK_NV_cooperative_matrix with fp16 on this device (conv2d_coopmat untested here)"

optest::RunOptions forceCoop() {
    optest::RunOptions options;
    options.executionFlags = ExecutionFlagForceCooperativeMatrix;
    return options;
}

void checkCoop(const ConvParams& p, const std::string& name) {
    SCOPED_TRACE(name);
    optest::checkOperator(makeConv(p, name), forceCoop());
}

TEST_F(Convolution, CooperativeMatrixEspcnLayers) {
    REQUIRE_COOPMAT();
    ConvParams first{.inC = 3, .h = 37, .w = 45, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16,
                     .activation = tanhActivation()};
    check(first, "5x5 3->64 tanh (unfold-x, K 5 x 16)");
    check({.inC = 64, .h = 37, .w = 45, .outC = 32, .type = F16, .activation = tanhActivation()}, "3x3 64->32 tanh (direct)");
    check({.inC = 32, .h = 37, .w = 45, .outC = 12, .type = F16}, "3x3 32->12 (one N fragment, 4 of 16 padding)");
    check({.batch = 2, .inC = 64, .h = 70, .w = 99, .outC = 64, .type = F16, .activation = relu()}, "3x3 64->64 batch 2, several tiles");
}

TEST_F(Convolution, CooperativeMatrixAwkwardShapes) {
    REQUIRE_COOPMAT();
    checkCoop({.inC = 5, .outC = 7, .type = F16}, "5->7 3x3 (unfold-x)");
    checkCoop({.inC = 20, .h = 13, .w = 23, .outC = 7, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16},
              "20->7 5x5 (im2col, K 500 -> 512)");
    checkCoop({.inC = 17, .outC = 33, .type = F16}, "17->33 3x3 (im2col, 3 N fragments)");
    checkCoop({.inC = 33, .h = 9, .w = 17, .outC = 17, .type = F16}, "33->17 3x3 (direct, channels padded to 48)");
    checkCoop({.inC = 33, .h = 7, .w = 9, .outC = 80, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .type = F16},
          "1x1 33->80 (two N blocks)");
    checkCoop({.inC = 3, .h = 1, .w = 1, .outC = 5, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .type = F16}, "1x1 spatial 3->5");
    checkCoop({.inC = 64, .h = 5, .w = 3, .outC = 16, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16},
          "5x5 64->16 on a 5x3 image");
    checkCoop({.inC = 16, .h = 9, .w = 17, .outC = 16, .kH = 3, .kW = 5, .padBegin = {1, 2}, .padEnd = {1, 2}, .bias = false, .type = F16},
          "3x5 16->16 no bias");
}

TEST_F(Convolution, CooperativeMatrixStridesDilationPads) {
    REQUIRE_COOPMAT();
    checkCoop({.inC = 32, .h = 31, .w = 47, .outC = 16, .strides = {2, 2}, .type = F16}, "stride 2 (direct)");
    checkCoop({.inC = 5, .h = 12, .w = 36, .outC = 7, .strides = {2, 3}, .padBegin = {0, 1}, .padEnd = {1, 2}, .type = F16},
          "stride 2x3 pads 0/1 1/2 (unfold-x)");
    checkCoop({.inC = 16, .outC = 16, .dilations = {2, 2}, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16}, "dilation 2 (direct)");
    checkCoop({.inC = 4, .outC = 6, .kH = 5, .kW = 3, .strides = {2, 1}, .dilations = {1, 3}, .padBegin = {0, 3}, .padEnd = {2, 0}, .type = F16},
          "5x3 stride 2x1 dilation 1x3 (unfold-x)");
    checkCoop({.inC = 16, .h = 40, .w = 48, .outC = 5, .kH = 9, .kW = 9, .strides = {3, 4}, .dilations = {3, 4}, .padBegin = {0, 0},
           .padEnd = {0, 4}, .type = F16},
          "9x9 dilated past the direct tile's shared memory (im2col, also without forcing: the tiled kernel cannot)");
}

// Unfold-x (kW x inC <= 16): the tile's halo rows, strides and dilations, partial tiles at odd
// sizes, both precisions of arithmetic.
TEST_F(Convolution, CooperativeMatrixUnfoldX) {
    REQUIRE_COOPMAT();
    checkCoop({.inC = 1, .h = 29, .w = 47, .outC = 56, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16},
              "5x5 1->56 (FSRCNN's first layer)");
    checkCoop({.inC = 5, .h = 23, .w = 41, .outC = 24, .kH = 3, .kW = 3, .type = F16, .activation = relu()}, "3x3 5->24 (15 per row)");
    checkCoop({.batch = 2, .inC = 3, .h = 35, .w = 67, .outC = 64, .type = F16, .activation = tanhActivation()}, "3x3 3->64 batch 2");
    checkCoop({.inC = 2, .h = 17, .w = 33, .outC = 80, .kH = 7, .kW = 7, .padBegin = {3, 3}, .padEnd = {3, 3}, .nhwc = true, .type = F16},
              "7x7 2->80 NHWC (14 per row, two N blocks)");
    checkCoop({.inC = 3, .h = 19, .w = 37, .outC = 16, .kH = 3, .kW = 3, .strides = {2, 2}, .dilations = {2, 1}, .padBegin = {2, 1},
               .padEnd = {2, 1}, .type = F16},
              "3x3 stride 2 dilation 2x1");
    optest::RunOptions half = forceCoop();
    half.executionFlags |= ExecutionFlagAllowHalfPrecisionComputation;
    optest::checkOperator(makeConv({.inC = 3, .h = 37, .w = 45, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2},
                                    .type = F16, .activation = tanhActivation()}),
                          half);
    optest::checkOperator(makeConv({.inC = 4, .h = 21, .w = 35, .outC = 12, .type = F16}), half);
}

TEST_F(Convolution, CooperativeMatrixLayoutsAndWeights) {
    REQUIRE_COOPMAT();
    checkCoop({.inC = 32, .h = 9, .w = 21, .outC = 24, .nhwc = true, .type = F16, .activation = relu()}, "NHWC (direct)");
    checkCoop({.inC = 3, .h = 9, .w = 21, .outC = 24, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .nhwc = true, .type = F16},
          "NHWC (unfold-x)");
    checkCoop({.inC = 32, .h = 9, .w = 21, .outC = 20, .owned = false, .type = F16}, "bound weights (packed per execution)");
    checkCoop({.inC = 3, .h = 9, .w = 21, .outC = 20, .owned = false, .paddedFilter = true, .type = F16}, "bound, padded filter strides (unfold-x)");
    checkCoop({.inC = 17, .h = 9, .w = 21, .outC = 20, .owned = false, .nhwc = true, .type = F16}, "bound, NHWC (im2col)");
    ConvolutionDesc d = makeConv({.inC = 32, .h = 13, .w = 19, .outC = 24, .type = F16});
    d.input = optest::paddedRows(F16, 1, 32, 13, 19, 3);
    d.output = optest::paddedRows(F16, 1, 24, 13, 19, 5);  // as a slice of a wider buffer: gaps stay untouched
    optest::checkOperator(d, forceCoop());
    for (bool owned : {false, true}) {  // fp32 filter and bias with fp16 activations
        ConvolutionDesc mixed = makeConv({.inC = 17, .outC = 20, .type = F16});
        uint32_t flags = owned ? TensorFlagOwnedByPlugin : TensorFlagNone;
        mixed.filter = TensorDesc::make(F32, {20, 17, 3, 3}, flags);
        mixed.bias = TensorDesc::make(F32, {20}, flags);
        SCOPED_TRACE(owned ? "mixed owned" : "mixed bound");
        optest::checkOperator(mixed, forceCoop());
    }
}

TEST_F(Convolution, CooperativeMatrixEveryFusedActivation) {
    REQUIRE_COOPMAT();
    const Activation all[] = {linear(0.5f, -0.25f), relu(), leakyRelu(0.1f), elu(0.7f), selu(), sigmoid(), hardSigmoid(),
                              tanhActivation(), softplus(2.0f), gelu(), silu(), hardSwish()};
    for (const Activation& a : all) {
        SCOPED_TRACE(toString(a.type));
        optest::checkOperator(makeConv({.inC = 3, .h = 7, .w = 20, .outC = 5, .type = F16, .activation = a}), forceCoop());
        optest::checkOperator(makeConv({.inC = 16, .h = 7, .w = 20, .outC = 20, .type = F16, .activation = a}), forceCoop());
    }
}

TEST_F(Convolution, CooperativeMatrixWithExecutionFlags) {
    REQUIRE_COOPMAT();
    optest::RunOptions options;
    // fp16 accumulators, 8 M fragments (conv2d_coopmat_acc16): both modes, 1-4 N fragments, two
    // N blocks, long reductions (64 x 9 and 64 x 25 products), channels-last.
    options.executionFlags = ExecutionFlagAllowHalfPrecisionComputation | ExecutionFlagForceCooperativeMatrix;
    optest::checkOperator(makeConv({.inC = 64, .h = 21, .w = 37, .outC = 32, .type = F16, .activation = tanhActivation()}), options);
    optest::checkOperator(makeConv({.batch = 2, .inC = 64, .h = 35, .w = 67, .outC = 64, .type = F16, .activation = relu()}), options);
    optest::checkOperator(makeConv({.inC = 33, .h = 19, .w = 33, .outC = 12, .nhwc = true, .type = F16}), options);
    optest::checkOperator(makeConv({.inC = 64, .h = 9, .w = 35, .outC = 19, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16}), options);
    optest::checkOperator(makeConv({.inC = 24, .h = 11, .w = 21, .outC = 80, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .nhwc = true,
                                    .type = F16}), options);
    optest::checkOperator(makeConv({.inC = 3, .h = 11, .w = 33, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16}),
                          options);
    options.executionFlags = ExecutionFlagDisableCooperativeMatrix;  // the portable kernel on the same device
    optest::checkOperator(makeConv({.inC = 64, .h = 21, .w = 37, .outC = 32, .type = F16}), options);
}

// --- shared-memory implicit GEMM (conv2d_igemm) ----------------------------------------------
// Every candidate a tuner may pick (mlplugin/tuning.h) is forced in turn through a tuning table on
// the shared device and checked against the reference: tuning must never change results beyond
// the fp16 tolerance. Shapes: channels not multiples of 16 or 8 (per-element loads), NCHW and
// NHWC, strides, dilation, 5x5 and 1x1, several N blocks, batch 2, bound weights, fp32 and fp16
// accumulators.
void checkEveryCandidate(const ConvParams& p, uint32_t flags, const std::string& name) {
    auto& dev = dynamic_cast<detail::DeviceImpl&>(optest::device());
    ConvolutionDesc d = makeConv(p, name);
    detail::ConvolutionTuning tuning = detail::convolutionTuning(dev.planContext(flags), d, {});
    ASSERT_FALSE(tuning.candidates.empty()) << name;
    size_t igemm = 0;
    for (const std::string& candidate : tuning.candidates) {
        SCOPED_TRACE(name + ": " + candidate);
        auto table = std::make_shared<TuningTable>();
        table->set(tuning.key, {candidate, 0});
        dev.setTuningTable(table);
        EXPECT_EQ(detail::convolutionTuning(dev.planContext(flags), d, {}).chosen, candidate) << "the table's entry is taken";
        optest::RunOptions options;
        options.executionFlags = flags;
        optest::checkOperator(d, options);
        igemm += candidate.starts_with("igemm_");
    }
    dev.setTuningTable(nullptr);
    EXPECT_GE(igemm, 2u) << name << ": several implicit-GEMM tiles to choose from";
}

TEST_F(Convolution, ImplicitGemmEveryCandidate) {
    REQUIRE_COOPMAT();
    const std::pair<ConvParams, const char*> shapes[] = {
        {{.inC = 64, .h = 37, .w = 45, .outC = 64, .nhwc = true, .type = F16, .activation = relu()}, "3x3 64->64 NHWC relu"},
        {{.inC = 24, .h = 13, .w = 29, .outC = 40, .nhwc = true, .type = F16}, "3x3 24->40 NHWC (slices padded, 3 N fragments)"},
        {{.inC = 12, .h = 11, .w = 19, .outC = 20, .type = F16, .activation = leakyRelu(0.1f)}, "3x3 12->20 NCHW (per-element loads)"},
        {{.inC = 3, .h = 19, .w = 37, .outC = 64, .type = F16, .activation = tanhActivation()}, "3x3 3->64 NCHW"},
        {{.inC = 32, .h = 31, .w = 47, .outC = 16, .strides = {2, 2}, .nhwc = true, .type = F16}, "3x3 32->16 stride 2"},
        {{.inC = 16, .h = 17, .w = 23, .outC = 16, .dilations = {2, 2}, .padBegin = {2, 2}, .padEnd = {2, 2}, .nhwc = true, .type = F16},
         "3x3 16->16 dilation 2"},
        {{.inC = 64, .h = 9, .w = 35, .outC = 12, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .nhwc = true, .type = F16},
         "5x5 64->12"},
        {{.batch = 2, .inC = 96, .h = 10, .w = 21, .outC = 112, .nhwc = true, .type = F16}, "3x3 96->112 batch 2 (N blocks)"},
        {{.inC = 64, .h = 7, .w = 33, .outC = 32, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .nhwc = true, .type = F16}, "1x1 64->32"},
        {{.inC = 32, .h = 9, .w = 21, .outC = 24, .owned = false, .nhwc = true, .type = F16}, "bound weights"},
    };
    for (const auto& [p, name] : shapes) {
        checkEveryCandidate(p, 0, name);
        checkEveryCandidate(p, ExecutionFlagAllowHalfPrecisionComputation, std::string(name) + " (fp16 arithmetic)");
    }
}

// --- Winograd F(2x2, 3x3) and F(4x4, 3x3) (conv2d_winograd) ----------------------------------
// Forced through a tuning table entry (the fixed heuristic never picks it). Devices without
// tensor cores run the "_portable" build (the same kernel with the MMAs as scalar loops over the
// same memory layouts), so lavapipe checks the weight transform, the input and output transforms,
// partial blocks, padded channels and the epilogue; devices with them run every tensor-core tile
// a tuner may pick, with fp32 and fp16 accumulators.
//
// Tolerance (relative L2, against the reference in double on the same fp16-rounded inputs): the
// direct kernels round only the output (2^-11 relative, about 3e-4 in L2). Winograd also rounds
// V = B^T d B and U = G g G^T to fp16; each output sums 9 of the 16 products M[p] with +-1
// whose magnitudes exceed the output's (V sums up to 4 inputs, U up to 9 weights / 4), so the
// rounding errors add up to a few times the output rounding: measured 3.7e-4 .. 1.1e-3 with the
// portable build on lavapipe (the shapes below; the tensor-core build rounds at the same points).
// 3e-3 leaves 2.7x margin and still fails a wrong tap or position (errors of order 1); fp16
// accumulators add one rounding per 16-channel MMA: 1e-2, the fp16 default.
// F(4x4, 3x3) ("winograd_f4_"): B^T and A^T have entries up to 5 and 8 and each output sums 36
// products, so the fp16 rounding of V and U costs about 6x F(2x2)'s (about 3e-3 relative L2 for
// 64 channels in a float64 model of the kernel's roundings); it gets the fp16 default, 1e-2.
constexpr double kWinogradTolerance = 3e-3;
constexpr double kWinogradF4Tolerance = 1e-2;

// The portable tiles under flags 0 (they ignore fp16 arithmetic), then every tensor-core candidate
// under `flags`. Portable: 16 blocks (lavapipe has 32 KiB of shared memory), F(2x2) with one
// position and two N fragments per subgroup, F(4x4) with two positions and one fragment. Their
// compile time on lavapipe's LLVM grows with the emulated accumulators per invocation: about
// 2 and 6 s per shape here, against 25 s for F(2x2) with 2 positions x 4 fragments.
std::vector<std::string> winogradTiles(uint32_t flags, const ConvolutionDesc& d) {
    auto& dev = dynamic_cast<detail::DeviceImpl&>(optest::device());
    std::vector<std::string> tiles;
    if (flags == 0)
        for (const char* name : {"winograd_b2x8_n2_w16_portable", "winograd_f4_b4x4_n1_w18_portable"})
            if (detail::winogradLayout(dev.planContext(0), d, detail::convolutionGeometry(d), {}, *detail::WinogradTile::parse(name)))
                tiles.push_back(name);
    for (const std::string& c : detail::convolutionTuning(dev.planContext(flags), d, {}).candidates)
        if (c.starts_with("winograd_")) tiles.push_back(c);
    return tiles;
}

// Runs `d` with `tile` named by the table; `expectTaken`: the plan uses it (else it is declined
// and the heuristic's kernel runs). Either way the result must match the reference.
void checkWinograd(const ConvolutionDesc& d, const std::string& tile, uint32_t flags, bool expectTaken = true) {
    auto& dev = dynamic_cast<detail::DeviceImpl&>(optest::device());
    SCOPED_TRACE(d.name + ": " + tile);
    detail::ConvolutionTuning tuning = detail::convolutionTuning(dev.planContext(flags), d, {});
    auto table = std::make_shared<TuningTable>();
    table->set(tuning.key, {tile, 0});
    dev.setTuningTable(table);
    EXPECT_EQ(detail::convolutionTuning(dev.planContext(flags), d, {}).chosen == tile, expectTaken);
    optest::RunOptions options;
    options.executionFlags = flags;
    const bool f4 = tile.starts_with("winograd_f4_");
    options.tolerance = tile.find("_a16") != std::string::npos ? (f4 ? 2e-2 : 1e-2) : f4 ? kWinogradF4Tolerance : kWinogradTolerance;
    if (!expectTaken) options.tolerance = 0;  // the declining kernel's own default
    optest::checkOperator(d, options);
    dev.setTuningTable(nullptr);
}

TEST_F(Convolution, WinogradMatchesTheReference) {
    if (skipWithoutFp16()) GTEST_SKIP() << "no fp16 on this device";
    const std::pair<ConvParams, const char*> shapes[] = {
        {{.inC = 64, .h = 37, .w = 29, .outC = 64, .nhwc = true, .type = F16, .activation = relu()}, "3x3 64->64 NHWC 37x29 relu (2 N blocks)"},
        {{.inC = 24, .h = 13, .w = 29, .outC = 40, .nhwc = true, .type = F16}, "24->40 NHWC (a padded slice, a padded N block)"},
        {{.inC = 3, .h = 13, .w = 11, .outC = 5, .type = F16, .activation = leakyRelu(0.1f)}, "3->5 NCHW (per-element loads)"},
        {{.batch = 2, .inC = 80, .h = 19, .w = 21, .outC = 80, .nhwc = true, .type = F16, .activation = tanhActivation()}, "80->80 batch 2"},
        {{.inC = 16, .h = 1, .w = 1, .outC = 16, .nhwc = true, .type = F16}, "1x1 image"},
        {{.inC = 8, .h = 3, .w = 5, .outC = 12, .bias = false, .type = F16}, "3x5 image, no bias"},
        {{.inC = 32, .h = 35, .w = 40, .outC = 24, .padBegin = {0, 0}, .padEnd = {0, 0}, .nhwc = true, .type = F16}, "no padding"},
        {{.inC = 17, .h = 18, .w = 23, .outC = 20, .padBegin = {0, 2}, .padEnd = {2, 1}, .type = F16}, "pads 0/2 2/1, odd channels"},
        {{.inC = 32, .h = 9, .w = 21, .outC = 24, .owned = false, .nhwc = true, .type = F16}, "bound weights (packed per execution)"},
        {{.inC = 24, .h = 11, .w = 14, .outC = 16, .owned = false, .paddedFilter = true, .type = F16}, "bound, padded filter strides"},
    };
    for (uint32_t flags : {0u, uint32_t(ExecutionFlagAllowHalfPrecisionComputation)})
        for (const auto& [p, name] : shapes) {
            ConvolutionDesc d = makeConv(p, name);
            for (const std::string& tile : winogradTiles(flags, d)) checkWinograd(d, tile, flags);
        }
    // fp32 weights and bias with fp16 activations: converted by the packing.
    ConvolutionDesc mixed = makeConv({.inC = 17, .outC = 20, .type = F16}, "mixed");
    mixed.filter = TensorDesc::make(F32, {20, 17, 3, 3}, TensorFlagOwnedByPlugin);
    mixed.bias = TensorDesc::make(F32, {20}, TensorFlagOwnedByPlugin);
    for (const std::string& tile : winogradTiles(0, mixed)) checkWinograd(mixed, tile, 0);
}

// Where Winograd F(2x2, 3x3) does not apply, a table entry naming it is ignored and the usual
// kernel runs (and matches the reference).
TEST_F(Convolution, WinogradDeclinesWhereItDoesNotApply) {
    if (skipWithoutFp16()) GTEST_SKIP() << "no fp16 on this device";
    const std::pair<ConvParams, const char*> shapes[] = {
        {{.inC = 16, .h = 13, .w = 17, .outC = 16, .strides = {2, 2}, .type = F16}, "stride 2"},
        {{.inC = 16, .outC = 16, .dilations = {2, 2}, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16}, "dilation 2"},
        {{.inC = 16, .outC = 16, .groups = 2, .type = F16}, "groups 2"},
        {{.inC = 16, .outC = 8, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16}, "5x5"},
        {{.inC = 8, .h = 5, .w = 6, .outC = 8, .transposed = true, .type = F16}, "transposed"},
        {{.inC = 16, .outC = 16, .type = F32}, "fp32"},
    };
    for (const auto& [p, name] : shapes)
        for (const char* tile : {"winograd_b4x8_n2", "winograd_b2x8_n2_w16_portable", "winograd_f4_b4x4_n1_w18_portable"})
            checkWinograd(makeConv(p, name), tile, 0, false);
}

// --- validation ---------------------------------------------------------------------------

TEST_F(Convolution, RejectsChannelMismatches) {
    ConvolutionDesc d = makeConv({.inC = 16, .outC = 8, .groups = 4}, "enc1");
    d.input.sizes[1] = 17;
    EXPECT_EQ(compileError(d), "convolution 'enc1': input channels 17 not divisible by groups 4");
    d = makeConv({.inC = 8, .outC = 8, .groups = 4}, "g");
    d.filter.sizes[0] = 6;
    EXPECT_EQ(compileError(d), "convolution 'g': filter output channels 6 not divisible by groups 4");
    d = makeConv({.inC = 8, .outC = 4}, "f");
    d.filter.sizes[1] = 7;
    EXPECT_EQ(compileError(d), "convolution 'f': filter [4, 7, 3, 3] has 7 input channels per group, expected input channels 8 / "
                               "groups 1 = 8");
    d = makeConv({.inC = 8, .outC = 4}, "o");
    d.output.sizes[1] = 5;
    EXPECT_EQ(compileError(d), "convolution 'o': output channels 5 do not match the 4 implied by filter [4, 8, 3, 3] and groups 1");
    d = makeConv({.inC = 8, .outC = 4, .transposed = true}, "t");
    d.filter.sizes[0] = 6;
    EXPECT_EQ(compileError(d), "convolution 't': transposed filter [6, 4, 3, 3] must start with the input channels 8 ([inC, outC/groups, "
                               "kH, kW])");
    d = makeConv({.batch = 2}, "b");
    d.output.sizes[0] = 1;
    EXPECT_EQ(compileError(d), "convolution 'b': output batch 1 differs from input batch 2");
}

TEST_F(Convolution, RejectsWrongOutputSize) {
    ConvolutionDesc d = makeConv({.h = 64, .w = 64, .strides = {2, 2}}, "enc1");
    d.output.sizes[2] = 31;
    EXPECT_EQ(compileError(d), "convolution 'enc1': output height 31 does not match the 32 implied by input 64, kernel 3, stride 2, "
                               "pads 1/1, dilation 1");
    d = makeConv({.h = 13, .w = 11, .kH = 9, .kW = 9, .strides = {2, 2}, .padBegin = {4, 4}, .padEnd = {4, 4}, .outputPadding = {1, 1},
                  .transposed = true},
                 "up");
    d.output.sizes[3] = 21;
    EXPECT_EQ(compileError(d), "convolution 'up': output width 21 does not match the 22 implied by input 11, kernel 9, stride 2, "
                               "pads 4/4, dilation 1, output padding 1");
    d = makeConv({.h = 4, .w = 4, .kH = 5, .kW = 5, .padBegin = {0, 0}, .padEnd = {0, 0}}, "big");
    d.output.sizes[2] = d.output.sizes[3] = 1;
    EXPECT_EQ(compileError(d), "convolution 'big': no valid output height for input 4, kernel 5, stride 1, pads 0/0, dilation 1 "
                               "(the kernel does not fit)");
}

TEST_F(Convolution, RejectsBadParameters) {
    ConvolutionDesc d = makeConv({}, "p");
    d.strides = {0, 1};
    EXPECT_EQ(compileError(d), "convolution 'p': strides must be non-zero, got 0x1");
    d = makeConv({}, "p");
    d.dilations = {1, 0};
    EXPECT_EQ(compileError(d), "convolution 'p': dilations must be non-zero, got 1x0");
    d = makeConv({}, "p");
    d.groups = 0;
    EXPECT_EQ(compileError(d), "convolution 'p': groups must be at least 1");
    d = makeConv({.strides = {2, 2}, .transposed = true}, "p");
    d.outputPadding = {0, 2};
    EXPECT_EQ(compileError(d), "convolution 'p': output padding 2 must be smaller than stride 2 (width)");
    d = makeConv({}, "p");
    d.outputPadding = {1, 0};
    EXPECT_EQ(compileError(d), "convolution 'p': output padding 1x0 is only valid for a transposed convolution");
    d = makeConv({.activation = softplus(0.0f)}, "p");
    EXPECT_EQ(compileError(d), "convolution 'p': softplus steepness (alpha) must not be 0");
    d = makeConv({}, "p");
    d.activation.type = ActivationType(99);
    EXPECT_EQ(compileError(d), "convolution 'p': unknown activation 99");
}

TEST_F(Convolution, RejectsBadTensors) {
    ConvolutionDesc d = makeConv({}, "r");
    d.filter = TensorDesc::make(F32, {5, 3, 9}, TensorFlagOwnedByPlugin);
    EXPECT_EQ(compileError(d), "convolution 'r': filter must be 4-D, got rank 3 [5, 3, 9]");
    d = makeConv({}, "r");
    d.input = TensorDesc::make(F32, {3, 13, 11});
    EXPECT_EQ(compileError(d), "convolution 'r': input must be 4-D, got rank 3 [3, 13, 11]");
    d = makeConv({}, "r");
    d.bias = TensorDesc::make(F32, {6});
    EXPECT_EQ(compileError(d), "convolution 'r': bias must be [5] or [1, 5, 1, 1] (the output channels), got [6]");
    d = makeConv({}, "r");
    d.bias = TensorDesc::make(F32, {5, 1});
    EXPECT_EQ(compileError(d), "convolution 'r': bias must be [5] or [1, 5, 1, 1] (the output channels), got [5, 1]");
    d = makeConv({}, "r");
    d.input.flags = TensorFlagOwnedByPlugin;
    EXPECT_EQ(compileError(d), "convolution 'r': input cannot be owned by the plugin (only filter and bias are weights)");
    d = makeConv({}, "r");
    d.output.flags = TensorFlagOwnedByPlugin;
    EXPECT_NE(compileError(d).find("convolution 'r'"), std::string::npos) << compileError(d);
    EXPECT_NE(compileError(d).find("only valid on inputs"), std::string::npos) << compileError(d);
    d = makeConv({}, "r");
    d.output = TensorDesc::strided(F32, {1, 5, 13, 11}, {0, 1, 0, 1});  // channels and columns alias: a race
    auto compiled = optest::device().compileOperator(d);
    ASSERT_FALSE(compiled.ok());
    EXPECT_EQ(compiled.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(compiled.error().message.find("convolution 'r' output"), std::string::npos) << compiled.error().message;
}

TEST_F(Convolution, RejectsFp16WithoutDeviceSupport) {
    // The message and code come from the shared tensor check; on devices with fp16 the same desc compiles.
    ConvolutionDesc d = makeConv({.type = F16}, "h");
    auto compiled = optest::device().compileOperator(d);
    if (optest::device().capabilities().fp16Storage) {
        EXPECT_TRUE(compiled.ok()) << compiled.error().message;
    } else {
        ASSERT_FALSE(compiled.ok());
        EXPECT_EQ(compiled.error().code, ErrorCode::Unsupported);
        EXPECT_NE(compiled.error().message.find("convolution 'h' input is fp16"), std::string::npos) << compiled.error().message;
    }
}

// --- plans (CPU only): kernel choice, dispatch limits at 4K, persistent layout -----------

detail::PlanContext fp16Context() {
    detail::PlanContext pc;
    pc.fp16Storage = true;
    return pc;
}

void expectDispatchLimits(const detail::Plan& plan) {
    for (const auto* launches : {&plan.execute, &plan.initialize})
        for (const detail::Launch& l : *launches)
            for (uint32_t g : l.groups) {
                EXPECT_GE(g, 1u);
                EXPECT_LE(g, 65535u);
            }
}

const char* kernelOf(const detail::Plan& plan) { return plan.pipelines[plan.execute.at(0).pipeline].debugName; }

TEST(ConvolutionPlan, Uhd4KTiledWithPackedWeights) {
    auto plan = detail::planConvolution(fp16Context(), makeConv({.inC = 3, .h = 2160, .w = 3840, .outC = 32}));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_STREQ(kernelOf(*plan), "conv2d_tiled");
    expectDispatchLimits(*plan);
    // Filter packed as [32/16][3*3*3][16] fp32 = 3456 bytes; the bias at the next 256-byte boundary.
    EXPECT_EQ(plan->persistentBytes, 3584u + 32 * 4);
    EXPECT_EQ(plan->initialize.size(), 2u);
}

TEST(ConvolutionPlan, Uhd4KGenericAndTransposed) {
    auto depthwise = detail::planConvolution(fp16Context(), makeConv({.inC = 32, .h = 2160, .w = 3840, .outC = 32, .groups = 32}));
    ASSERT_TRUE(depthwise.ok()) << depthwise.error().message;
    EXPECT_STREQ(kernelOf(*depthwise), "conv2d");
    expectDispatchLimits(*depthwise);
    auto upscale = detail::planConvolution(fp16Context(), makeConv({.inC = 32, .h = 1080, .w = 1920, .outC = 3, .kH = 9, .kW = 9,
                                                                    .strides = {2, 2}, .padBegin = {4, 4}, .padEnd = {4, 4},
                                                                    .outputPadding = {1, 1}, .transposed = true, .type = F16}));
    ASSERT_TRUE(upscale.ok()) << upscale.error().message;
    EXPECT_STREQ(kernelOf(*upscale), "conv2d");
    expectDispatchLimits(*upscale);
}

TEST(ConvolutionPlan, Fp16NeedsDeviceSupport) {
    detail::PlanContext noFp16;  // a device without 16-bit storage / shaderFloat16
    auto plan = detail::planConvolution(noFp16, makeConv({.type = F16}, "h"));
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(plan.error().message, "convolution 'h' input is fp16 but the device was created without 16-bit storage and shaderFloat16");
    ConvolutionDesc fp16Filter = makeConv({}, "h");
    fp16Filter.filter.dataType = F16;
    plan = detail::planConvolution(noFp16, fp16Filter);
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.error().code, ErrorCode::Unsupported);
    EXPECT_NE(plan.error().message.find("convolution 'h' filter is fp16"), std::string::npos) << plan.error().message;
}

TEST(ConvolutionPlan, PersistentLayoutFollowsOwnershipAndPrecision) {
    auto fp16 = detail::planConvolution(fp16Context(), makeConv({.type = F16}));
    ASSERT_TRUE(fp16.ok());
    EXPECT_EQ(fp16->persistentBytes, 1024u + 5 * 2);  // [1][27][16] fp16 = 864 bytes, bias at 1024
    auto bound = detail::planConvolution(fp16Context(), makeConv({.owned = false}));
    ASSERT_TRUE(bound.ok());
    EXPECT_EQ(bound->persistentBytes, 0u);
    EXPECT_TRUE(bound->initialize.empty());
    ConvolutionDesc biasOnly = makeConv({.owned = false});
    biasOnly.bias->flags = TensorFlagOwnedByPlugin;
    auto plan = detail::planConvolution(fp16Context(), biasOnly);
    ASSERT_TRUE(plan.ok());
    EXPECT_EQ(plan->persistentBytes, 5u * 4);
    EXPECT_EQ(plan->initialize.size(), 1u);
}

// A device offering the usual NVIDIA shapes, for plan checks that need no GPU.
Capabilities coopCaps() {
    Capabilities caps;
    caps.cooperativeMatrixNV = true;
    caps.cooperativeMatrixShapes = {{16, 16, 16, F16, F32}, {16, 16, 16, F16, F16}, {16, 8, 16, F16, F32}};
    caps.subgroupSize = 32;
    caps.maxComputeSharedMemoryBytes = 49152;
    return caps;
}

detail::PlanContext coopContext(const Capabilities& caps, bool enabled = true) {
    detail::PlanContext pc;
    pc.caps = &caps;
    pc.fp16Storage = true;
    pc.cooperativeMatrix = enabled;
    return pc;
}

// conv2d_coopmat wherever it can run (ExecutionFlagForceCooperativeMatrix): its configuration is
// checked on packed inputs that the heuristic gives to the implicit GEMM.
detail::PlanContext forcedCoopContext(const Capabilities& caps) {
    detail::PlanContext pc = coopContext(caps);
    pc.executionFlags = ExecutionFlagForceCooperativeMatrix;
    return pc;
}

uint32_t specOf(const detail::Plan& plan, uint32_t id) { return plan.pipelines[plan.execute.back().pipeline].specConstants.at(id); }
constexpr uint32_t kCoopModeId = 55, kCoopNFId = 59, kCoopNBlocksId = 60, kCoopNPadId = 61, kCoopKPadId = 64;
constexpr uint32_t kCoopTileHId = 56, kCoopMFId = 58, kCoopIcPadId = 62, kCoopDTileHId = 65, kCoopRawSmemId = 70, kCoopVecInId = 71,
                   kCoopVecOutId = 72;

TEST(ConvolutionPlan, CooperativeMatrixWhenAvailable) {
    Capabilities caps = coopCaps();
    ConvParams p{.inC = 64, .h = 1080, .w = 1920, .outC = 64, .type = F16};
    auto plan = detail::planConvolution(forcedCoopContext(caps), makeConv(p));
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_STREQ(plan->pipelines[plan->execute.back().pipeline].debugName, "conv2d_coopmat");
    EXPECT_EQ(specOf(*plan, kCoopModeId), 0u) << "64 channels: direct staging";
    EXPECT_EQ(specOf(*plan, kCoopNFId), 4u);
    expectDispatchLimits(*plan);
    // B matrix [9 taps * 64][64] fp16 = 73728 bytes, then the fp16 bias.
    EXPECT_EQ(plan->persistentBytes, 73728u + 64 * 2);
    ASSERT_EQ(plan->initialize.size(), 2u);
    EXPECT_STREQ(plan->pipelines[plan->initialize[0].pipeline].debugName, "pack_conv_coopmat");

    auto byDefault = detail::planConvolution(coopContext(caps), makeConv(p));
    ASSERT_TRUE(byDefault.ok());
    EXPECT_STREQ(kernelOf(*byDefault), "conv2d_igemm") << "unforced, 64 packed channels take the implicit GEMM";
    auto disabled = detail::planConvolution(coopContext(caps, false), makeConv(p));  // ExecutionFlagDisableCooperativeMatrix
    ASSERT_TRUE(disabled.ok());
    EXPECT_STREQ(kernelOf(*disabled), "conv2d_tiled");
    p.type = F32;
    auto fp32 = detail::planConvolution(coopContext(caps), makeConv(p));
    ASSERT_TRUE(fp32.ok());
    EXPECT_STREQ(kernelOf(*fp32), "conv2d_tiled") << "tensor cores take fp16 only";
    Capabilities noShape = caps;
    noShape.cooperativeMatrixShapes = {{16, 8, 8, F16, F32}, {16, 16, 16, F16, F16}};
    p.type = F16;
    auto other = detail::planConvolution(coopContext(noShape), makeConv(p));
    ASSERT_TRUE(other.ok());
    EXPECT_STREQ(kernelOf(*other), "conv2d_tiled") << "no 16x16x16 shape with fp32 accumulators";
}

// The fixed heuristic on packed (NCHW) fp16 inputs: images of a few channels to coopmat (its
// unfold-x fills a K slice with several taps) or the tiled kernel, 8 channels and more to the
// implicit GEMM, which was ahead on every such shape measured (bench/RESULTS.md, "Clock drift").
TEST(ConvolutionPlan, PackedInputsOfEightChannelsOrMoreTakeTheImplicitGemm) {
    Capabilities caps = coopCaps();
    auto kernel = [&](ConvParams p) {
        auto r = detail::planConvolution(coopContext(caps), makeConv(p));
        EXPECT_TRUE(r.ok()) << r.error().message;
        return std::string(r.ok() ? kernelOf(*r) : "");
    };
    EXPECT_EQ(kernel({.inC = 3, .h = 1080, .w = 1920, .outC = 32, .type = F16}), "conv2d_coopmat");
    EXPECT_EQ(kernel({.inC = 3, .h = 1080, .w = 1920, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16}),
              "conv2d_coopmat");
    EXPECT_EQ(kernel({.inC = 7, .h = 1080, .w = 1920, .outC = 16, .type = F16}), "conv2d_tiled")
        << "below 8 channels as before: 3 x 7 = 21 per kernel row, an im2col shape, which the tiled kernel takes";
    for (uint32_t inC : {8u, 9u, 10u, 16u, 32u, 64u})
        EXPECT_EQ(kernel({.inC = inC, .h = 1080, .w = 1920, .outC = 16, .type = F16}), "conv2d_igemm") << inC;
    // Forced, coopmat still takes them; a tuning table entry naming coopmat does too.
    auto forced = detail::planConvolution(forcedCoopContext(caps), makeConv({.inC = 16, .h = 1080, .w = 1920, .outC = 16, .type = F16}));
    ASSERT_TRUE(forced.ok());
    EXPECT_STREQ(kernelOf(*forced), "conv2d_coopmat");
}

TEST(ConvolutionPlan, CooperativeMatrixTilesAndVectorAccess) {
    Capabilities caps = coopCaps();
    auto plan = [&](const ConvParams& p, uint32_t flags = ExecutionFlagForceCooperativeMatrix) {
        detail::PlanContext pc = coopContext(caps);
        pc.executionFlags = flags;
        auto r = detail::planConvolution(pc, makeConv(p));
        EXPECT_TRUE(r.ok()) << r.error().message;
        EXPECT_STREQ(kernelOf(*r), "conv2d_coopmat");
        return std::move(*r);
    };
    // 64 outputs: 4 N fragments x 4 M fragments per subgroup; 32 or 12 outputs: 8 M fragments.
    auto wide = plan({.inC = 64, .h = 1080, .w = 1920, .outC = 64, .type = F16});
    EXPECT_EQ(specOf(wide, kCoopMFId), 4u);
    EXPECT_EQ(specOf(wide, kCoopTileHId), 8u);
    EXPECT_EQ(wide.execute.back().groups[1], 135u);
    for (uint32_t outC : {32u, 12u}) {
        auto narrow = plan({.inC = 64, .h = 1080, .w = 1920, .outC = outC, .type = F16});
        EXPECT_EQ(specOf(narrow, kCoopMFId), 8u) << outC;
        EXPECT_EQ(specOf(narrow, kCoopTileHId), 16u) << outC;
        EXPECT_EQ(narrow.execute.back().groups[1], 68u) << "ceil(1080 / 16)";
        expectDispatchLimits(narrow);
    }
    // Channels-last fp16 with 8-aligned channel runs: 16-byte accesses; otherwise per element.
    // (Every plan here is forced onto coopmat: by default these inputs, channels-last or with 8
    // channels or more, go to the shared-memory implicit GEMM.)
    auto nhwc = plan({.inC = 32, .h = 9, .w = 21, .outC = 24, .nhwc = true, .type = F16}, ExecutionFlagForceCooperativeMatrix);
    EXPECT_EQ(specOf(nhwc, kCoopVecInId), 1u);
    EXPECT_EQ(specOf(nhwc, kCoopVecOutId), 1u);
    auto nchw = plan({.inC = 32, .h = 9, .w = 21, .outC = 24, .type = F16});
    EXPECT_EQ(specOf(nchw, kCoopVecInId), 0u);
    EXPECT_EQ(specOf(nchw, kCoopVecOutId), 0u);
    auto odd = plan({.inC = 33, .h = 9, .w = 21, .outC = 20, .nhwc = true, .type = F16}, ExecutionFlagForceCooperativeMatrix);
    EXPECT_EQ(specOf(odd, kCoopVecInId), 0u) << "33 channels: runs not 8-aligned";
    EXPECT_EQ(specOf(odd, kCoopVecOutId), 0u) << "20 channels";
    // Forced im2col stages the raw input tile once when it fits: 17 channels x (8 + 2) x (32 + 2).
    auto im2col = plan({.inC = 17, .h = 1080, .w = 1920, .outC = 64, .type = F16}, ExecutionFlagForceCooperativeMatrix);
    EXPECT_EQ(specOf(im2col, kCoopModeId), 1u);
    EXPECT_EQ(specOf(im2col, kCoopRawSmemId), (17u * 10 * 34 + 7) / 8 * 8);
}

TEST(ConvolutionPlan, CooperativeMatrixModesAndFallbacks) {
    Capabilities caps = coopCaps();
    // Few input channels with kW x inC <= 32: unfold-x, K = kH x roundUp(kW x inC, 16).
    ConvolutionDesc first = makeConv({.inC = 3, .h = 1080, .w = 1920, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2},
                                      .padEnd = {2, 2}, .type = F16});
    auto unfolded = detail::planConvolution(coopContext(caps), first);
    ASSERT_TRUE(unfolded.ok()) << unfolded.error().message;
    EXPECT_STREQ(kernelOf(*unfolded), "conv2d_coopmat");
    EXPECT_EQ(specOf(*unfolded, kCoopModeId), 2u) << "5 x 3 = 15 per kernel row";
    EXPECT_EQ(specOf(*unfolded, kCoopIcPadId), 16u);
    EXPECT_EQ(specOf(*unfolded, kCoopDTileHId), 8u + 4) << "tile rows + 4 halo rows";
    EXPECT_EQ(unfolded->persistentBytes, 5u * 16 * 64 * 2 + 64 * 2) << "B matrix [5 x 16][64] fp16, then the bias";
    EXPECT_EQ(specOf(*unfolded, kCoopMFId), 4u) << "fp32 accumulators, 4 M fragments";
    auto rgb = detail::planConvolution(coopContext(caps), makeConv({.inC = 3, .outC = 32, .type = F16}));
    ASSERT_TRUE(rgb.ok());
    EXPECT_EQ(specOf(*rgb, kCoopModeId), 2u) << "3x3 RGB: 9 per kernel row";
    detail::PlanContext halfArith = coopContext(caps);
    halfArith.fp16Arithmetic = true;
    auto rgbHalf = detail::planConvolution(halfArith, makeConv({.inC = 3, .outC = 64, .type = F16}));
    ASSERT_TRUE(rgbHalf.ok());
    EXPECT_STREQ(kernelOf(*rgbHalf), "conv2d_coopmat") << "unfold-x keeps fp32 accumulators under fp16 arithmetic";
    EXPECT_EQ(specOf(*rgbHalf, kCoopMFId), 4u);
    auto ten = detail::planConvolution(coopContext(caps), makeConv({.inC = 10, .outC = 32, .type = F16}));
    ASSERT_TRUE(ten.ok());
    EXPECT_EQ(specOf(*ten, kCoopModeId), 0u) << "3 x 10 = 30 per kernel row: direct (unfold-x measured slower)";
    // More channels, direct staging too wasteful: im2col, which the tiled kernel takes unless forced.
    ConvolutionDesc gathered = makeConv({.inC = 17, .h = 1080, .w = 1920, .outC = 64, .type = F16});
    auto tiled = detail::planConvolution(coopContext(caps), gathered);
    ASSERT_TRUE(tiled.ok());
    EXPECT_STREQ(kernelOf(*tiled), "conv2d_igemm") << "17 channels: the implicit GEMM (ahead of coopmat from 9 channels up)";
    detail::PlanContext force = coopContext(caps);
    force.executionFlags = ExecutionFlagForceCooperativeMatrix;
    auto forced = detail::planConvolution(force, gathered);
    ASSERT_TRUE(forced.ok());
    EXPECT_STREQ(kernelOf(*forced), "conv2d_coopmat");
    EXPECT_EQ(specOf(*forced, kCoopModeId), 1u) << "17 channels: im2col";
    EXPECT_EQ(specOf(*forced, kCoopKPadId), 160u) << "K 153 padded once";
    auto dilated = detail::planConvolution(coopContext(caps), makeConv({.inC = 16, .h = 40, .w = 48, .outC = 5, .kH = 9, .kW = 9,
                                                                        .strides = {3, 4}, .dilations = {3, 4}, .padBegin = {0, 0},
                                                                        .padEnd = {0, 4}, .type = F16}));
    ASSERT_TRUE(dilated.ok());
    EXPECT_STREQ(kernelOf(*dilated), "conv2d_coopmat") << "the tiled kernel cannot take it";
    EXPECT_EQ(specOf(*dilated, kCoopModeId), 1u);
    auto wide = detail::planConvolution(forcedCoopContext(caps), makeConv({.inC = 33, .outC = 80, .kH = 1, .kW = 1, .padBegin = {0, 0},
                                                                     .padEnd = {0, 0}, .type = F16}));
    ASSERT_TRUE(wide.ok());
    EXPECT_EQ(specOf(*wide, kCoopNBlocksId), 2u);
    EXPECT_EQ(specOf(*wide, kCoopNPadId), 128u);
    // Bound filters are packed per execution into the temporary resource, before the convolution.
    auto bound = detail::planConvolution(forcedCoopContext(caps), makeConv({.inC = 32, .outC = 12, .owned = false, .type = F16}));
    ASSERT_TRUE(bound.ok());
    ASSERT_EQ(bound->execute.size(), 2u);
    EXPECT_STREQ(bound->pipelines[bound->execute[0].pipeline].debugName, "pack_conv_coopmat");
    EXPECT_TRUE(bound->execute[1].barrierBefore);
    EXPECT_EQ(bound->temporaryBytes, 9u * 32 * 16 * 2);
    EXPECT_EQ(specOf(*bound, kCoopNFId), 1u);
    // AllowHalfPrecisionComputation: fp16 accumulators, 8 M fragments with up to 4 N fragments.
    detail::PlanContext half = forcedCoopContext(caps);
    half.fp16Arithmetic = true;
    for (uint32_t outC : {64u, 32u, 12u}) {
        auto halfPlan = detail::planConvolution(half, makeConv({.inC = 32, .h = 1080, .w = 1920, .outC = outC, .type = F16}));
        ASSERT_TRUE(halfPlan.ok());
        EXPECT_STREQ(kernelOf(*halfPlan), "conv2d_coopmat_acc16") << outC;
        EXPECT_EQ(specOf(*halfPlan, kCoopMFId), 8u) << outC;
        EXPECT_EQ(specOf(*halfPlan, kCoopTileHId), 16u) << outC;
    }
    // When the 8-fragment tile does not fit shared memory, 4 fragments with fp32 accumulators.
    Capabilities smallSmem = caps;
    smallSmem.maxComputeSharedMemoryBytes = 16384;
    half.caps = &smallSmem;
    auto fallback = detail::planConvolution(half, makeConv({.inC = 32, .outC = 64, .type = F16}));
    ASSERT_TRUE(fallback.ok());
    EXPECT_STREQ(kernelOf(*fallback), "conv2d_coopmat");
    EXPECT_EQ(specOf(*fallback, kCoopMFId), 4u);
    half.caps = &caps;
    Capabilities wave64 = caps;
    wave64.subgroupSize = 64;
    auto wide64 = detail::planConvolution(coopContext(wave64), makeConv({.inC = 32, .outC = 32, .type = F16}));
    ASSERT_TRUE(wide64.ok());
    EXPECT_STREQ(kernelOf(*wide64), "conv2d_tiled") << "the epilogue needs subgroups of 32";
    // Not for tensor cores: groups, transposed, fp32 output.
    auto grouped = detail::planConvolution(coopContext(caps), makeConv({.inC = 32, .outC = 32, .groups = 2, .type = F16}));
    ASSERT_TRUE(grouped.ok());
    EXPECT_STREQ(kernelOf(*grouped), "conv2d");
    auto transposed = detail::planConvolution(coopContext(caps), makeConv({.inC = 32, .outC = 16, .strides = {2, 2}, .transposed = true,
                                                                           .type = F16}));
    ASSERT_TRUE(transposed.ok());
    EXPECT_STREQ(kernelOf(*transposed), "conv2d");
    ConvolutionDesc fp32Out = makeConv({.inC = 32, .outC = 32, .type = F16});
    fp32Out.output.dataType = F32;
    auto mixed = detail::planConvolution(coopContext(caps), fp32Out);
    ASSERT_TRUE(mixed.ok());
    EXPECT_STREQ(kernelOf(*mixed), "conv2d_tiled");
}

// The implicit GEMM's planning: channels-last inputs take it by default, every candidate fits
// shared memory and round-trips through its name, a tuning table entry is taken, fusions that
// need it restrict the tiles.
TEST(ConvolutionPlan, ImplicitGemmTilesCandidatesAndTuning) {
    Capabilities caps = coopCaps();
    caps.deviceName = "test gpu";
    caps.driverInfo = "driver 1";
    detail::PlanContext pc = coopContext(caps);
    ConvolutionDesc d = makeConv({.inC = 64, .h = 1080, .w = 1920, .outC = 64, .nhwc = true, .type = F16});
    auto plan = detail::planConvolution(pc, d);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_STREQ(plan->pipelines[plan->execute.back().pipeline].debugName, "conv2d_igemm");
    EXPECT_STREQ(plan->pipelines[plan->initialize[0].pipeline].debugName, "pack_conv_igemm");
    expectDispatchLimits(*plan);
    EXPECT_EQ(specOf(*plan, 88), 1u) << "VEC_IN";
    EXPECT_EQ(specOf(*plan, 89), 1u) << "VEC_OUT";
    EXPECT_EQ(specOf(*plan, 115), 1u) << "FRAG_STORE: 64 channels-last outputs, two N fragments per subgroup";
    detail::ConvolutionTuning t = detail::convolutionTuning(pc, d, {});
    EXPECT_EQ(t.key, "test gpu|driver 1|conv k3x3 s1x1 d1x1 in1x64v out64v");
    ASSERT_GE(t.candidates.size(), 4u);
    EXPECT_EQ(t.chosen, t.candidates[0]) << "the heuristic's tile is listed first";
    auto coop = std::find(t.candidates.begin(), t.candidates.end(), "coopmat");
    ASSERT_NE(coop, t.candidates.end());
    EXPECT_TRUE(std::all_of(coop + 1, t.candidates.end(), [](const std::string& c) { return c.starts_with("winograd_"); }))
        << "coopmat after the implicit-GEMM tiles; only Winograd tiles after it";
    for (const std::string& c : t.candidates) {
        SCOPED_TRACE(c);
        if (c == "coopmat" || c.starts_with("winograd_")) continue;  // Winograd: WinogradCandidatesAndDeclines
        auto tile = detail::IgemmTile::parse(c);
        ASSERT_TRUE(tile.has_value());
        EXPECT_EQ(tile->name(), c);
        auto layout = detail::igemmLayout(pc, d, detail::convolutionGeometry(d), {}, *tile);
        ASSERT_TRUE(layout.has_value());
        EXPECT_LE((layout->aSmem + layout->bSmem) * 16, caps.maxComputeSharedMemoryBytes);
        EXPECT_EQ(uint64_t(layout->groups[0]) * tile->fw * 16 >= 1920, true);
        EXPECT_FALSE(tile->acc16) << "fp16 accumulators only under AllowHalfPrecisionComputation";
    }
    EXPECT_FALSE(detail::IgemmTile::parse("igemm_t16x16_w4x2_f4x2_bogus").has_value());
    EXPECT_FALSE(detail::IgemmTile::parse("igemm_t15x16_w4x2_f4x2").has_value()) << "4 x 4 fragments are not 15 rows";

    // A table entry wins over the heuristic; an entry naming a tile that cannot run is ignored.
    auto table = std::make_shared<TuningTable>();
    table->set(t.key, {"coopmat", 1.0});
    pc.tuning = table;
    auto tuned = detail::planConvolution(pc, d);
    ASSERT_TRUE(tuned.ok());
    EXPECT_STREQ(kernelOf(*tuned), "conv2d_coopmat");
    table->set(t.key, {"igemm_t64x64_w8x8_f8x8", 1.0});
    EXPECT_EQ(detail::convolutionTuning(pc, d, {}).chosen, t.candidates[0]);
    pc.tuning = nullptr;

    detail::PlanContext half = coopContext(caps);
    half.fp16Arithmetic = true;
    detail::ConvolutionTuning h = detail::convolutionTuning(half, d, {});
    EXPECT_TRUE(std::any_of(h.candidates.begin(), h.candidates.end(), [](const std::string& c) { return c.ends_with("_a16"); }));
    EXPECT_NE(h.key, t.key);

    // Fusions past the depth-to-space: only implicit-GEMM tiles (pooling: rows paired in a subgroup).
    detail::ConvolutionFusion pool{.pooledOutput = optest::nhwc(F16, 1, 64, 540, 960)};
    detail::ConvolutionTuning pooled = detail::convolutionTuning(pc, d, pool);
    ASSERT_FALSE(pooled.candidates.empty());
    for (const std::string& c : pooled.candidates) {
        auto tile = detail::IgemmTile::parse(c);
        ASSERT_TRUE(tile.has_value()) << c;
        EXPECT_EQ(tile->fw, 1u) << c;
        EXPECT_EQ(tile->mf % 2, 0u) << c;
    }
    EXPECT_TRUE(detail::convolutionTakesFusion(pc, d, pool));
    // Fragment stores: 16 real channels per fragment, 16-byte rows, no remap in the store, a
    // residual read 1:1.
    auto fragStore = [&](const ConvolutionDesc& desc, const detail::ConvolutionFusion& f) {
        auto p = detail::planConvolution(pc, desc, f);
        EXPECT_TRUE(p.ok()) << p.error().message;
        return p.ok() ? specOf(*p, 115) : 2u;
    };
    ConvolutionDesc to32 = makeConv({.inC = 64, .h = 1080, .w = 1920, .outC = 32, .nhwc = true, .type = F16});
    EXPECT_EQ(fragStore(to32, {}), 1u) << "32 channels-last outputs: one N fragment per subgroup";
    detail::ConvolutionFusion pool32{.pooledOutput = optest::nhwc(F16, 1, 32, 540, 960)};
    EXPECT_EQ(fragStore(to32, pool32), 0u) << "pooled in the store";
    ConvolutionDesc narrow = makeConv({.inC = 64, .h = 64, .w = 64, .outC = 24, .nhwc = true, .type = F16});
    EXPECT_EQ(fragStore(narrow, {}), 0u) << "24 channels: the second fragment is half padding";
    ConvolutionDesc nchw = makeConv({.inC = 64, .h = 64, .w = 64, .outC = 32, .type = F16});
    EXPECT_EQ(fragStore(nchw, {}), 0u) << "NCHW output";
    detail::ConvolutionFusion same{.residual = optest::nhwc(F16, 1, 32, 1080, 1920), .residualScale = 1};
    EXPECT_EQ(fragStore(to32, same), 1u) << "a residual read 1:1";
    detail::ConvolutionFusion upsampled{.residual = optest::nhwc(F16, 1, 32, 540, 960), .residualScale = 2};
    EXPECT_EQ(fragStore(to32, upsampled), 0u) << "a residual read at half size";
    detail::ConvolutionFusion slopes32{.preluSlope = TensorDesc::make(DataType::Float32, {32}, TensorFlagOwnedByPlugin)};
    EXPECT_EQ(fragStore(to32, slopes32), 1u) << "PReLU";
    // More than two N fragments per subgroup (one subgroup across a 64-channel block) keep the patch.
    auto wholeBlock = detail::IgemmTile::parse("igemm_t8x16_w4x1_f2x4");
    ASSERT_TRUE(wholeBlock.has_value());
    auto wide = detail::igemmLayout(pc, d, detail::convolutionGeometry(d), {}, *wholeBlock);
    ASSERT_TRUE(wide.has_value());
    EXPECT_FALSE(wide->fragStore) << "four N fragments per subgroup";
    EXPECT_FALSE(detail::convolutionTakesFusion(coopContext(caps, false), d, pool)) << "no tensor cores";
    // Image inputs (3 channels, NCHW) keep coopmat's unfold-x unless a fusion needs the implicit GEMM.
    ConvolutionDesc rgb = makeConv({.inC = 3, .h = 540, .w = 960, .outC = 64, .type = F16});
    auto rgbPlan = detail::planConvolution(pc, rgb);
    ASSERT_TRUE(rgbPlan.ok());
    EXPECT_STREQ(kernelOf(*rgbPlan), "conv2d_coopmat");
    detail::ConvolutionFusion slopes{.preluSlope = TensorDesc::make(DataType::Float32, {64}, TensorFlagOwnedByPlugin)};
    auto fused = detail::planConvolution(pc, rgb, slopes);
    ASSERT_TRUE(fused.ok()) << fused.error().message;
    EXPECT_STREQ(fused->pipelines[fused->execute.back().pipeline].debugName, "conv2d_igemm");
    EXPECT_EQ(specOf(*fused, 88), 0u) << "3 channels NCHW: per-element loads";
    detail::ConvolutionFusion badSlopes{.preluSlope = TensorDesc::make(DataType::Float32, {63}, TensorFlagOwnedByPlugin)};
    auto bad = detail::planConvolution(pc, rgb, badSlopes);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("fused PReLU slope"), std::string::npos) << bad.error().message;
}

// A 1x1 projection fused into the implicit GEMM's epilogue (graph compilation's foldProjection):
// the stored tensor is the projection's output, its weights are packed at initialization, only
// tiles holding every channel of their pixels in one N block qualify, and a projection that is
// not a pointwise convolution of the output is an error that names it.
TEST(ConvolutionPlan, ProjectionInTheImplicitGemmEpilogue) {
    Capabilities caps = coopCaps();
    caps.deviceName = "test gpu";
    caps.driverInfo = "driver 1";
    detail::PlanContext pc = coopContext(caps);
    ConvolutionDesc d = makeConv({.inC = 32, .h = 1080, .w = 1920, .outC = 32, .nhwc = true, .type = F16, .activation = relu()});
    auto projection = [&](uint32_t outC, bool nhwc) {
        ConvParams p{.inC = 32, .h = 1080, .w = 1920, .outC = outC, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .nhwc = nhwc, .type = F16};
        return detail::ConvolutionFusion{.projection = makeConv(p, "head")};
    };
    constexpr uint32_t kFragStoreId = 115, kProjCId = 116, kProjWOffsetId = 117, kProjBOffsetId = 118, kOutStrideWId = 31;
    detail::ConvolutionFusion head = projection(32, true);
    ASSERT_TRUE(detail::convolutionTakesFusion(pc, d, head));
    auto plan = detail::planConvolution(pc, d, head);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_STREQ(kernelOf(*plan), "conv2d_igemm");
    expectDispatchLimits(*plan);
    EXPECT_EQ(specOf(*plan, kProjCId), 32u);
    EXPECT_EQ(specOf(*plan, kFragStoreId), 1u) << "32 channels-last projection outputs: whole fragments";
    EXPECT_EQ(specOf(*plan, kOutStrideWId), 32u) << "the stored tensor is the projection's";
    EXPECT_LT(specOf(*plan, kProjWOffsetId) * 16, plan->persistentBytes) << "W2^T in the persistent resource";
    EXPECT_NE(specOf(*plan, kProjBOffsetId), UINT32_MAX) << "the projection's bias";
    bool packed = false;
    for (const detail::Launch& l : plan->initialize) packed |= std::string(plan->pipelines[l.pipeline].debugName) == "pack_conv_projection";
    EXPECT_TRUE(packed);
    detail::ConvolutionTuning t = detail::convolutionTuning(pc, d, head);
    EXPECT_NE(t.key.find(" proj32v"), std::string::npos) << t.key;
    for (const std::string& c : t.candidates) {
        SCOPED_TRACE(c);
        auto tile = detail::IgemmTile::parse(c);
        ASSERT_TRUE(tile.has_value()) << "only implicit-GEMM tiles";
        auto layout = detail::igemmLayout(pc, d, detail::convolutionGeometry(d), head, *tile);
        ASSERT_TRUE(layout.has_value());
        EXPECT_EQ(tile->wgN, 1u) << "each subgroup holds every channel of its pixels";
        EXPECT_EQ(tile->nf, 2u);
        EXPECT_EQ(layout->nBlocks, 1u);
        EXPECT_LE((layout->aSmem + layout->bSmem) * 16, caps.maxComputeSharedMemoryBytes);
    }
    // Three NCHW output channels (an RGB head): stored element by element through the patch.
    auto rgb = detail::planConvolution(pc, d, projection(3, false));
    ASSERT_TRUE(rgb.ok()) << rgb.error().message;
    EXPECT_EQ(specOf(*rgb, kProjCId), 3u);
    EXPECT_EQ(specOf(*rgb, kFragStoreId), 0u);
    // 128 channels take two N blocks: no tile holds a pixel's every channel.
    ConvolutionDesc wide = makeConv({.inC = 32, .h = 64, .w = 64, .outC = 128, .nhwc = true, .type = F16});
    ConvParams wideHead{.inC = 128, .h = 64, .w = 64, .outC = 16, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .nhwc = true, .type = F16};
    EXPECT_FALSE(detail::convolutionTakesFusion(pc, wide, {.projection = makeConv(wideHead, "head")}));
    // More than two fragments per subgroup, or more than 64 projection outputs: declined.
    ConvolutionDesc to64 = makeConv({.inC = 32, .h = 64, .w = 64, .outC = 64, .nhwc = true, .type = F16});
    ConvParams head64{.inC = 64, .h = 64, .w = 64, .outC = 16, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .nhwc = true, .type = F16};
    EXPECT_FALSE(detail::convolutionTakesFusion(pc, to64, {.projection = makeConv(head64, "head")}));
    EXPECT_FALSE(detail::convolutionTakesFusion(pc, d, projection(80, true)));
    EXPECT_TRUE(detail::convolutionTakesFusion(pc, d, projection(64, true)));
    // 24 channels: the second fragment would be half padding.
    ConvolutionDesc narrow = makeConv({.inC = 32, .h = 64, .w = 64, .outC = 24, .nhwc = true, .type = F16});
    ConvParams narrowHead{.inC = 24, .h = 64, .w = 64, .outC = 16, .kH = 1, .kW = 1, .padBegin = {0, 0}, .padEnd = {0, 0}, .nhwc = true, .type = F16};
    EXPECT_FALSE(detail::convolutionTakesFusion(pc, narrow, {.projection = makeConv(narrowHead, "head")}));
    EXPECT_FALSE(detail::convolutionTakesFusion(coopContext(caps, false), d, head)) << "no tensor cores";
    // Not a pointwise convolution of the output: named.
    detail::ConvolutionFusion bad = projection(32, true);
    bad.projection->filter = TensorDesc::make(F16, {32, 32, 3, 3}, TensorFlagOwnedByPlugin);
    bad.projection->padBegin = bad.projection->padEnd = {1, 1};
    auto rejected = detail::planConvolution(pc, d, bad);
    ASSERT_FALSE(rejected.ok());
    EXPECT_NE(rejected.error().message.find("projection 'head'"), std::string::npos) << rejected.error().message;
    EXPECT_NE(rejected.error().message.find("not a 1x1 convolution"), std::string::npos) << rejected.error().message;
}

// Winograd's planning: listed as candidates for 3x3 stride-1 fp16 shapes only, taken from a
// table entry (never by the heuristic), its weights transformed at initialization, declined for
// the fusions it does not take.
TEST(ConvolutionPlan, WinogradCandidatesAndDeclines) {
    Capabilities caps = coopCaps();
    caps.deviceName = "test gpu";
    caps.driverInfo = "driver 1";
    detail::PlanContext pc = coopContext(caps);
    ConvolutionDesc d = makeConv({.inC = 64, .h = 1080, .w = 1920, .outC = 64, .nhwc = true, .type = F16});
    detail::ConvolutionTuning t = detail::convolutionTuning(pc, d, {});
    std::vector<std::string> wino;
    std::copy_if(t.candidates.begin(), t.candidates.end(), std::back_inserter(wino), [](const std::string& c) { return c.starts_with("winograd_"); });
    EXPECT_EQ(wino, (std::vector<std::string>{"winograd_b4x8_n4_w16", "winograd_b2x8_n2", "winograd_f4_b4x4_n4_w18",
                                              "winograd_f4_b4x4_n2_w9"}));
    EXPECT_TRUE(t.chosen.starts_with("igemm_")) << "the heuristic never picks Winograd";
    for (const std::string& c : wino) {
        auto tile = detail::WinogradTile::parse(c);
        ASSERT_TRUE(tile.has_value()) << c;
        EXPECT_EQ(tile->name(), c);
        auto l = detail::winogradLayout(pc, d, detail::convolutionGeometry(d), {}, *tile);
        ASSERT_TRUE(l.has_value()) << c;
        EXPECT_LE(l->sharedBytes(), caps.maxComputeSharedMemoryBytes);
    }
    EXPECT_FALSE(detail::WinogradTile::parse("winograd_b3x3_n2").has_value()) << "9 blocks are not whole M fragments";
    EXPECT_FALSE(detail::WinogradTile::parse("winograd_b4x8_n2_bogus").has_value());
    EXPECT_FALSE(detail::WinogradTile::parse("winograd_f4_b4x4_n2_w8").has_value()) << "36 positions over 8 subgroups";
    EXPECT_FALSE(detail::WinogradTile::parse("winograd_b4x8_n2_w8").has_value()) << "8 subgroups are written without a suffix";
    EXPECT_FALSE(detail::WinogradTile::parse("winograd_f4_b4x4_n2_w").has_value());
    EXPECT_EQ(detail::WinogradTile::parse("winograd_f4_b4x4_n2_w12_portable")->positions(), 36u);
    detail::PlanContext half = coopContext(caps);
    half.fp16Arithmetic = true;
    auto h = detail::convolutionTuning(half, d, {}).candidates;
    EXPECT_EQ(std::count_if(h.begin(), h.end(), [](const std::string& c) { return c.starts_with("winograd_") && c.ends_with("_a16"); }), 3);

    auto table = std::make_shared<TuningTable>();
    table->set(t.key, {"winograd_b4x8_n4_w16", 1.0});
    pc.tuning = table;
    auto plan = detail::planConvolution(pc, d);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    EXPECT_STREQ(kernelOf(*plan), "conv2d_winograd");
    EXPECT_STREQ(plan->pipelines[plan->initialize[0].pipeline].debugName, "pack_conv_winograd");
    expectDispatchLimits(*plan);
    EXPECT_EQ(plan->execute.back().groups[0], 120u) << "1920 / 16 tiles, one N block of 64 channels";
    EXPECT_EQ(plan->pipelines[plan->execute.back().pipeline].specConstants.at(0), 512u) << "16 subgroups";
    EXPECT_EQ(plan->execute.back().groups[1], 135u);
    EXPECT_EQ(specOf(*plan, 81), 1u) << "VEC2_IN";
    EXPECT_TRUE(detail::convolutionUsesTensorCores(pc, d)) << "the graph keeps its tensors channels-last";
    EXPECT_EQ(plan->persistentBytes, 4u * 16 * 16 * 64 * 2 + 64 * 2) << "U: 4 slices x 16 positions x [16][64] fp16, then the bias";
    // PReLU rides along; the other fusions decline (the implicit GEMM takes them).
    detail::ConvolutionFusion slopes{.preluSlope = TensorDesc::make(DataType::Float32, {64}, TensorFlagOwnedByPlugin)};
    auto fused = detail::planConvolution(pc, d, slopes);
    ASSERT_TRUE(fused.ok()) << fused.error().message;
    EXPECT_STREQ(kernelOf(*fused), "conv2d_winograd");
    EXPECT_NE(specOf(*fused, 80), UINT32_MAX) << "PRELU_OFFSET";
    detail::ConvolutionFusion pool{.pooledOutput = optest::nhwc(F16, 1, 64, 540, 960)};
    const std::vector<std::string> poolCandidates = detail::convolutionTuning(pc, d, pool).candidates;  // one list: begin and end of the same vector
    EXPECT_TRUE(std::none_of(poolCandidates.begin(), poolCandidates.end(), [](const std::string& c) { return c.starts_with("winograd_"); }));
    auto pooled = detail::planConvolution(pc, d, pool);
    ASSERT_TRUE(pooled.ok());
    EXPECT_STREQ(kernelOf(*pooled), "conv2d_igemm");
    detail::ConvolutionFusion residual{.residual = d.output};
    auto res = detail::planConvolution(pc, d, residual);
    ASSERT_TRUE(res.ok());
    EXPECT_STREQ(kernelOf(*res), "conv2d_igemm");
    // F(4x4, 3x3): 16x16-pixel tiles on 18 subgroups, 36 positions of U.
    auto f4Table = std::make_shared<TuningTable>();
    f4Table->set(t.key, {"winograd_f4_b4x4_n4_w18", 1.0});
    detail::PlanContext f4Context = pc;
    f4Context.tuning = f4Table;
    auto f4 = detail::planConvolution(f4Context, d);
    ASSERT_TRUE(f4.ok()) << f4.error().message;
    EXPECT_STREQ(kernelOf(*f4), "conv2d_winograd4");
    EXPECT_STREQ(f4->pipelines[f4->initialize[0].pipeline].debugName, "pack_conv_winograd4");
    expectDispatchLimits(*f4);
    EXPECT_EQ(f4->execute.back().groups[0], 120u) << "1920 / 16";
    EXPECT_EQ(f4->execute.back().groups[1], 68u) << "1080 / 16, the last tile partial";
    EXPECT_EQ(f4->pipelines[f4->execute.back().pipeline].specConstants.at(0), 576u) << "18 subgroups";
    EXPECT_EQ(f4->persistentBytes, 4u * 36 * 16 * 64 * 2 + 64 * 2) << "U: 4 slices x 36 positions x [16][64] fp16, then the bias";
    // Without tensor cores the entry is declined (only the portable build, which tests name, runs there).
    detail::PlanContext none = coopContext(caps, false);
    none.tuning = table;
    auto declined = detail::planConvolution(none, d);
    ASSERT_TRUE(declined.ok());
    EXPECT_STREQ(kernelOf(*declined), "conv2d_tiled");
    EXPECT_TRUE(detail::convolutionTuning(none, d, {}).candidates.empty());
    // Shapes it does not apply to: no candidates.
    for (const ConvParams& p : {ConvParams{.inC = 64, .outC = 64, .strides = {2, 2}, .type = F16},
                                ConvParams{.inC = 64, .outC = 64, .dilations = {2, 2}, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16},
                                ConvParams{.inC = 64, .outC = 64, .kH = 5, .kW = 5, .padBegin = {2, 2}, .padEnd = {2, 2}, .type = F16},
                                ConvParams{.inC = 64, .outC = 64, .groups = 2, .type = F16}}) {
        auto c = detail::convolutionTuning(coopContext(caps), makeConv(p), {}).candidates;
        EXPECT_TRUE(std::none_of(c.begin(), c.end(), [](const std::string& n) { return n.starts_with("winograd_"); }));
    }
}

}  // namespace

// Graph compilation folds a depth-to-space into the store; a mismatched one is named, not run.
TEST(ConvolutionPlan, DepthToSpaceInTheStoreMustMatchTheOutput) {
    detail::PlanContext pc;
    ConvolutionDesc conv = makeConv({.inC = 8, .h = 9, .w = 7, .outC = 12, .type = F32}, "tail");
    DepthToSpaceDesc d2s{.name = "shuffle", .input = conv.output, .output = TensorDesc::make(F32, {1, 3, 18, 14}), .blockSize = 2};
    auto ok = detail::planConvolution(pc, conv, detail::ConvolutionFusion{.depthToSpace = d2s});
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    EXPECT_EQ(ok->pipelines[ok->execute.back().pipeline].specConstants.at(73), 2u) << "D2S_BLOCK";
    d2s.output = TensorDesc::make(F32, {1, 3, 18, 15});
    auto bad = detail::planConvolution(pc, conv, detail::ConvolutionFusion{.depthToSpace = d2s});
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("convolution 'tail': depth-to-space 'shuffle' (block 2"), std::string::npos) << bad.error().message;
    d2s.output = TensorDesc::make(F32, {1, 3, 18, 14});
    d2s.blockSize = 3;
    EXPECT_FALSE(detail::planConvolution(pc, conv, detail::ConvolutionFusion{.depthToSpace = d2s}).ok()) << "12 channels do not split into 3 x 3 blocks";
}
