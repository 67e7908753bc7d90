// Bicubic resample (ResampleMode::Cubic, ONNX Resize mode "cubic") on the GPU against the CPU
// reference on fresh random data: every coordinate transform, exclude_outside off and on, the
// kernel coefficients -0.75 (PyTorch, ONNX's default) and -0.5 (Catmull-Rom), up and down
// scales (integer, fractional, from sizes, 1-pixel input and output), fp32, fp16 and mixed,
// strided layouts; the reference against hand-computed weights; the validation errors.
#include "op_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace mlplugin;
using optest::compileError;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class ResampleCubic : public testsupport::VulkanTest {};

ResampleDesc cubic(const TensorDesc& in, const TensorDesc& out, CoordinateTransform t, float a, bool excludeOutside,
                   std::array<float, 2> scales = {0, 0}) {
    ResampleDesc d;
    d.name = "bicubic";
    d.input = in;
    d.output = out;
    d.mode = ResampleMode::Cubic;
    d.transform = t;
    d.cubicCoeffA = a;
    d.excludeOutside = excludeOutside;
    d.scales = scales;
    return d;
}

const CoordinateTransform kTransforms[] = {CoordinateTransform::HalfPixel, CoordinateTransform::AlignCorners,
                                           CoordinateTransform::Asymmetric, CoordinateTransform::PytorchHalfPixel,
                                           CoordinateTransform::HalfPixelSymmetric};

struct Shapes {
    uint32_t inH, inW, outH, outW;
    std::array<float, 2> scales;
};

// 7x5 -> 17x13 (sizes, awkward ratios), x2 and x3 (given scales), x0.5 down, x1.7 (6 * 1.7 =
// 10.2 -> 10, 5 * 1.7 = 8.5 -> 8: the resized length is not the output size), a 1-pixel output
// (align-corners / pytorch-half-pixel special cases) and a 1-pixel input (every tap clamped or
// excluded but the centre one).
const Shapes kShapes[] = {
    {7, 5, 17, 13, {0, 0}}, {4, 6, 8, 12, {2.0f, 2.0f}}, {5, 4, 15, 12, {3.0f, 3.0f}}, {10, 8, 5, 4, {0.5f, 0.5f}},
    {6, 5, 10, 8, {1.7f, 1.7f}}, {5, 3, 1, 1, {0, 0}}, {1, 1, 3, 2, {0, 0}},
};

std::string label(CoordinateTransform t, float a, bool exclude) {
    return "transform " + std::to_string(int(t)) + " a " + std::to_string(a) + " exclude_outside " + std::to_string(exclude);
}

// fp32 carries the reference's weights to ~1e-7; fp16 storage keeps ~3 decimal digits.
optest::RunOptions tolerance(DataType out) { return {.tolerance = out == F16 ? 2e-3 : 1e-5}; }

void checkEveryShape(CoordinateTransform t, float a, bool exclude, DataType inType, DataType outType, uint32_t seed) {
    for (const Shapes& s : kShapes) {
        SCOPED_TRACE(std::to_string(s.inH) + "x" + std::to_string(s.inW) + " -> " + std::to_string(s.outH) + "x" + std::to_string(s.outW));
        optest::checkOperator(cubic(TensorDesc::make(inType, {2, 3, s.inH, s.inW}), TensorDesc::make(outType, {2, 3, s.outH, s.outW}), t,
                                    a, exclude, s.scales),
                              tolerance(outType), seed++);
    }
}

TEST_F(ResampleCubic, EveryTransformCoefficientAndExcludeOutside) {
    uint32_t seed = 11;
    for (CoordinateTransform t : kTransforms)
        for (float a : {-0.75f, -0.5f})
            for (bool exclude : {false, true}) {
                SCOPED_TRACE(label(t, a, exclude));
                checkEveryShape(t, a, exclude, F32, F32, seed);
                seed += 100;
            }
}

TEST_F(ResampleCubic, Fp16AndMixed) {
    REQUIRE_FP16();
    uint32_t seed = 5000;
    for (CoordinateTransform t : kTransforms)
        for (bool exclude : {false, true}) {
            SCOPED_TRACE(label(t, -0.75f, exclude));
            checkEveryShape(t, -0.75f, exclude, F16, F16, seed += 100);
        }
    checkEveryShape(CoordinateTransform::AlignCorners, -0.5f, false, F16, F32, seed += 100);
    checkEveryShape(CoordinateTransform::HalfPixel, -0.75f, true, F32, F16, seed += 100);
}

