// The harness itself: the comparison must catch NaN (poisoned, unwritten outputs), look only at
// addressed elements, and random inputs must be deterministic, non-zero and representable.
#include "framework_fixture.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlplugin;

namespace {

TEST(OpHarness, RelativeL2CatchesNaNAndIgnoresGaps) {
    // [2, 2] with a row stride of 3: element offsets 0, 1, 3, 4; offset 2 is padding.
    TensorDesc desc = TensorDesc::strided(DataType::Float32, {2, 2}, {3, 1});
    HostTensor want{desc, {1, 2, 99, 3, 4}};
    HostTensor got = want;
    got.data[2] = NAN;  // padding: not compared
    EXPECT_EQ(optest::relativeL2(got, want), 0.0);
    got.data[3] = NAN;  // an unwritten (poisoned) element
    EXPECT_TRUE(std::isinf(optest::relativeL2(got, want)));
    got = want;
    got.data[4] = 4.3;
    EXPECT_NEAR(optest::relativeL2(got, want), 0.3 / std::sqrt(30.0), 1e-12);
}

TEST(OpHarness, RandomTensorsAreDeterministicNonZeroAndRepresentable) {
    TensorDesc half = TensorDesc::make(DataType::Float16, {3, 50});
    HostTensor a = optest::randomTensor(half, 5), b = optest::randomTensor(half, 5), c = optest::randomTensor(half, 6);
    EXPECT_EQ(a.data, b.data);
    EXPECT_NE(a.data, c.data);
    for (double v : a.data) {
        EXPECT_NE(v, 0.0);
        EXPECT_EQ(v, roundToHalf(v));
        EXPECT_GE(v, -1.0);
        EXPECT_LT(v, 1.0);
    }
    HostTensor f = optest::randomTensor(TensorDesc::make(DataType::Float32, {64}), 1, 2.0, 3.0);
    for (double v : f.data) EXPECT_EQ(v, double(float(v)));
}

}  // namespace
