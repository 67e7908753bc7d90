// The fluent builder: readable network definitions, shapes inferred, first error kept.
#include "mlplugin/graph_builder.h"

#include <gtest/gtest.h>

using namespace mlplugin;

namespace {
TensorDesc f32(std::initializer_list<uint32_t> s) { return TensorDesc::make(DataType::Float32, s); }
std::vector<float> filled(size_t n) { return std::vector<float>(n, 0.125f); }
}  // namespace

TEST(GraphBuilder, EspcnReadsLikeTheNetwork) {
    GraphBuilder g;
    Expr x = g.input("lowres", f32({1, 3, 540, 960}));
    Expr w1 = g.constant("w1", f32({64, 3, 5, 5}), filled(64 * 3 * 25));
    Expr b1 = g.constant("b1", f32({64}), filled(64));
    Expr w2 = g.constant("w2", f32({32, 64, 3, 3}), filled(32 * 64 * 9));
    Expr b2 = g.constant("b2", f32({32}), filled(32));
    Expr w3 = g.constant("w3", f32({12, 32, 3, 3}), filled(12 * 32 * 9));
    Expr b3 = g.constant("b3", f32({12}), filled(12));
    Expr y = tanh(conv2d(x, w1, b1, {.pad = 2}));
    y = tanh(conv2d(y, w2, b2, {.pad = 1}));
    Expr out = depthToSpace(conv2d(y, w3, b3, {.pad = 1}), 2);
    g.output(out);
    EXPECT_EQ(out.desc().toString(), "fp32[1,3,1080,1920]");
    auto desc = g.finish();
    ASSERT_TRUE(desc.ok()) << desc.error().message;
    EXPECT_EQ(desc->nodes.size(), 6u);
    EXPECT_EQ(desc->inputs.size(), 1u);
    EXPECT_EQ(desc->outputs.size(), 1u);
}

TEST(GraphBuilder, OperatorsComposeWithArithmetic) {
    GraphBuilder g;
    Expr a = g.input("a", f32({1, 4, 6, 6}));
    Expr b = g.input("b", f32({1, 4, 1, 1}));
    Expr c = relu(a * b + a);
    Expr pooled = globalAvgPool(maxPool2d(c, {.window = 2, .stride = 2}));
    EXPECT_EQ(pooled.desc().toString(), "fp32[1,4,1,1]");
    Expr cat = concat({a, c}, 1);
    EXPECT_EQ(cat.desc().toString(), "fp32[1,8,6,6]");
    Expr up = resize(c, 2.0f, 2.0f);
    EXPECT_EQ(up.desc().toString(), "fp32[1,4,12,12]");
    g.output(pooled);
    EXPECT_TRUE(g.finish().ok());
}

TEST(GraphBuilder, FirstErrorIsKeptAndPropagates) {
    GraphBuilder g;
    Expr a = g.input("a", f32({1, 4, 6, 6}));
    Expr b = g.input("b", f32({1, 3, 6, 6}));
    Expr bad = a + b;  // 4 vs 3 channels
    EXPECT_FALSE(bad.valid());
    Expr later = relu(bad);
    EXPECT_FALSE(later.valid());
    g.output(later);
    auto desc = g.finish();
    ASSERT_FALSE(desc.ok());
    EXPECT_NE(desc.error().message.find("do not broadcast"), std::string::npos) << desc.error().message;
}

TEST(GraphBuilder, ConstantSizeMismatchIsReported) {
    GraphBuilder g;
    Expr x = g.input("x", f32({1, 2, 4, 4}));
    Expr w = g.constant("w", f32({2, 2, 3, 3}), filled(5));
    g.output(conv2d(x, w, std::nullopt, {.pad = 1}));
    auto desc = g.finish();
    ASSERT_FALSE(desc.ok());
    EXPECT_NE(desc.error().message.find("constant 'w' has 5 values"), std::string::npos) << desc.error().message;
}
