// Data movement on the GPU against the CPU reference: transpose, slice, concat, split,
// depth-to-space, space-to-depth and pad, in fp32, fp16 and mixed precision, with odd sizes,
// padded rows and NHWC-by-strides layouts, and every validation error. Moving data involves no
// arithmetic, so results must match exactly.
#include "op_test.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace mlplugin;
using optest::compileError;
using optest::nhwc;
using optest::paddedRows;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class DataMovement : public testsupport::VulkanTest {};


optest::RunOptions exact() {
    optest::RunOptions o;
    o.tolerance = 1e-12;
    return o;
}

void checkExact(const OperatorDesc& desc, uint32_t seed = 1) { optest::checkOperator(desc, exact(), seed); }




TransposeDesc transpose(const TensorDesc& in, const TensorDesc& out, std::array<uint32_t, kMaxTensorRank> perm) {
    TransposeDesc d;
    d.name = "t";
    d.input = in;
    d.output = out;
    d.permutation = perm;
    return d;
}

// ---- transpose ----

TEST_F(DataMovement, TransposeRanks1To5) {
    checkExact(transpose(TensorDesc::make(F32, {17}), TensorDesc::make(F32, {17}), {0}));
    checkExact(transpose(TensorDesc::make(F32, {5, 17}), TensorDesc::make(F32, {17, 5}), {1, 0}));
    checkExact(transpose(TensorDesc::make(F32, {3, 5, 7}), TensorDesc::make(F32, {7, 3, 5}), {2, 0, 1}));
    checkExact(transpose(TensorDesc::make(F32, {2, 3, 5, 7}), TensorDesc::make(F32, {2, 5, 7, 3}), {0, 2, 3, 1}));
    checkExact(transpose(TensorDesc::make(F32, {2, 3, 1, 5, 4}), TensorDesc::make(F32, {4, 1, 5, 2, 3}), {4, 2, 3, 0, 1}));
}

TEST_F(DataMovement, TransposeKeepingInnerDimUsesVec4AndStillMatches) {
    REQUIRE_FP16();
    // Inner dim contiguous on both sides with a multiple of 4: the 4-wide path.
    checkExact(transpose(TensorDesc::make(F32, {3, 5, 8}), TensorDesc::make(F32, {5, 3, 8}), {1, 0, 2}));
    checkExact(transpose(TensorDesc::make(F16, {3, 5, 8}), TensorDesc::make(F16, {5, 3, 8}), {1, 0, 2}));
    checkExact(transpose(TensorDesc::make(F16, {3, 5, 8}), TensorDesc::make(F32, {5, 3, 8}), {1, 0, 2}));
}

TEST_F(DataMovement, TransposeStridedAndMixedPrecision) {
    REQUIRE_FP16();
    checkExact(transpose(paddedRows(F32, 2, 3, 5, 7, 3), nhwc(F32, 2, 5, 7, 3), {0, 2, 3, 1}));
    checkExact(transpose(nhwc(F16, 2, 5, 3, 7), TensorDesc::make(F16, {2, 7, 3, 5}), {0, 3, 2, 1}));
    checkExact(transpose(TensorDesc::make(F16, {5, 17}), TensorDesc::make(F32, {17, 5}), {1, 0}));
    checkExact(transpose(TensorDesc::make(F32, {5, 17}), TensorDesc::make(F16, {17, 5}), {1, 0}));
    // A broadcast input (stride 0) read into a dense output.
    checkExact(transpose(TensorDesc::strided(F32, {3, 4}, {0, 1}), TensorDesc::make(F32, {4, 3}), {1, 0}));
}

