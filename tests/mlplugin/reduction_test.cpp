// Reductions and softmax on the GPU against the CPU reference: every op over many axis sets,
// short rows (one invocation each) and long rows (one workgroup each), argmax/argmin ties
// resolved to the first occurrence (checked exactly), strides, fp16, numerically large softmax
// inputs, and validation errors.
#include "op_test.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace mlplugin;
using optest::compileError;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class Reduction : public testsupport::VulkanTest {};


TensorDesc reducedSizes(const TensorDesc& input, uint32_t axesMask, DataType type) {
    TensorDesc out = input;
    out.dataType = type;
    out.hasStrides = false;
    for (uint32_t i = 0; i < input.rank; ++i)
        if ((axesMask >> i) & 1u) out.sizes[i] = 1;
    return out;
}

ReduceDesc reduce(ReduceOp op, const TensorDesc& input, uint32_t axesMask, DataType outType = F32) {
    ReduceDesc d;
    d.name = "r";
    d.op = op;
    d.input = input;
    d.axesMask = axesMask;
    d.output = reducedSizes(input, axesMask, outType);
    return d;
}

SoftmaxDesc softmax(const TensorDesc& x, uint32_t axesMask, bool logSoftmax = false);

const ReduceOp kAllOps[] = {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Max, ReduceOp::Min,
                            ReduceOp::L2, ReduceOp::SumSquare, ReduceOp::ArgMax, ReduceOp::ArgMin, ReduceOp::Prod};

// Uniform inputs in [-1, 1); for products, in [0.97, 1.03] with random signs, so rows of
// thousands of elements neither underflow nor overflow.
void checkReduce(const ReduceDesc& d) {
    if (d.op != ReduceOp::Prod) return optest::checkOperator(d);
    HostTensor x = optest::randomTensor(d.input, 5, -1, 1);
    for (double& v : x.data) v = (v < 0 ? -1 : 1) * (0.97 + std::fabs(v) * 0.06);
    optest::checkOperator(d, {x});
}

TEST_F(Reduction, EveryOpOverManyAxisSets) {
    const TensorDesc x = TensorDesc::make(F32, {2, 5, 6, 7});
    for (ReduceOp op : kAllOps)
        for (uint32_t mask : {0b1000u, 0b0010u, 0b1100u, 0b0101u, 0b1111u}) {
            SCOPED_TRACE("op " + std::to_string(uint32_t(op)) + " axesMask " + std::to_string(mask));
            checkReduce(reduce(op, x, mask));
        }
}

// 6-D to 8-D inputs with alternating reduced dims: collapsed loops of more than 5 dims, whose
// outer dims are specialization constants (short rows per invocation and long rows per
// workgroup).
TEST_F(Reduction, RanksSixToEight) {
    const TensorDesc x6 = TensorDesc::make(F32, {2, 3, 2, 3, 2, 3});
    const TensorDesc x8 = TensorDesc::make(F32, {2, 3, 2, 3, 2, 3, 2, 3});
    const TensorDesc x8long = TensorDesc::make(F32, {2, 7, 1, 9, 2, 5, 1, 3});
    for (ReduceOp op : kAllOps) {
        SCOPED_TRACE("op " + std::to_string(uint32_t(op)));
        checkReduce(reduce(op, x6, 0b101010));
        checkReduce(reduce(op, x8, 0b01010101));
        checkReduce(reduce(op, x8, 0b10100110));
        checkReduce(reduce(op, x8long, 0b01101010));
    }
    optest::checkOperator(softmax(x8, 0b10010110));
    optest::checkOperator(softmax(x8long, 0b01101010, true));
}

TEST_F(Reduction, LongRowsPerWorkgroup) {
    const TensorDesc x = TensorDesc::make(F32, {1, 3, 37, 53});  // 1961 elements per row
    for (ReduceOp op : kAllOps) {
        SCOPED_TRACE("op " + std::to_string(uint32_t(op)));
        checkReduce(reduce(op, x, 0b1100));
    }
}

