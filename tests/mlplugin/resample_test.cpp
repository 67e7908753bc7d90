// Resample on the GPU against the CPU reference: nearest (every rounding mode) and bilinear,
// every coordinate transform, integer and fractional up/down scales, explicit scales and scales
// from sizes, odd sizes, padded rows and NHWC-by-strides layouts, fp32/fp16/mixed, and the
// validation errors.
#include "op_test.h"

#include <gtest/gtest.h>

#include <string>

using namespace mlplugin;
using optest::compileError;
using optest::nhwc;
using optest::paddedRows;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class Resample : public testsupport::VulkanTest {};





ResampleDesc resample(const TensorDesc& in, const TensorDesc& out, ResampleMode mode, CoordinateTransform t,
                      std::array<float, 2> scales = {0, 0}, NearestRounding r = NearestRounding::RoundPreferFloor) {
    ResampleDesc d;
    d.name = "rs";
    d.input = in;
    d.output = out;
    d.mode = mode;
    d.transform = t;
    d.rounding = r;
    d.scales = scales;
    return d;
}

const CoordinateTransform kTransforms[] = {CoordinateTransform::HalfPixel, CoordinateTransform::AlignCorners,
                                           CoordinateTransform::Asymmetric, CoordinateTransform::PytorchHalfPixel,
                                           CoordinateTransform::HalfPixelSymmetric};
const NearestRounding kRoundings[] = {NearestRounding::RoundPreferFloor, NearestRounding::RoundPreferCeil, NearestRounding::Floor,
                                      NearestRounding::Ceil};

struct Shapes {
    uint32_t inH, inW, outH, outW;
    std::array<float, 2> scales;
};

// 2x up, 0.5x down (rounding ties under half-pixel), 1.5x and 0.75x with explicit scales,
// scales from odd sizes (5/3, 4/7), and a 1-pixel output (align-corners/pytorch special cases).
const Shapes kShapes[] = {
    {4, 5, 8, 10, {0, 0}},       {8, 10, 4, 5, {0, 0}},   {6, 4, 9, 6, {1.5f, 1.5f}}, {8, 7, 6, 5, {0.75f, 0.75f}},
    {3, 7, 5, 4, {0, 0}},        {5, 3, 1, 1, {0, 0}},    {1, 1, 3, 2, {0, 0}},
};

void checkEveryShape(ResampleMode mode, CoordinateTransform t, NearestRounding r, DataType inType, DataType outType) {
    for (const Shapes& s : kShapes) {
        SCOPED_TRACE(std::to_string(s.inH) + "x" + std::to_string(s.inW) + " -> " + std::to_string(s.outH) + "x" + std::to_string(s.outW));
        optest::checkOperator(resample(TensorDesc::make(inType, {2, 3, s.inH, s.inW}), TensorDesc::make(outType, {2, 3, s.outH, s.outW}),
                                       mode, t, s.scales, r));
    }
}

TEST_F(Resample, NearestEveryTransformAndRounding) {
    for (CoordinateTransform t : kTransforms)
        for (NearestRounding r : kRoundings) {
            SCOPED_TRACE("transform " + std::to_string(int(t)) + " rounding " + std::to_string(int(r)));
            checkEveryShape(ResampleMode::Nearest, t, r, F32, F32);
        }
}

TEST_F(Resample, BilinearEveryTransform) {
    for (CoordinateTransform t : kTransforms) {
        SCOPED_TRACE("transform " + std::to_string(int(t)));
        checkEveryShape(ResampleMode::Linear, t, NearestRounding::RoundPreferFloor, F32, F32);
    }
}