TEST_F(DataMovement, TransposeThroughSharedMemoryTiles) {
    REQUIRE_FP16();
    // Both fast dims >= 16 and different: the tiled kernel, with partial tiles at the edges.
    checkExact(transpose(TensorDesc::make(F32, {2, 40, 5, 7}), TensorDesc::make(F32, {2, 5, 7, 40}), {0, 2, 3, 1}));
    checkExact(transpose(TensorDesc::make(F32, {33, 50}), TensorDesc::make(F32, {50, 33}), {1, 0}));
    checkExact(transpose(nhwc(F16, 1, 37, 6, 9), TensorDesc::make(F16, {1, 37, 6, 9}), {0, 1, 2, 3}));
    checkExact(transpose(TensorDesc::make(F16, {64, 96}), TensorDesc::make(F32, {96, 64}), {1, 0}));
    checkExact(transpose(TensorDesc::make(F32, {2, 3, 20, 2, 18}), TensorDesc::make(F16, {2, 2, 3, 18, 20}), {0, 3, 1, 4, 2}));
}

TEST_F(DataMovement, LargeCopySpreadsWorkgroupsOverY) {
    REQUIRE_FP16();
    // 9M elements / 128 per workgroup is more than 65535 workgroups: linearGroups uses y.
    checkExact(transpose(TensorDesc::make(F16, {1, 3, 1500, 2000}), nhwc(F16, 1, 3, 1500, 2000), {0, 1, 2, 3}));
}

// ---- slice ----

SliceDesc slice(const TensorDesc& in, const TensorDesc& out, std::array<uint32_t, kMaxTensorRank> offsets,
                std::array<int32_t, kMaxTensorRank> steps) {
    SliceDesc d;
    d.name = "s";
    d.input = in;
    d.output = out;
    d.offsets = offsets;
    d.steps = steps;
    return d;
}

TEST_F(DataMovement, SliceOffsetsAndSteps) {
    checkExact(slice(TensorDesc::make(F32, {2, 5, 9, 11}), TensorDesc::make(F32, {1, 3, 4, 5}), {1, 1, 2, 0}, {1, 1, 2, 2}));
    checkExact(slice(TensorDesc::make(F32, {19}), TensorDesc::make(F32, {6}), {3}, {3}));
    checkExact(slice(TensorDesc::make(F32, {2, 3, 4, 5, 6}), TensorDesc::make(F32, {2, 2, 2, 3, 2}), {0, 1, 1, 2, 1}, {1, 1, 2, 1, 3}));
}

TEST_F(DataMovement, SliceNegativeSteps) {
    // Reverse the width, every other row backwards, channels reversed.
    checkExact(slice(TensorDesc::make(F32, {2, 3, 7, 9}), TensorDesc::make(F32, {2, 3, 7, 9}), {0, 0, 0, 8}, {1, 1, 1, -1}));
    checkExact(slice(TensorDesc::make(F32, {2, 3, 7, 9}), TensorDesc::make(F32, {2, 3, 4, 4}), {0, 2, 6, 7}, {1, -1, -2, -2}));
}

TEST_F(DataMovement, SliceStridedFp16AndMixed) {
    REQUIRE_FP16();
    checkExact(slice(paddedRows(F16, 2, 3, 7, 9, 5), nhwc(F16, 2, 2, 3, 4), {0, 1, 1, 8}, {1, 1, 2, -2}));
    checkExact(slice(nhwc(F32, 1, 5, 6, 7), TensorDesc::make(F16, {1, 5, 6, 3}), {0, 0, 0, 1}, {1, 1, 1, 2}));
}

// ---- concat / split ----

ConcatDesc concat(std::vector<TensorDesc> inputs, const TensorDesc& out, uint32_t axis) {
    ConcatDesc d;
    d.name = "c";
    d.inputs = std::move(inputs);
    d.output = out;
    d.axis = axis;
    return d;
}

TEST_F(DataMovement, ConcatEveryAxis) {
    checkExact(concat({TensorDesc::make(F32, {1, 3, 5, 7}), TensorDesc::make(F32, {2, 3, 5, 7})}, TensorDesc::make(F32, {3, 3, 5, 7}), 0));
    checkExact(concat({TensorDesc::make(F32, {2, 3, 5, 7}), TensorDesc::make(F32, {2, 5, 5, 7}), TensorDesc::make(F32, {2, 1, 5, 7})},
                      TensorDesc::make(F32, {2, 9, 5, 7}), 1));
    checkExact(concat({TensorDesc::make(F32, {2, 3, 4, 7}), TensorDesc::make(F32, {2, 3, 1, 7})}, TensorDesc::make(F32, {2, 3, 5, 7}), 2));
    checkExact(concat({TensorDesc::make(F32, {2, 3, 5, 3}), TensorDesc::make(F32, {2, 3, 5, 4}), TensorDesc::make(F32, {2, 3, 5, 1})},
                      TensorDesc::make(F32, {2, 3, 5, 8}), 3));
    checkExact(concat({TensorDesc::make(F32, {5}), TensorDesc::make(F32, {12})}, TensorDesc::make(F32, {17}), 0));
}