// Values on a coarse grid so rows hold many equal maxima/minima; indices compared exactly.
void checkArgExactly(const ReduceDesc& d) {
    HostTensor input = optest::randomTensor(d.input, 11, -1, 1);
    for (double& v : input.data) v = std::round(v * 2) / 2;
    std::vector<HostTensor> inputs{input};
    auto got = optest::runOnGpu(d, inputs);
    auto want = referenceEvaluate(d, inputs);
    ASSERT_TRUE(want.ok());
    ASSERT_EQ(got.size(), 1u);
    for (uint64_t i = 0; i < d.output.elementCount(); ++i) ASSERT_EQ(got[0].data[i], (*want)[0].data[i]) << "output " << i;
}

TEST_F(Reduction, VeryLongRowsSplitIntoChunks) {
    // Rows above 8192 elements: partials per chunk, then a merge per row.
    const TensorDesc x = TensorDesc::make(F32, {2, 3, 97, 101});  // 9797 per row: 3 uneven chunks
    for (ReduceOp op : kAllOps) {
        SCOPED_TRACE("op " + std::to_string(uint32_t(op)));
        checkReduce(reduce(op, x, 0b1100));
    }
    optest::checkOperator(reduce(ReduceOp::Mean, x, 0b1111));  // a single row of 58782
}

TEST_F(Reduction, ArgMaxArgMinTiesGoToFirstOccurrence) {
    for (ReduceOp op : {ReduceOp::ArgMax, ReduceOp::ArgMin}) {
        checkArgExactly(reduce(op, TensorDesc::make(F32, {3, 9, 4}), 0b010));         // short rows
        checkArgExactly(reduce(op, TensorDesc::make(F32, {2, 3, 20, 30}), 0b1110));   // long rows across lanes
        checkArgExactly(reduce(op, TensorDesc::make(F32, {4, 6, 5}), 0b101));         // non-adjacent dims
        checkArgExactly(reduce(op, TensorDesc::make(F32, {2, 100, 100}), 0b110));     // chunks merged across launches
    }
}

TEST_F(Reduction, StridedTensorsAndOddShapes) {
    ReduceDesc nhwc = reduce(ReduceOp::Mean, TensorDesc::strided(F32, {2, 5, 3, 7}, {105, 1, 35, 5}), 0b0010);  // over C of NHWC
    nhwc.output = TensorDesc::strided(F32, {2, 1, 3, 7}, {64, 64, 8, 1});                                    // padded output
    optest::checkOperator(nhwc);
    optest::checkOperator(reduce(ReduceOp::Sum, TensorDesc::make(F32, {1}), 0b1));
    optest::checkOperator(reduce(ReduceOp::Max, TensorDesc::make(F32, {33}), 0b1));
    optest::checkOperator(reduce(ReduceOp::L2, TensorDesc::make(F32, {2, 3, 1, 5, 17}), 0b10110));
    // A broadcast input (stride 0) still reduces over every addressed element.
    optest::checkOperator(reduce(ReduceOp::Sum, TensorDesc::strided(F32, {4, 6}, {1, 0}), 0b10));
}

TEST_F(Reduction, Fp16) {
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    optest::checkOperator(reduce(ReduceOp::Mean, TensorDesc::make(F16, {2, 5, 9, 9}), 0b1100));
    optest::checkOperator(reduce(ReduceOp::Max, TensorDesc::make(F16, {2, 5, 9, 9}), 0b0010, F16));
    optest::checkOperator(reduce(ReduceOp::SumSquare, TensorDesc::make(F32, {3, 40}), 0b10, F16));
    checkArgExactly(reduce(ReduceOp::ArgMax, TensorDesc::make(F16, {3, 50}), 0b10));
}

SoftmaxDesc softmax(const TensorDesc& x, uint32_t axesMask, bool logSoftmax) {
    SoftmaxDesc d;
    d.name = "sm";
    d.input = x;
    d.output = x;
    d.axesMask = axesMask;
    d.logSoftmax = logSoftmax;
    return d;
}

TEST_F(Reduction, SoftmaxAndLogSoftmax) {
    for (bool log : {false, true}) {
        SCOPED_TRACE(log ? "log-softmax" : "softmax");
        optest::checkOperator(softmax(TensorDesc::make(F32, {2, 5, 3, 7}), 0b0010, log));  // over C: short rows
        optest::checkOperator(softmax(TensorDesc::make(F32, {3, 301}), 0b10, log));        // long rows
        optest::checkOperator(softmax(TensorDesc::make(F32, {2, 3, 6, 7}), 0b1100, log));
        optest::checkOperator(softmax(TensorDesc::make(F32, {2, 3, 6, 7}), 0b0101, log));
    }
}

