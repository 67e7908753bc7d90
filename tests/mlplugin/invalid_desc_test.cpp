// Descs that the fuzz targets (fuzz/, docs/RELIABILITY.md) found crashing or misplanned, and their
// neighbours: each is now a clear error. CPU only: shape inference (GraphDesc::addNode) and
// compileOperatorOnCpu, which runs every check compileOperator makes without a device.
#include "compiled_operator.h"
#include "graph/graph_plan.h"
#include "mlplugin/graph.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mlplugin;

namespace {

TensorDesc f32(std::initializer_list<uint32_t> s) { return TensorDesc::make(DataType::Float32, s); }

Capabilities lavapipeLike() {
    Capabilities caps;
    caps.fp16Storage = caps.fp16Arithmetic = true;
    caps.subgroupSize = 8;
    caps.maxComputeSharedMemoryBytes = 32768;
    caps.maxStorageBufferRange = 134217728;
    caps.minStorageBufferOffsetAlignment = 16;
    return caps;
}

// The error of adding `op` reading `inputs` (descs) to a fresh graph; "" when it was accepted.
std::string addNodeError(OperatorDesc op, std::initializer_list<TensorDesc> inputs) {
    GraphDesc g;
    std::vector<ValueId> ids;
    for (const TensorDesc& t : inputs) ids.push_back(g.addInput("x" + std::to_string(ids.size()), t));
    auto out = g.addNode(std::move(op), ids);
    return out ? "" : out.error().message;
}

std::string compileError(const OperatorDesc& op, Capabilities caps = lavapipeLike()) {
    auto compiled = detail::compileOperatorOnCpu(caps, op, 0);
    return compiled ? "" : compiled.error().message;
}

TEST(ShapeInference, InputRankAboveTheLimitIsAnErrorNotAnOutOfBoundsRead) {
    // Inference indexed sizes[rank - 1] of an input whose rank exceeds the sizes array.
    TensorDesc t = f32({1, 1});
    t.rank = kMaxTensorRank + 1;
    std::string error = addNodeError(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {t, t});
    EXPECT_NE(error.find("element_wise 'add' input 0: rank 9 is out of range (1..8)"), std::string::npos) << error;
    t.rank = 255;
    error = addNodeError(ElementWiseDesc{.name = "add", .op = ElementWiseOp::Add}, {t, t});
    EXPECT_NE(error.find("rank 255 is out of range"), std::string::npos) << error;
}

TEST(ShapeInference, ResampleScalesWhoseOutputDoesNotFit32BitsAreRejected) {
    // floor(4 * 1e30) was converted to uint32_t: undefined behaviour.
    ResampleDesc r{.name = "up", .scales = {1e30f, 2.0f}};
    std::string error = addNodeError(r, {f32({1, 1, 4, 4})});
    EXPECT_NE(error.find("resample 'up': scales"), std::string::npos) << error;
    EXPECT_NE(error.find("turn input 4 x 4 into an output outside 1..2^32-1 rows or columns"), std::string::npos) << error;
    r.scales = {std::numeric_limits<float>::quiet_NaN(), 2.0f};
    EXPECT_NE(addNodeError(r, {f32({1, 1, 4, 4})}).find("no scales given"), std::string::npos);
    r.scales = {0.01f, 2.0f};  // floor(4 * 0.01) = 0 rows
    EXPECT_NE(addNodeError(r, {f32({1, 1, 4, 4})}).find("into an output outside"), std::string::npos);
}

TEST(ShapeInference, PoolingWindowTimesDilationDoesNotOverflow) {
    // (window - 1) * dilation overflowed int64 for two values near 2^32.
    PoolingDesc p{.name = "pool", .window = {UINT32_MAX, 2}, .dilations = {UINT32_MAX, 1}};
    EXPECT_NE(addNodeError(p, {f32({1, 1, 4, 4})}).find("empty output"), std::string::npos);
    // The output itself past 32 bits: stride 1 over a padded input of ~2^33.
    PoolingDesc wide{.name = "pool", .window = {1, 1}, .padBegin = {UINT32_MAX, 0}, .padEnd = {UINT32_MAX, 0}};
    EXPECT_NE(addNodeError(wide, {f32({1, 1, 4, 4})}).find("empty output"), std::string::npos);
}

TEST(ShapeInference, ConvolutionKernelTimesDilationDoesNotOverflow) {
    ConvolutionDesc c{.name = "conv", .dilations = {UINT32_MAX, 1}};
    c.input = f32({1, 1, 4, 4});
    c.filter = f32({1, 1, 3, 3});
    c.filter.sizes[2] = UINT32_MAX;
    EXPECT_EQ(convolutionOutputSize(c, 0), 0u);
    c.transposed = true;
    c.strides = {UINT32_MAX, 1};
    c.dilations = {1, 1};
    c.filter.sizes[2] = 3;
    c.input.sizes[2] = UINT32_MAX;  // (in - 1) * stride is ~2^64
    EXPECT_EQ(convolutionOutputSize(c, 0), 0u);
}

TEST(ShapeInference, DepthToSpaceBlockSizeSquaredDoesNotWrap) {
    // 65536 * 65536 wrapped to 0 in 32 bits: a division by zero in inference and in validation.
    DepthToSpaceDesc d{.name = "d2s", .blockSize = 65536};
    std::string error = addNodeError(d, {f32({1, 4, 2, 2})});
    EXPECT_NE(error.find("depth_to_space 'd2s': blockSize 65536 gives an empty output"), std::string::npos) << error;
    SpaceToDepthDesc s{.name = "s2d", .blockSize = 65536};
    EXPECT_NE(addNodeError(s, {f32({1, 2, 65536, 1})}).find("blockSize 65536 gives an empty output or one above 2^32 - 1"), std::string::npos);
    d.input = f32({1, 4, 2, 2});
    d.output = f32({1, 1, 4, 4});
    EXPECT_NE(compileError(d).find("not divisible by blockSize^2 = 4294967296"), std::string::npos) << compileError(d);
}

TEST(PadValidation, PaddedSizeAbove32BitsIsRejectedNotClamped) {
    // 4 + 2 * (2^32 - 2) was clamped to 2^32 - 1, so an output of that size passed although the
    // padded input is twice as long; inference wrapped it to 0.
    PadDesc p{.name = "pad", .padBegin = {UINT32_MAX - 1}, .padEnd = {UINT32_MAX - 1}};
    p.input = f32({4});
    p.output = f32({UINT32_MAX});
    Capabilities bigBuffers = lavapipeLike();
    bigBuffers.maxStorageBufferRange = 0;  // no limit: reach the size check
    std::string error = compileError(p, bigBuffers);
    EXPECT_NE(error.find("pad 'pad': dim 0 padded to 8589934592 exceeds 2^32 - 1"), std::string::npos) << error;
    EXPECT_NE(addNodeError(PadDesc{.name = "pad", .padBegin = {UINT32_MAX - 1}, .padEnd = {UINT32_MAX - 1}}, {f32({4})}).find("padded to 8589934592"),
              std::string::npos);
}

TEST(PoolingValidation, DilatedWindowIsComputedIn64Bits) {
    // (2^31 + 1 - 1) * 2 + 1 wrapped to 1 in 32 bits: the window "fit" a 4-row input and the
    // shader would have looped 2^31 times per output row.
    PoolingDesc p{.name = "pool", .window = {(1u << 31) + 1, 1}, .dilations = {2, 1}};
    p.input = f32({1, 1, 4, 4});
    p.output = f32({1, 1, 4, 4});
    std::string error = compileError(p);
    EXPECT_NE(error.find("dilated window 4294967297 is larger than the padded input height 4"), std::string::npos) << error;
}

TEST(CompileOnCpu, ReductionRowsLongerThanTwoToTheThirtyOne) {
    // The row plan took bit_ceil of the row length, undefined above 2^31 (fuzz_operator_desc).
    ReduceDesc r{.name = "sum", .op = ReduceOp::Sum, .axesMask = 1u};
    r.input = TensorDesc::strided(DataType::Float32, {3000000000u}, {0});  // one element, broadcast along the row
    r.output = f32({1});
    auto op = detail::compileOperatorOnCpu(lavapipeLike(), r, 0);
    ASSERT_TRUE(op.ok()) << op.error().message;  // accepted: the size is valid, only the plan changed
    EXPECT_FALSE((*op)->launches.empty());
}

TEST(CompileOnCpu, MatchesWhatADeviceCompileValidates) {
    // The CPU-side compile the fuzz targets use plans launches and binding rules like the real one.
    ConvolutionDesc c{.name = "conv", .padBegin = {1, 1}, .padEnd = {1, 1}, .activation = relu()};
    c.input = f32({1, 3, 8, 8});
    c.filter = TensorDesc::make(DataType::Float32, {4, 3, 3, 3}, TensorFlagOwnedByPlugin);
    c.output = f32({1, 4, 8, 8});
    auto op = detail::compileOperatorOnCpu(lavapipeLike(), c, 0);
    ASSERT_TRUE(op.ok()) << op.error().message;
    EXPECT_FALSE((*op)->launches.empty());
    EXPECT_EQ((*op)->device, nullptr);
    EXPECT_EQ((*op)->launches[0].pipeline, VkPipeline(VK_NULL_HANDLE));
    EXPECT_GT((*op)->persistentBytes, 0u);  // the owned filter is packed at initialization
    c.output = f32({1, 4, 7, 8});
    EXPECT_NE(compileError(c).find("output height 7 does not match the 8 implied"), std::string::npos) << compileError(c);

    GraphDesc g;
    ValueId x = g.addInput("x", f32({1, 3, 8, 8}));
    ValueId w = g.addConstant("w", f32({4, 3, 3, 3}), std::vector<float>(108, 0.5f));
    ConvolutionDesc gc{.name = "conv", .padBegin = {1, 1}, .padEnd = {1, 1}};
    auto y = g.addNode(gc, {x, w});
    ASSERT_TRUE(y.ok()) << y.error().message;
    g.markOutput((*y)[0]);
    auto compiled = detail::compileGraphOnCpu(lavapipeLike(), g, 0);
    ASSERT_TRUE(compiled.ok()) << compiled.error().message;
    EXPECT_EQ(compiled->report.dispatchablesOut, 1u);
    EXPECT_EQ(compiled->constantData.size() % 256, 0u);
}

}  // namespace