TEST_F(DataMovement, ConcatStridedAndMixedPrecision) {
    REQUIRE_FP16();
    checkExact(concat({nhwc(F16, 1, 3, 5, 7), paddedRows(F32, 1, 5, 5, 7, 2), TensorDesc::make(F16, {1, 1, 5, 7})}, nhwc(F16, 1, 9, 5, 7),
                      1));
    checkExact(concat({TensorDesc::make(F16, {2, 4, 3, 8}), TensorDesc::make(F16, {2, 4, 3, 8})}, TensorDesc::make(F32, {2, 8, 3, 8}), 1));
}

TEST_F(DataMovement, ConcatThirteenInputsFillsTheSlots) {
    std::vector<TensorDesc> inputs;
    for (uint32_t i = 0; i < 13; ++i) inputs.push_back(TensorDesc::make(F32, {2, 1 + i % 3, 3}));
    uint32_t total = 0;
    for (const auto& t : inputs) total += t.sizes[1];
    checkExact(concat(inputs, TensorDesc::make(F32, {2, total, 3}), 1));
}

SplitDesc split(const TensorDesc& in, std::vector<TensorDesc> outputs, uint32_t axis) {
    SplitDesc d;
    d.name = "sp";
    d.input = in;
    d.outputs = std::move(outputs);
    d.axis = axis;
    return d;
}

TEST_F(DataMovement, SplitEveryAxis) {
    checkExact(split(TensorDesc::make(F32, {3, 3, 5, 7}), {TensorDesc::make(F32, {1, 3, 5, 7}), TensorDesc::make(F32, {2, 3, 5, 7})}, 0));
    checkExact(split(TensorDesc::make(F32, {2, 9, 5, 7}),
                     {TensorDesc::make(F32, {2, 3, 5, 7}), TensorDesc::make(F32, {2, 5, 5, 7}), TensorDesc::make(F32, {2, 1, 5, 7})}, 1));
    checkExact(split(TensorDesc::make(F32, {2, 3, 5, 7}), {TensorDesc::make(F32, {2, 3, 2, 7}), TensorDesc::make(F32, {2, 3, 3, 7})}, 2));
    checkExact(split(TensorDesc::make(F32, {2, 3, 5, 9}), {TensorDesc::make(F32, {2, 3, 5, 4}), TensorDesc::make(F32, {2, 3, 5, 5})}, 3));
}

TEST_F(DataMovement, SplitStridedAndMixedPrecision) {
    REQUIRE_FP16();
    checkExact(split(nhwc(F16, 2, 9, 5, 7), {paddedRows(F16, 2, 4, 5, 7, 1), nhwc(F32, 2, 5, 5, 7)}, 1));
    checkExact(split(TensorDesc::make(F32, {2, 8, 3, 8}), {TensorDesc::make(F16, {2, 4, 3, 8}), TensorDesc::make(F32, {2, 4, 3, 8})}, 1));
}

TEST_F(DataMovement, FiveDimensionalConcatSplitTranspose) {
    REQUIRE_FP16();
    checkExact(concat({TensorDesc::make(F16, {2, 1, 3, 2, 5}), TensorDesc::make(F16, {2, 1, 3, 2, 2})}, TensorDesc::make(F16, {2, 1, 3, 2, 7}),
                      4));
    checkExact(split(TensorDesc::make(F32, {2, 3, 4, 2, 3}), {TensorDesc::make(F32, {2, 3, 1, 2, 3}), TensorDesc::make(F16, {2, 3, 3, 2, 3})},
                     2));
    checkExact(transpose(TensorDesc::make(F16, {2, 3, 4, 5, 6}), TensorDesc::make(F16, {6, 4, 2, 5, 3}), {4, 2, 0, 3, 1}));
}