TEST_F(Reduction, SoftmaxLongRowsSplitIntoChunks) {
    // Rows above 8192 elements: (max, sum) per chunk, then a merge per chunk.
    for (bool log : {false, true}) {
        SoftmaxDesc d = softmax(TensorDesc::make(F32, {2, 3, 97, 101}), 0b1100, log);
        optest::checkOperator(d, optest::randomInputs(d, 8, -30, 30));  // chunk maxima differ
    }
}

TEST_F(Reduction, SoftmaxIsStableForLargeInputs) {
    // exp(100) overflows fp32: only the max-subtracted form stays finite.
    for (bool log : {false, true}) {
        SoftmaxDesc d = softmax(TensorDesc::make(F32, {4, 50}), 0b10, log);
        optest::checkOperator(d, optest::randomInputs(d, 5, -100, 100));
    }
}

TEST_F(Reduction, SoftmaxStridedAndFp16) {
    SoftmaxDesc d = softmax(TensorDesc::strided(F32, {1, 5, 4, 3}, {60, 1, 15, 5}), 0b0010);  // over C of NHWC
    d.output = TensorDesc::make(F32, {1, 5, 4, 3});
    optest::checkOperator(d);
    if (!optest::fp16Supported()) return;
    optest::checkOperator(softmax(TensorDesc::make(F16, {2, 17, 5}), 0b010, true));
    SoftmaxDesc mixed = softmax(TensorDesc::make(F16, {2, 100}), 0b10);
    mixed.output = TensorDesc::make(F32, {2, 100});
    optest::checkOperator(mixed);
}

// --- validation ---------------------------------------------------------------------------

TEST_F(Reduction, RejectsBadDescs) {
    ReduceDesc r = reduce(ReduceOp::Sum, TensorDesc::make(F32, {2, 5, 6}), 0b010);
    r.output = TensorDesc::make(F32, {2, 5, 6});
    EXPECT_EQ(compileError(r), "reduce 'r': output sizes [2,5,6] should be [2,1,6] (input [2,5,6] with the axesMask dims reduced to 1)");
    r.output = TensorDesc::make(F32, {2, 6});
    EXPECT_EQ(compileError(r), "reduce 'r': output sizes [2,6] should be [2,1,6] (input [2,5,6] with the axesMask dims reduced to 1)");
    r = reduce(ReduceOp::Sum, TensorDesc::make(F32, {2, 5, 6}), 0);
    EXPECT_EQ(compileError(r), "reduce 'r': axesMask is empty (name at least one dim)");
    r.axesMask = 0b1001;
    EXPECT_EQ(compileError(r), "reduce 'r': axesMask 9 names dims beyond the input's rank 3");
    r = reduce(ReduceOp::ArgMax, TensorDesc::make(F32, {3, 2049}), 0b10, F16);
    EXPECT_EQ(compileError(r), "reduce 'r': argmax over 2049 elements into an fp16 output: indices above 2048 would not be exact");
    r = reduce(ReduceOp::ArgMax, TensorDesc::make(F32, {3, 2048}), 0b10, F16);
    EXPECT_EQ(compileError(r), "<compiled>");
    r = reduce(ReduceOp(42), TensorDesc::make(F32, {4}), 1);
    EXPECT_EQ(compileError(r), "reduce 'r': unknown reduce operation 42");

    SoftmaxDesc s = softmax(TensorDesc::make(F32, {2, 5}), 0b10);
    s.output = TensorDesc::make(F32, {2, 4});
    EXPECT_EQ(compileError(s), "softmax 'sm': input sizes [2,5] differ from output sizes [2,4]");
    s = softmax(TensorDesc::make(F32, {2, 5}), 0b100);
    EXPECT_EQ(compileError(s), "softmax 'sm': axesMask 4 names dims beyond the input's rank 2");
}

}  // namespace

namespace {

// More than 65535 rows, each a workgroup: the groups spread over y (detail::linearGroups).
TEST_F(Reduction, ManyLongRowsSpreadOverY) {
    optest::checkOperator(reduce(ReduceOp::ArgMin, TensorDesc::make(F32, {70001, 33}), 0b10));
}

}  // namespace
