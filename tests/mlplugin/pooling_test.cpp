// Pooling on the GPU against the CPU reference: max, average with and without the padding in
// the divisor, Lp for several p, global pooling, with strides, dilations, asymmetric pads,
// odd sizes, padded rows and NHWC-by-strides layouts, fp32/fp16/mixed, and the validation errors.
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

class Pooling : public testsupport::VulkanTest {};





struct Window {
    std::array<uint32_t, 2> size{2, 2}, strides{1, 1}, dilations{1, 1}, padBegin{0, 0}, padEnd{0, 0};
};

uint32_t outSize(uint32_t in, const Window& w, uint32_t k) {
    uint32_t span = (w.size[k] - 1) * w.dilations[k] + 1;
    return (in + w.padBegin[k] + w.padEnd[k] - span) / w.strides[k] + 1;
}

// A pooling desc whose output sizes follow from the window; `outType`/`nhwcOut` pick its layout.
PoolingDesc pooling(PoolingType type, const TensorDesc& in, const Window& w, DataType outType, bool nhwcOut = false) {
    PoolingDesc d;
    d.name = "pool";
    d.type = type;
    d.input = in;
    uint32_t n = in.sizes[0], c = in.sizes[1], oh = outSize(in.sizes[2], w, 0), ow = outSize(in.sizes[3], w, 1);
    d.output = nhwcOut ? nhwc(outType, n, c, oh, ow) : TensorDesc::make(outType, {n, c, oh, ow});
    d.window = w.size;
    d.strides = w.strides;
    d.dilations = w.dilations;
    d.padBegin = w.padBegin;
    d.padEnd = w.padEnd;
    return d;
}

// Window shapes every type is run with: plain, strided, dilated, asymmetric padding, and a
// dilated window whose first taps fall in the padding.
std::vector<Window> windows() {
    return {
        Window{},
        Window{{3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}},
        Window{{3, 2}, {1, 3}, {2, 1}, {0, 1}, {2, 0}},
        Window{{2, 3}, {2, 1}, {3, 2}, {3, 4}, {1, 2}},
        Window{{5, 1}, {3, 1}, {1, 1}, {4, 0}, {2, 0}},
    };
}

void checkAllWindows(PoolingType type, const TensorDesc& in, DataType outType, uint32_t p = 2, bool countPad = false, bool nhwcOut = false) {
    uint32_t i = 0;
    for (const Window& w : windows()) {
        SCOPED_TRACE("window " + std::to_string(i++));
        PoolingDesc d = pooling(type, in, w, outType, nhwcOut);
        d.p = p;
        d.countIncludePad = countPad;
        optest::checkOperator(d, {}, i);
    }
}

TEST_F(Pooling, MaxFp32) {
    checkAllWindows(PoolingType::Max, TensorDesc::make(F32, {2, 3, 9, 11}), F32);
    checkAllWindows(PoolingType::Max, paddedRows(F32, 1, 5, 8, 7, 3), F32, 2, false, true);
}

TEST_F(Pooling, AverageExcludingAndIncludingPadding) {
    for (bool countPad : {false, true}) {
        SCOPED_TRACE(countPad ? "countIncludePad" : "excludePad");
        checkAllWindows(PoolingType::Average, TensorDesc::make(F32, {2, 3, 9, 11}), F32, 2, countPad);
        checkAllWindows(PoolingType::Average, nhwc(F32, 1, 17, 7, 8), F32, 2, countPad);
    }
}

TEST_F(Pooling, LpNorms) {
    for (uint32_t p : {1u, 2u, 3u}) {
        SCOPED_TRACE("p = " + std::to_string(p));
        checkAllWindows(PoolingType::Lp, TensorDesc::make(F32, {2, 3, 9, 11}), F32, p);
    }
}

TEST_F(Pooling, Fp16AndMixed) {
    REQUIRE_FP16();
    for (PoolingType type : {PoolingType::Max, PoolingType::Average, PoolingType::Lp}) {
        SCOPED_TRACE(int(type));
        checkAllWindows(type, TensorDesc::make(F16, {2, 5, 9, 11}), F16);
        checkAllWindows(type, nhwc(F16, 1, 3, 10, 7), F32, 2, true, false);
        checkAllWindows(type, TensorDesc::make(F32, {1, 3, 10, 7}), F16, 2, false, true);
    }
}