// DirectML's rank limit: 8-D transposes (through the plain and the tiled copy), slices,
// concats and splits, and 6-D / 7-D mixes, fp32 and fp16.
TEST_F(DataMovement, EightDimensionalTransposeSliceConcatSplit) {
    REQUIRE_FP16();
    for (DataType t : {F32, F16}) {
        SCOPED_TRACE(int(t));
        checkExact(transpose(TensorDesc::make(t, {2, 3, 1, 2, 3, 2, 1, 5}), TensorDesc::make(t, {5, 1, 2, 3, 2, 3, 1, 2}),
                             {7, 6, 5, 4, 3, 1, 2, 0}));
        // Q (input-contiguous) and R (output-contiguous) of 17 and 19: the tiled copy with a 6-dim batch.
        checkExact(transpose(TensorDesc::make(t, {2, 2, 3, 2, 2, 2, 17, 19}), TensorDesc::make(t, {2, 2, 3, 2, 2, 2, 19, 17}),
                             {0, 1, 2, 3, 4, 5, 7, 6}));
        SliceDesc s;
        s.name = "s";
        s.input = TensorDesc::make(t, {3, 2, 4, 3, 2, 5, 2, 7});
        s.output = TensorDesc::make(t, {2, 2, 2, 1, 2, 2, 1, 3});
        s.offsets = {2, 0, 1, 2, 0, 4, 1, 0};
        s.steps = {-1, 1, 2, 1, 1, -2, 1, 3};
        checkExact(s);
        checkExact(concat({TensorDesc::make(t, {2, 1, 2, 3, 1, 2, 2, 3}), TensorDesc::make(t, {2, 1, 2, 3, 1, 2, 2, 5})},
                          TensorDesc::make(t, {2, 1, 2, 3, 1, 2, 2, 8}), 7));
        checkExact(concat({TensorDesc::make(t, {2, 3, 2, 1, 2, 3}), TensorDesc::make(t, {2, 4, 2, 1, 2, 3})},
                          TensorDesc::make(t, {2, 7, 2, 1, 2, 3}), 1));
        checkExact(split(TensorDesc::make(t, {2, 3, 2, 5, 2, 3, 2}), {TensorDesc::make(t, {2, 3, 2, 2, 2, 3, 2}), TensorDesc::make(F32, {2, 3, 2, 3, 2, 3, 2})},
                         3));
    }
}

// ---- depth <-> space ----

DepthToSpaceDesc depthToSpace(const TensorDesc& in, const TensorDesc& out, uint32_t b, DepthSpaceOrder order) {
    DepthToSpaceDesc d;
    d.name = "d2s";
    d.input = in;
    d.output = out;
    d.blockSize = b;
    d.order = order;
    return d;
}

SpaceToDepthDesc spaceToDepth(const TensorDesc& in, const TensorDesc& out, uint32_t b, DepthSpaceOrder order) {
    SpaceToDepthDesc d;
    d.name = "s2d";
    d.input = in;
    d.output = out;
    d.blockSize = b;
    d.order = order;
    return d;
}

TEST_F(DataMovement, DepthToSpaceBothOrders) {
    REQUIRE_FP16();
    for (DepthSpaceOrder order : {DepthSpaceOrder::DCR, DepthSpaceOrder::CRD}) {
        SCOPED_TRACE(order == DepthSpaceOrder::DCR ? "DCR" : "CRD");
        checkExact(depthToSpace(TensorDesc::make(F32, {2, 12, 3, 5}), TensorDesc::make(F32, {2, 3, 6, 10}), 2, order));
        checkExact(depthToSpace(TensorDesc::make(F32, {1, 45, 2, 3}), TensorDesc::make(F32, {1, 5, 6, 9}), 3, order));
        checkExact(depthToSpace(TensorDesc::make(F32, {1, 4, 1, 1}), TensorDesc::make(F32, {1, 1, 2, 2}), 2, order));
        checkExact(depthToSpace(nhwc(F16, 1, 68, 3, 5), paddedRows(F16, 1, 17, 6, 10, 3), 2, order));
        checkExact(depthToSpace(TensorDesc::make(F16, {2, 12, 3, 5}), nhwc(F32, 2, 3, 6, 10), 2, order));
        checkExact(depthToSpace(TensorDesc::make(F32, {1, 64, 4, 20}), nhwc(F32, 1, 16, 8, 40), 2, order));  // tiled
    }
}

