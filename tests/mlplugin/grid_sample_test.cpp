// Grid sample on the GPU against the CPU reference: bilinear and nearest, every padding mode,
// both alignCorners values; grids inside, around and far outside the input (and exactly on pixel
// centres and half-pixel ties), odd and 1-pixel sizes, batches, strided and NHWC layouts,
// fp32 / fp16 / mixed; outputs poisoned, so unwritten pixels fail. Plus hand-computed values,
// huge and non-finite grid values, and the validation errors.
#include "op_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace mlplugin;
using optest::compileError;
using optest::nhwc;
using optest::paddedRows;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class GridSample : public testsupport::VulkanTest {};

GridSampleDesc gridSample(const TensorDesc& in, const TensorDesc& grid, const TensorDesc& out, GridSampleMode mode,
                          GridSamplePadding padding, bool alignCorners) {
    return {.name = "gs", .input = in, .grid = grid, .output = out, .mode = mode, .padding = padding, .alignCorners = alignCorners};
}

const GridSamplePadding kPaddings[] = {GridSamplePadding::Zeros, GridSamplePadding::Border, GridSamplePadding::Reflection};

std::string label(GridSampleMode m, GridSamplePadding p, bool align) {
    return std::string(m == GridSampleMode::Linear ? "linear" : "nearest") + " padding " + std::to_string(int(p)) +
           (align ? " aligned" : "");
}

// Grid values in [-range, range): range > 1 reaches outside the input (padding), several times
// its size for the reflection's repeated flips.
void checkRandomGrid(const GridSampleDesc& d, double range, uint32_t seed) {
    std::vector<HostTensor> inputs{optest::randomTensor(d.input, seed), optest::randomTensor(d.grid, seed + 1, -range, range)};
    optest::checkOperator(d, inputs);
}

struct Shape {
    uint32_t n, c, h, w, outH, outW;
};
// Odd sizes, a 1-pixel input (reflection's degenerate span), 1-pixel output, more channels than
// a warp, downsampling and upsampling grids.
const Shape kShapes[] = {{2, 3, 5, 7, 4, 9}, {1, 1, 1, 1, 3, 2}, {1, 2, 1, 6, 5, 1}, {1, 17, 9, 4, 6, 11}, {3, 2, 13, 11, 2, 3}};

TEST_F(GridSample, EveryModePaddingAndAlignmentFp32) {
    for (GridSampleMode mode : {GridSampleMode::Linear, GridSampleMode::Nearest})
        for (GridSamplePadding padding : kPaddings)
            for (bool align : {false, true})
                for (const Shape& s : kShapes) {
                    SCOPED_TRACE(label(mode, padding, align) + " " + std::to_string(s.h) + "x" + std::to_string(s.w) + " -> " +
                                 std::to_string(s.outH) + "x" + std::to_string(s.outW));
                    GridSampleDesc d = gridSample(TensorDesc::make(F32, {s.n, s.c, s.h, s.w}), TensorDesc::make(F32, {s.n, s.outH, s.outW, 2}),
                                                  TensorDesc::make(F32, {s.n, s.c, s.outH, s.outW}), mode, padding, align);
                    checkRandomGrid(d, 0.9, 3);  // inside
                    checkRandomGrid(d, 3.5, 5);  // mostly outside
                }
}

// Grid positions exactly on pixel centres, on half-pixel ties (nearest rounds half to even) and on
// the borders: the reference and the kernel must pick the same pixels.
TEST_F(GridSample, PixelCentresAndTies) {
    const uint32_t h = 4, w = 6, outH = 5, outW = 13;
    for (GridSampleMode mode : {GridSampleMode::Linear, GridSampleMode::Nearest})
        for (GridSamplePadding padding : kPaddings)
            for (bool align : {false, true}) {
                SCOPED_TRACE(label(mode, padding, align));
                GridSampleDesc d = gridSample(TensorDesc::make(F32, {1, 2, h, w}), TensorDesc::make(F32, {1, outH, outW, 2}),
                                              TensorDesc::make(F32, {1, 2, outH, outW}), mode, padding, align);
                HostTensor grid = optest::randomTensor(d.grid, 1);
                // x on a half-pixel lattice from -1.5 to 4.5 pixels (exact in fp32), y on pixel centres and edges.
                for (uint32_t y = 0; y < outH; ++y)
                    for (uint32_t x = 0; x < outW; ++x) {
                        double px = -1.5 + 0.5 * x, py = -0.5 + 0.5 * y;
                        double gx = align ? px / (w - 1) * 2 - 1 : (2 * px + 1) / w - 1;
                        double gy = align ? py / (h - 1) * 2 - 1 : (2 * py + 1) / h - 1;
                        grid.data[(y * outW + x) * 2] = double(float(gx));
                        grid.data[(y * outW + x) * 2 + 1] = double(float(gy));
                    }
                optest::checkOperator(d, {optest::randomTensor(d.input, 2), grid});
            }
}