TEST_F(Resample, Fp16AndMixed) {
    REQUIRE_FP16();
    for (ResampleMode mode : {ResampleMode::Nearest, ResampleMode::Linear}) {
        SCOPED_TRACE(int(mode));
        checkEveryShape(mode, CoordinateTransform::HalfPixel, NearestRounding::RoundPreferFloor, F16, F16);
        checkEveryShape(mode, CoordinateTransform::AlignCorners, NearestRounding::RoundPreferCeil, F16, F32);
        checkEveryShape(mode, CoordinateTransform::Asymmetric, NearestRounding::Floor, F32, F16);
        checkEveryShape(mode, CoordinateTransform::HalfPixelSymmetric, NearestRounding::RoundPreferFloor, F16, F16);
    }
}

// ONNX's resized length for align_corners / pytorch_half_pixel: input * scale, not the output
// size, when a given scale does not give a whole size (4 * 0.6 = 2.4 -> 2 outputs, the second at
// 1 * 3 / 1.4 = 2.142857 in the input: 1 + 2.142857 on a 1,2,3,4 row).
TEST_F(Resample, AlignCornersUsesTheResizedLength) {
    ResampleDesc d = resample(TensorDesc::make(F32, {1, 1, 1, 4}), TensorDesc::make(F32, {1, 1, 1, 2}), ResampleMode::Linear,
                              CoordinateTransform::AlignCorners, {1.0f, 0.6f});
    HostTensor x{d.input, {1, 2, 3, 4}};
    auto want = referenceEvaluate(d, {x});
    ASSERT_TRUE(want.ok()) << want.error().message;
    EXPECT_NEAR((*want)[0].data[1], 1 + 3.0 / 1.4, 1e-6);
    auto got = optest::runOnGpu(d, {x});
    ASSERT_EQ(got.size(), 1u);
    EXPECT_NEAR(got[0].data[1], 1 + 3.0 / 1.4, 1e-5);
}

TEST_F(Resample, StridedLayouts) {
    REQUIRE_FP16();
    for (ResampleMode mode : {ResampleMode::Nearest, ResampleMode::Linear}) {
        SCOPED_TRACE(int(mode));
        optest::checkOperator(resample(paddedRows(F32, 2, 5, 7, 9, 3), nhwc(F32, 2, 5, 14, 18), mode, CoordinateTransform::HalfPixel));
        optest::checkOperator(resample(nhwc(F16, 1, 17, 9, 6), paddedRows(F16, 1, 17, 5, 4, 1), mode,
                                       CoordinateTransform::PytorchHalfPixel));
    }
}

TEST_F(Resample, ValidationErrors) {
    const TensorDesc in = TensorDesc::make(F32, {1, 3, 4, 6});
    EXPECT_EQ(compileError(resample(in, TensorDesc::make(F32, {1, 3, 8, 10}), ResampleMode::Nearest, CoordinateTransform::HalfPixel,
                                    {2.0f, 2.0f})),
              "resample 'rs': output sizes [1,3,8,10] differ from the expected [1,3,8,12]");
    EXPECT_EQ(compileError(resample(in, TensorDesc::make(F32, {1, 4, 8, 12}), ResampleMode::Linear, CoordinateTransform::HalfPixel)),
              "resample 'rs': output sizes [1,4,8,12] differ from the expected [1,3,8,12]");
    EXPECT_EQ(compileError(resample(in, TensorDesc::make(F32, {1, 3, 8, 12}), ResampleMode::Linear, CoordinateTransform::HalfPixel,
                                    {-2.0f, 2.0f})),
              "resample 'rs': scales[0] is -2.000000, expected a positive number (or 0)");
    EXPECT_EQ(compileError(resample(TensorDesc::make(F32, {3, 4, 6}), TensorDesc::make(F32, {3, 8, 12}), ResampleMode::Linear,
                                    CoordinateTransform::HalfPixel)),
              "resample 'rs': input rank is 3, expected 4");
    ResampleDesc bad = resample(in, in, ResampleMode::Linear, CoordinateTransform::HalfPixel);
    bad.transform = CoordinateTransform(9);
    EXPECT_EQ(compileError(bad), "resample 'rs': unknown coordinate transform 9");
}

}  // namespace