TEST_F(DataMovement, SpaceToDepthBothOrders) {
    REQUIRE_FP16();
    for (DepthSpaceOrder order : {DepthSpaceOrder::DCR, DepthSpaceOrder::CRD}) {
        SCOPED_TRACE(order == DepthSpaceOrder::DCR ? "DCR" : "CRD");
        checkExact(spaceToDepth(TensorDesc::make(F32, {2, 3, 6, 10}), TensorDesc::make(F32, {2, 12, 3, 5}), 2, order));
        checkExact(spaceToDepth(TensorDesc::make(F32, {1, 5, 6, 9}), TensorDesc::make(F32, {1, 45, 2, 3}), 3, order));
        checkExact(spaceToDepth(paddedRows(F16, 1, 17, 6, 10, 3), nhwc(F16, 1, 68, 3, 5), 2, order));
        checkExact(spaceToDepth(nhwc(F32, 2, 3, 6, 10), TensorDesc::make(F16, {2, 12, 3, 5}), 2, order));
    }
}

TEST_F(DataMovement, DepthToSpaceUndoesSpaceToDepth) {
    // The two references are inverses of each other: guards both against a shared mistake in
    // the channel formula (the GPU tests only compare against the same reference).
    const TensorDesc wide = TensorDesc::make(F32, {1, 3, 4, 6}), deep = TensorDesc::make(F32, {1, 12, 2, 3});
    for (DepthSpaceOrder order : {DepthSpaceOrder::DCR, DepthSpaceOrder::CRD}) {
        std::vector<HostTensor> in{optest::randomTensor(wide, 3)};
        auto d = referenceEvaluate(spaceToDepth(wide, deep, 2, order), in);
        ASSERT_TRUE(d.ok());
        auto w = referenceEvaluate(depthToSpace(deep, wide, 2, order), *d);
        ASSERT_TRUE(w.ok());
        EXPECT_EQ((*w)[0].data, in[0].data);
    }
    // ONNX DepthToSpace DCR example: x = arange(8) as [1, 8, 1, 1], b = 2 -> channel 0 of the
    // output is [[0, 2], [4, 6]].
    const TensorDesc x = TensorDesc::make(F32, {1, 8, 1, 1}), y = TensorDesc::make(F32, {1, 2, 2, 2});
    HostTensor in{x, {0, 1, 2, 3, 4, 5, 6, 7}};
    auto dcr = referenceEvaluate(depthToSpace(x, y, 2, DepthSpaceOrder::DCR), {in});
    ASSERT_TRUE(dcr.ok());
    EXPECT_EQ((*dcr)[0].data, (std::vector<double>{0, 2, 4, 6, 1, 3, 5, 7}));
    auto crd = referenceEvaluate(depthToSpace(x, y, 2, DepthSpaceOrder::CRD), {in});
    ASSERT_TRUE(crd.ok());
    EXPECT_EQ((*crd)[0].data, (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// ---- pad ----

PadDesc pad(const TensorDesc& in, const TensorDesc& out, PadMode mode, std::array<uint32_t, kMaxTensorRank> begin,
            std::array<uint32_t, kMaxTensorRank> end) {
    PadDesc d;
    d.name = "p";
    d.input = in;
    d.output = out;
    d.mode = mode;
    d.padBegin = begin;
    d.padEnd = end;
    d.value = 0.75f;
    return d;
}

TEST_F(DataMovement, PadEveryModeAndRank) {
    REQUIRE_FP16();
    for (PadMode mode : {PadMode::Constant, PadMode::Edge, PadMode::Reflect, PadMode::Wrap}) {
        SCOPED_TRACE(int(mode));
        checkExact(pad(TensorDesc::make(F32, {7}), TensorDesc::make(F32, {12}), mode, {3}, {2}));
        checkExact(pad(TensorDesc::make(F32, {2, 3, 5, 7}), TensorDesc::make(F32, {2, 4, 8, 13}), mode, {0, 1, 2, 6}, {0, 0, 1, 0}));
        checkExact(pad(TensorDesc::make(F32, {2, 2, 3, 4, 5}), TensorDesc::make(F32, {3, 4, 5, 4, 9}), mode, {1, 1, 0, 0, 2},
                       {0, 1, 2, 0, 2}));
        checkExact(pad(paddedRows(F16, 1, 3, 5, 7, 2), nhwc(F16, 1, 3, 9, 10), mode, {0, 0, 2, 1}, {0, 0, 2, 2}));
        checkExact(pad(nhwc(F32, 2, 5, 3, 4), TensorDesc::make(F16, {2, 5, 5, 6}), mode, {0, 0, 1, 2}, {0, 0, 1, 0}));
    }
}

// 6-D to 8-D: the outer dims beyond the 5 in push constants travel as specialization constants.
TEST_F(DataMovement, PadRanksSixToEight) {
    REQUIRE_FP16();
    for (PadMode mode : {PadMode::Constant, PadMode::Edge, PadMode::Reflect, PadMode::Wrap}) {
        SCOPED_TRACE(int(mode));
        checkExact(pad(TensorDesc::make(F32, {2, 2, 1, 3, 2, 3}), TensorDesc::make(F32, {3, 4, 1, 5, 3, 4}), mode, {1, 1, 0, 2, 0, 1},
                       {0, 1, 0, 0, 1, 0}));
        checkExact(pad(TensorDesc::make(F16, {3, 2, 2, 1, 2, 3, 2}), TensorDesc::make(F16, {5, 3, 2, 1, 3, 3, 3}), mode,
                       {2, 0, 0, 0, 1, 0, 1}, {0, 1, 0, 0, 0, 0, 0}));
        checkExact(pad(TensorDesc::make(F32, {2, 3, 2, 2, 1, 2, 2, 3}), TensorDesc::make(F16, {3, 5, 2, 3, 1, 3, 4, 4}), mode,
                       {1, 2, 0, 1, 0, 0, 1, 1}, {0, 0, 0, 0, 0, 1, 1, 0}));
    }
}

// Wrap repeats the input periodically, also for pads several times its size.
TEST_F(DataMovement, PadWrapBeyondTheInputSize) {
    checkExact(pad(TensorDesc::make(F32, {2, 3}), TensorDesc::make(F32, {9, 12}), PadMode::Wrap, {3, 7}, {4, 2}));
    PadDesc d = pad(TensorDesc::make(F32, {3}), TensorDesc::make(F32, {10}), PadMode::Wrap, {4}, {3});
    auto out = referenceEvaluate(d, {HostTensor{d.input, {10, 11, 12}}});
    ASSERT_TRUE(out.ok());
    EXPECT_EQ((*out)[0].data, (std::vector<double>{12, 10, 11, 12, 10, 11, 12, 10, 11, 12}));
}

TEST_F(DataMovement, PadEdgeOfSizeOne) {
    checkExact(pad(TensorDesc::make(F32, {1, 1, 1, 1}), TensorDesc::make(F32, {1, 1, 4, 3}), PadMode::Edge, {0, 0, 2, 1}, {0, 0, 1, 1}));
}

// ---- validation ----

TEST_F(DataMovement, ValidationErrors) {
    EXPECT_EQ(compileError(depthToSpace(TensorDesc::make(F32, {1, 13, 2, 2}), TensorDesc::make(F32, {1, 3, 4, 4}), 2, DepthSpaceOrder::DCR)),
              "depth_to_space 'd2s': input channels 13 not divisible by blockSize^2 = 4");
    EXPECT_EQ(compileError(depthToSpace(TensorDesc::make(F32, {1, 12, 2, 2}), TensorDesc::make(F32, {1, 3, 4, 5}), 2, DepthSpaceOrder::DCR)),
              "depth_to_space 'd2s': output sizes [1,3,4,5] differ from the expected [1,3,4,4]");
    EXPECT_EQ(compileError(depthToSpace(TensorDesc::make(F32, {12, 2, 2}), TensorDesc::make(F32, {3, 4, 4}), 2, DepthSpaceOrder::DCR)),
              "depth_to_space 'd2s': input rank is 3, expected 4");
    EXPECT_EQ(compileError(depthToSpace(TensorDesc::make(F32, {1, 12, 2, 2}), TensorDesc::make(F32, {1, 12, 2, 2}), 0, DepthSpaceOrder::DCR)),
              "depth_to_space 'd2s': blockSize is 0");
    EXPECT_EQ(compileError(spaceToDepth(TensorDesc::make(F32, {1, 3, 5, 4}), TensorDesc::make(F32, {1, 12, 2, 2}), 2, DepthSpaceOrder::CRD)),
              "space_to_depth 's2d': input height 5 not divisible by blockSize 2");

    EXPECT_EQ(compileError(concat({TensorDesc::make(F32, {1, 2, 8}), TensorDesc::make(F32, {1, 2, 7})}, TensorDesc::make(F32, {1, 4, 8}), 1)),
              "concat 'c': input 1 size of dim 2 is 7, expected 8");
    EXPECT_EQ(compileError(concat({TensorDesc::make(F32, {1, 2, 8}), TensorDesc::make(F32, {1, 3, 8})}, TensorDesc::make(F32, {1, 4, 8}), 1)),
              "concat 'c': input sizes along axis 1 sum to 5, but the output size is 4");
    EXPECT_EQ(compileError(concat({TensorDesc::make(F32, {1, 2, 8})}, TensorDesc::make(F32, {1, 2, 8}), 3)),
              "concat 'c': axis 3 is out of range for rank 3");
    EXPECT_EQ(compileError(concat({TensorDesc::make(F32, {2, 8}), TensorDesc::make(F32, {1, 2, 8})}, TensorDesc::make(F32, {1, 4, 8}), 1)),
              "concat 'c': input 0 rank is 2, expected 3");
    EXPECT_EQ(compileError(concat({}, TensorDesc::make(F32, {1, 4, 8}), 1)), "concat 'c': no inputs");
    // The framework counts slots before the planner runs; either check names the limit.
    EXPECT_NE(compileError(concat(std::vector<TensorDesc>(14, TensorDesc::make(F32, {1, 1, 8})), TensorDesc::make(F32, {1, 14, 8}), 1))
                  .find("at most 14"),
              std::string::npos);
    EXPECT_EQ(compileError(split(TensorDesc::make(F32, {1, 5, 8}), {TensorDesc::make(F32, {1, 2, 8}), TensorDesc::make(F32, {1, 2, 8})}, 1)),
              "split 'sp': output sizes along axis 1 sum to 4, but the input size is 5");
    EXPECT_EQ(compileError(split(TensorDesc::make(F32, {1, 4, 8}), {TensorDesc::make(F32, {1, 2, 8}), TensorDesc::make(F32, {2, 2, 8})}, 1)),
              "split 'sp': output 1 size of dim 0 is 2, expected 1");

    EXPECT_EQ(compileError(transpose(TensorDesc::make(F32, {2, 3, 4}), TensorDesc::make(F32, {3, 2, 4}), {1, 1, 2})),
              "transpose 't': permutation [1,1,2] is not a permutation of 0..2");
    EXPECT_EQ(compileError(transpose(TensorDesc::make(F32, {2, 3, 4}), TensorDesc::make(F32, {3, 2, 4}), {1, 0, 3})),
              "transpose 't': permutation [1,0,3] is not a permutation of 0..2");
    EXPECT_EQ(compileError(transpose(TensorDesc::make(F32, {2, 3, 4}), TensorDesc::make(F32, {2, 3, 4}), {1, 0, 2})),
              "transpose 't': output sizes [2,3,4] differ from the expected [3,2,4]");

    EXPECT_EQ(compileError(slice(TensorDesc::make(F32, {4, 8}), TensorDesc::make(F32, {2, 4}), {0, 3}, {1, 2})),
              "slice 's': dim 1 reads input index 9 (offset 3 + (4 - 1) * step 2), outside the input size 8");
    EXPECT_EQ(compileError(slice(TensorDesc::make(F32, {4, 8}), TensorDesc::make(F32, {2, 4}), {0, 2}, {1, -1})),
              "slice 's': dim 1 reads input index -1 (offset 2 + (4 - 1) * step -1), outside the input size 8");
    EXPECT_EQ(compileError(slice(TensorDesc::make(F32, {4, 8}), TensorDesc::make(F32, {2, 4}), {4, 0}, {1, 1})),
              "slice 's': dim 0 offset 4 is outside the input size 4");
    EXPECT_EQ(compileError(slice(TensorDesc::make(F32, {4, 8}), TensorDesc::make(F32, {2, 4}), {0, 0}, {0, 1})), "slice 's': dim 0 step is 0");
    EXPECT_EQ(compileError(slice(TensorDesc::make(F32, {4, 8}), TensorDesc::make(F32, {2, 4, 1}), {0, 0}, {1, 1})),
              "slice 's': output rank is 3, expected 2");

    EXPECT_EQ(compileError(pad(TensorDesc::make(F32, {3, 4}), TensorDesc::make(F32, {3, 9}), PadMode::Reflect, {0, 4}, {0, 1})),
              "pad 'p': reflect pads of dim 1 (begin 4, end 1) must be smaller than the input size 4");
    EXPECT_EQ(compileError(pad(TensorDesc::make(F32, {3, 4}), TensorDesc::make(F32, {3, 8}), PadMode::Constant, {0, 4}, {0, 1})),
              "pad 'p': output sizes [3,8] differ from the expected [3,9]");

    // Output strides that make elements overlap come from the shared tensor validation.
    EXPECT_NE(compileError(transpose(TensorDesc::make(F32, {2, 3}), TensorDesc::strided(F32, {3, 2}, {1, 1}), {1, 0})).find("transpose 't' output"),
              std::string::npos);
}

// A second plugin device on the test's VkDevice that was told 16-bit storage is off.
std::unique_ptr<Device> deviceWithoutFp16() {
    DeviceDesc desc = optest::deviceDesc();  // no fp16 flags
    desc.flags = DeviceFlagDebug;
    auto created = createDevice(desc);
    EXPECT_TRUE(created.ok()) << created.error().message;
    return created.ok() ? std::move(created).value() : nullptr;
}

TEST_F(DataMovement, Fp16WithoutDeviceSupportIsUnsupported) {
    std::unique_ptr<Device> device = deviceWithoutFp16();
    ASSERT_TRUE(device);
    auto expectUnsupported = [&](const OperatorDesc& desc) {
        auto compiled = device->compileOperator(desc);
        ASSERT_FALSE(compiled.ok()) << operatorLabel(desc);
        EXPECT_EQ(compiled.error().code, ErrorCode::Unsupported) << compiled.error().message;
        EXPECT_NE(compiled.error().message.find("fp16"), std::string::npos) << compiled.error().message;
    };
    expectUnsupported(transpose(TensorDesc::make(F16, {2, 3}), TensorDesc::make(F32, {3, 2}), {1, 0}));
    expectUnsupported(pad(TensorDesc::make(F32, {2, 3}), TensorDesc::make(F16, {2, 3}), PadMode::Edge, {}, {}));
    PoolingDesc pool;
    pool.input = TensorDesc::make(F16, {1, 1, 4, 4});
    pool.output = TensorDesc::make(F16, {1, 1, 3, 3});
    expectUnsupported(pool);
    ResampleDesc rs;
    rs.input = TensorDesc::make(F16, {1, 1, 4, 4});
    rs.output = TensorDesc::make(F16, {1, 1, 8, 8});
    expectUnsupported(rs);
    // The same descs in fp32 compile on that device.
    EXPECT_TRUE(device->compileOperator(transpose(TensorDesc::make(F32, {2, 3}), TensorDesc::make(F32, {3, 2}), {1, 0})).ok());
}

}  // namespace