TEST_F(GridSample, StridedLayouts) {
    for (GridSampleMode mode : {GridSampleMode::Linear, GridSampleMode::Nearest}) {
        SCOPED_TRACE(int(mode));
        // NHWC input, a grid with padded rows and its (x, y) pairs apart, padded output rows.
        GridSampleDesc d = gridSample(nhwc(F32, 2, 5, 7, 9), TensorDesc::strided(F32, {2, 6, 4, 2}, {80, 12, 3, 40}),
                                      paddedRows(F32, 2, 5, 6, 4, 3), mode, GridSamplePadding::Border, false);
        checkRandomGrid(d, 1.2, 7);
        d.output = nhwc(F32, 2, 5, 6, 4);
        d.padding = GridSamplePadding::Reflection;
        checkRandomGrid(d, 2.5, 8);
    }
}

TEST_F(GridSample, Fp16AndMixed) {
    REQUIRE_FP16();
    for (GridSampleMode mode : {GridSampleMode::Linear, GridSampleMode::Nearest})
        for (GridSamplePadding padding : kPaddings) {
            SCOPED_TRACE(label(mode, padding, false));
            checkRandomGrid(gridSample(TensorDesc::make(F16, {2, 3, 9, 7}), TensorDesc::make(F16, {2, 5, 6, 2}),
                                       TensorDesc::make(F16, {2, 3, 5, 6}), mode, padding, false),
                            1.5, 11);
            checkRandomGrid(gridSample(TensorDesc::make(F16, {1, 4, 5, 5}), TensorDesc::make(F32, {1, 7, 3, 2}),
                                       TensorDesc::make(F32, {1, 4, 7, 3}), mode, padding, true),
                            1.5, 12);
            checkRandomGrid(gridSample(nhwc(F32, 1, 6, 8, 3), TensorDesc::make(F16, {1, 4, 4, 2}), nhwc(F16, 1, 6, 4, 4), mode, padding, false),
                            1.5, 13);
        }
}

// A frame-sized warp: 64 channels, 61 x 67 (not multiples of the local size).
TEST_F(GridSample, LargerWarp) {
    GridSampleDesc d = gridSample(TensorDesc::make(F32, {1, 64, 61, 67}), TensorDesc::make(F32, {1, 61, 67, 2}),
                                  TensorDesc::make(F32, {1, 64, 61, 67}), GridSampleMode::Linear, GridSamplePadding::Border, false);
    checkRandomGrid(d, 1.05, 17);
}