TEST_F(Pooling, OneByOneInput) {
    Window w{{1, 1}};
    optest::checkOperator(pooling(PoolingType::Max, TensorDesc::make(F32, {2, 3, 1, 1}), w, F32));
    Window padded{{3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}};
    optest::checkOperator(pooling(PoolingType::Average, TensorDesc::make(F32, {1, 3, 1, 1}), padded, F32));
}

PoolingDesc global(PoolingType type, const TensorDesc& in, const TensorDesc& out, uint32_t p = 2) {
    PoolingDesc d;
    d.name = "gp";
    d.type = type;
    d.input = in;
    d.output = out;
    d.global = true;
    d.p = p;
    d.window = {0, 0};  // ignored when global
    return d;
}

TEST_F(Pooling, GlobalEveryType) {
    for (PoolingType type : {PoolingType::Max, PoolingType::Average, PoolingType::Lp}) {
        SCOPED_TRACE(int(type));
        optest::checkOperator(global(type, TensorDesc::make(F32, {2, 3, 9, 11}), TensorDesc::make(F32, {2, 3, 1, 1})));
        optest::checkOperator(global(type, TensorDesc::make(F32, {1, 5, 1, 1}), TensorDesc::make(F32, {1, 5, 1, 1})));
        // More elements than the workgroup: every invocation loops.
        optest::checkOperator(global(type, paddedRows(F32, 1, 3, 37, 41, 5), nhwc(F32, 1, 3, 1, 1), 3));
    }
}

TEST_F(Pooling, GlobalFp16AndManyPlanes) {
    REQUIRE_FP16();
    optest::checkOperator(global(PoolingType::Average, nhwc(F16, 2, 17, 13, 15), TensorDesc::make(F16, {2, 17, 1, 1})));
    optest::checkOperator(global(PoolingType::Max, TensorDesc::make(F16, {2, 3, 31, 33}), TensorDesc::make(F32, {2, 3, 1, 1})));
    // 70000 planes: more workgroups than one dispatch dim holds.
    optest::checkOperator(global(PoolingType::Average, TensorDesc::make(F16, {1, 70000, 2, 2}), TensorDesc::make(F16, {1, 70000, 1, 1})));
}

TEST_F(Pooling, ValidationErrors) {
    const TensorDesc in = TensorDesc::make(F32, {1, 3, 8, 8});
    PoolingDesc d = pooling(PoolingType::Max, in, Window{}, F32);
    d.output = TensorDesc::make(F32, {1, 3, 8, 7});
    EXPECT_EQ(compileError(d), "pooling 'pool': output sizes [1,3,8,7] differ from the expected [1,3,7,7]");

    d = pooling(PoolingType::Max, in, Window{}, F32);
    d.window = {0, 2};
    EXPECT_EQ(compileError(d), "pooling 'pool': window[0] is 0");
    d = pooling(PoolingType::Max, in, Window{}, F32);
    d.strides = {1, 0};
    EXPECT_EQ(compileError(d), "pooling 'pool': strides[1] is 0");
    d = pooling(PoolingType::Max, in, Window{}, F32);
    d.dilations = {0, 1};
    EXPECT_EQ(compileError(d), "pooling 'pool': dilations[0] is 0");
    d = pooling(PoolingType::Max, in, Window{}, F32);
    d.padEnd = {0, 2};
    EXPECT_EQ(compileError(d), "pooling 'pool': pads of dim 1 (begin 0, end 2) must be smaller than the dilated window 2");
    d = pooling(PoolingType::Max, in, Window{}, F32);
    d.window = {9, 2};
    EXPECT_EQ(compileError(d), "pooling 'pool': dilated window 9 is larger than the padded input height 8");
    d = pooling(PoolingType::Lp, in, Window{}, F32);
    d.p = 0;
    EXPECT_EQ(compileError(d), "pooling 'pool': Lp pooling needs p >= 1, got 0");
    d = pooling(PoolingType::Max, in, Window{}, F32);
    d.input = TensorDesc::make(F32, {3, 8, 8});
    EXPECT_EQ(compileError(d), "pooling 'pool': input rank is 3, expected 4");
    EXPECT_EQ(compileError(global(PoolingType::Max, in, TensorDesc::make(F32, {1, 3, 2, 1}))),
              "pooling 'gp': output sizes [1,3,2,1] differ from the expected [1,3,1,1]");
}

}  // namespace