TEST_F(ResampleCubic, StridedLayouts) {
    REQUIRE_FP16();
    optest::checkOperator(cubic(optest::paddedRows(F32, 2, 5, 7, 9, 3), optest::nhwc(F32, 2, 5, 14, 18), CoordinateTransform::HalfPixel,
                                -0.75f, false),
                          tolerance(F32), 77);
    optest::checkOperator(cubic(optest::nhwc(F16, 1, 17, 9, 6), optest::paddedRows(F16, 1, 17, 5, 4, 1), CoordinateTransform::PytorchHalfPixel,
                                -0.5f, true),
                          tolerance(F16), 78);
}

// Values far from the [-1, 1] the harness draws: the kernel's negative lobes over- and
// undershoot at edges, which must come out the same on both sides.
TEST_F(ResampleCubic, LargeValuesAndSharpEdges) {
    ResampleDesc d = cubic(TensorDesc::make(F32, {1, 2, 6, 6}), TensorDesc::make(F32, {1, 2, 13, 11}), CoordinateTransform::AlignCorners,
                           -0.75f, false);
    HostTensor x{d.input, std::vector<double>(d.input.elementCount())};
    for (size_t i = 0; i < x.data.size(); ++i) x.data[i] = (i / 3) % 2 ? 500.0 : -500.0;  // 3-wide stripes
    optest::checkOperator(d, {x}, tolerance(F32));
}

// A 2-pixel row [0, 1] upsampled x2 with half-pixel centres: output 0 sits at -0.25, so floor
// -1, fraction 0.75, taps -2, -1, 0, 1 at distances 1.75, 0.75, 0.25, 1.25. Only tap 1 reads a 1:
// the output is W(1.25) = ((a*1.25 - 5a)*1.25 + 8a)*1.25 - 4a = -0.10546875 for a = -0.75. With
// exclude_outside the taps -2 and -1 drop out: W(1.25) / (W(0.25) + W(1.25)) =
// -0.10546875 / (0.87890625 - 0.10546875) = -3/22.
TEST_F(ResampleCubic, HandComputedWeights) {
    for (bool exclude : {false, true}) {
        ResampleDesc d = cubic(TensorDesc::make(F32, {1, 1, 1, 2}), TensorDesc::make(F32, {1, 1, 1, 4}), CoordinateTransform::HalfPixel,
                               -0.75f, exclude);
        HostTensor x{d.input, {0, 1}};
        auto want = referenceEvaluate(d, {x});
        ASSERT_TRUE(want.ok()) << want.error().message;
        double expected0 = exclude ? -3.0 / 22.0 : -0.10546875;
        EXPECT_NEAR((*want)[0].data[0], expected0, 1e-12);
        EXPECT_NEAR((*want)[0].data[3], 1 - expected0, 1e-12) << "the mirror image of output 0";
        auto got = optest::runOnGpu(d, {x});
        ASSERT_EQ(got.size(), 1u);
        EXPECT_NEAR(got[0].data[0], expected0, 1e-6);
        EXPECT_NEAR(got[0].data[3], 1 - expected0, 1e-6);
    }
}

TEST_F(ResampleCubic, ValidationErrors) {
    const TensorDesc in = TensorDesc::make(F32, {1, 3, 4, 6});
    const TensorDesc out = TensorDesc::make(F32, {1, 3, 8, 12});
    EXPECT_EQ(compileError(cubic(in, out, CoordinateTransform::HalfPixel, INFINITY, false)),
              "resample 'bicubic': cubicCoeffA is inf, expected a finite number");
    EXPECT_EQ(compileError(cubic(in, TensorDesc::make(F32, {1, 3, 8, 11}), CoordinateTransform::HalfPixel, -0.75f, false, {2.0f, 2.0f})),
              "resample 'bicubic': output sizes [1,3,8,11] differ from the expected [1,3,8,12]");
    EXPECT_EQ(compileError(cubic(TensorDesc::make(F32, {3, 4, 6}), TensorDesc::make(F32, {3, 8, 12}), CoordinateTransform::HalfPixel, -0.75f,
                                 false)),
              "resample 'bicubic': input rank is 3, expected 4");
    ResampleDesc bad = cubic(in, out, CoordinateTransform::HalfPixel, -0.75f, false);
    bad.mode = ResampleMode(3);
    EXPECT_EQ(compileError(bad), "resample 'bicubic': unknown mode 3");
    // The coefficient only matters for cubic.
    ResampleDesc linear = cubic(in, out, CoordinateTransform::HalfPixel, NAN, true);
    linear.mode = ResampleMode::Linear;
    EXPECT_EQ(compileError(linear), "<compiled>");
}

}  // namespace