// Hand-computed values on a 4x4 image holding 0..15.
TEST_F(GridSample, KnownValues) {
    GridSampleDesc d = gridSample(TensorDesc::make(F32, {1, 1, 4, 4}), TensorDesc::make(F32, {1, 1, 4, 2}),
                                  TensorDesc::make(F32, {1, 1, 1, 4}), GridSampleMode::Linear, GridSamplePadding::Zeros, false);
    HostTensor x{d.input, {}};
    for (int i = 0; i < 16; ++i) x.data.push_back(i);
    // (x, y): the top-left corner, the centre, a point between pixels, and one half outside.
    HostTensor g{d.grid, {-1.0, -1.0, 0.0, 0.0, -0.25, 0.5, 1.5, 0.0}};
    auto want = referenceEvaluate(d, {x, g});
    ASSERT_TRUE(want.ok()) << want.error().message;
    // (-1,-1) -> pixel (-0.5,-0.5): a quarter of pixel 0. Centre (1.5,1.5): (5+6+9+10)/4 = 7.5.
    // (-0.25, 0.5) -> (1.0, 2.5): (9 + 13) / 2 = 11. (1.5, 0) -> (4.5, 1.5): outside in x -> 0.
    EXPECT_EQ((*want)[0].data, (std::vector<double>{0.0, 7.5, 11.0, 0.0}));
    auto got = optest::runOnGpu(d, {x, g});
    ASSERT_EQ(got.size(), 1u);
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(got[0].data[i], (*want)[0].data[i], 1e-5) << i;

    d.padding = GridSamplePadding::Border;
    want = referenceEvaluate(d, {x, g});
    ASSERT_TRUE(want.ok());
    // Clamped: (0,0) -> 0; (3, 1.5) -> (7 + 11) / 2 = 9.
    EXPECT_EQ((*want)[0].data, (std::vector<double>{0.0, 7.5, 11.0, 9.0}));
    d.padding = GridSamplePadding::Reflection;
    want = referenceEvaluate(d, {x, g});
    ASSERT_TRUE(want.ok());
    // (-0.5,-0.5) reflects about -0.5 onto itself, then clamps to (0,0); 4.5 reflects about 3.5 to 2.5.
    EXPECT_EQ((*want)[0].data, (std::vector<double>{0.0, 7.5, 11.0, (6.0 + 7.0 + 10.0 + 11.0) / 4}));
    d.mode = GridSampleMode::Nearest;
    d.padding = GridSamplePadding::Zeros;
    want = referenceEvaluate(d, {x, g});
    ASSERT_TRUE(want.ok());
    // (-0.5,-0.5) rounds half to even: (0, 0) -> 0; (1.5, 1.5) -> (2, 2) = 10; (1, 2.5) -> (1, 2) = 9.
    EXPECT_EQ((*want)[0].data, (std::vector<double>{0.0, 10.0, 9.0, 0.0}));
}

// Huge, infinite and NaN grid values read nothing (0 with zero padding) instead of faulting.
TEST_F(GridSample, HugeAndNonFiniteGridValuesReadNothing) {
    for (GridSampleMode mode : {GridSampleMode::Linear, GridSampleMode::Nearest}) {
        GridSampleDesc d = gridSample(TensorDesc::make(F32, {1, 2, 3, 3}), TensorDesc::make(F32, {1, 1, 4, 2}),
                                      TensorDesc::make(F32, {1, 2, 1, 4}), mode, GridSamplePadding::Zeros, false);
        HostTensor g{d.grid, {1e30, 0.0, -1e30, 1e30, 0.0, -3e38, std::nan(""), INFINITY}};
        optest::checkOperator(d, {optest::randomTensor(d.input, 3), g});
    }
}

TEST_F(GridSample, ValidationErrors) {
    const TensorDesc in = TensorDesc::make(F32, {2, 3, 5, 7});
    const TensorDesc grid = TensorDesc::make(F32, {2, 4, 6, 2});
    const TensorDesc out = TensorDesc::make(F32, {2, 3, 4, 6});
    auto ok = gridSample(in, grid, out, GridSampleMode::Linear, GridSamplePadding::Zeros, false);
    EXPECT_EQ(compileError(ok), "<compiled>");
    auto bad = ok;
    bad.grid = TensorDesc::make(F32, {2, 4, 6, 3});
    EXPECT_EQ(compileError(bad), "grid_sample 'gs': grid [2,4,6,3] must end in 2 (an x, y pair per output pixel)");
    bad = ok;
    bad.grid = TensorDesc::make(F32, {1, 4, 6, 2});
    EXPECT_EQ(compileError(bad), "grid_sample 'gs': grid batch 1 differs from the input batch 2");
    bad = ok;
    bad.output = TensorDesc::make(F32, {2, 3, 6, 4});
    EXPECT_EQ(compileError(bad), "grid_sample 'gs': output sizes [2,3,6,4] differ from the expected [2,3,4,6]");
    bad = ok;
    bad.input = TensorDesc::make(F32, {2, 3, 5, 7, 1});
    EXPECT_EQ(compileError(bad), "grid_sample 'gs': input rank is 5, expected 4");
    bad = ok;
    bad.mode = GridSampleMode(7);
    EXPECT_EQ(compileError(bad), "grid_sample 'gs': unknown mode 7");
    bad = ok;
    bad.padding = GridSamplePadding(3);
    EXPECT_EQ(compileError(bad), "grid_sample 'gs': unknown padding 3");
    bad = ok;
    bad.grid.sizes[1] = 0;
    EXPECT_EQ(compileError(bad), "grid_sample 'gs' grid: size of dim 1 is 0");
}

}  // namespace
