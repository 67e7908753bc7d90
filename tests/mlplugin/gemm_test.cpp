// GEMM on the GPU against the CPU reference: every transpose combination, alpha/beta, C
// broadcast, batch dims with broadcasting, several tiles with tails, strided operands,
// plugin-owned operands, fp16, fused activations, and every validation error.
#include "kernel.h"  // plans, for the CPU-only checks at the end
#include "op_test.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlplugin;

namespace {

constexpr DataType F32 = DataType::Float32;
constexpr DataType F16 = DataType::Float16;

class Gemm : public testsupport::VulkanTest {};

TensorDesc tensor(DataType type, const std::vector<uint32_t>& sizes, uint32_t flags = TensorFlagNone) {
    TensorDesc t;
    t.dataType = type;
    t.rank = uint32_t(sizes.size());
    for (size_t i = 0; i < sizes.size(); ++i) t.sizes[i] = sizes[i];
    t.flags = flags;
    return t;
}

std::vector<uint32_t> withBatch(std::vector<uint32_t> batch, uint32_t rows, uint32_t cols) {
    batch.push_back(rows);
    batch.push_back(cols);
    return batch;
}

struct GemmParams {
    uint32_t m = 13, n = 11, k = 17;
    std::vector<uint32_t> aBatch, bBatch, outBatch;  // leading dims
    bool transposeA = false, transposeB = false;
    std::vector<uint32_t> c{13, 11};                 // empty: no C
    float alpha = 1.0f, beta = 1.0f;
    DataType type = F32;
    uint32_t aFlags = 0, bFlags = 0, cFlags = 0;
    Activation activation;
};

GemmDesc makeGemm(const GemmParams& p, const std::string& name = "gemm") {
    GemmDesc d;
    d.name = name;
    d.a = tensor(p.type, withBatch(p.aBatch, p.transposeA ? p.k : p.m, p.transposeA ? p.m : p.k), p.aFlags);
    d.b = tensor(p.type, withBatch(p.bBatch, p.transposeB ? p.n : p.k, p.transposeB ? p.k : p.n), p.bFlags);
    if (!p.c.empty()) d.c = tensor(p.type, p.c, p.cFlags);
    d.output = tensor(p.type, withBatch(p.outBatch, p.m, p.n));
    d.transposeA = p.transposeA;
    d.transposeB = p.transposeB;
    d.alpha = p.alpha;
    d.beta = p.beta;
    d.activation = p.activation;
    return d;
}

void check(const GemmParams& p, const std::string& name = "gemm") {
    SCOPED_TRACE(name);
    optest::checkOperator(makeGemm(p, name));
}

std::string compileError(const GemmDesc& d) {
    auto compiled = optest::device().compileOperator(d);
    return compiled.ok() ? std::string("<compiled>") : compiled.error().message;
}

TEST_F(Gemm, AllTransposeCombinationsWithAlphaBeta) {
    for (bool ta : {false, true})
        for (bool tb : {false, true})
            check({.transposeA = ta, .transposeB = tb, .alpha = 0.5f, .beta = 2.0f},
                  std::string("A") + (ta ? "^T" : "") + " x B" + (tb ? "^T" : ""));
}

TEST_F(Gemm, BroadcastCAndNoC) {
    check({.c = {11}}, "C [N]");
    check({.c = {13, 1}, .beta = -1.5f}, "C [M, 1]");
    check({.c = {1}}, "C [1]");
    check({.c = {1, 11}, .alpha = -1.0f}, "C [1, N]");
    check({.c = {}}, "no C");
}

TEST_F(Gemm, SeveralTilesWithTails) {
    check({.m = 70, .n = 130, .k = 65, .c = {130}}, "70x130x65");
    check({.m = 1, .n = 1, .k = 1, .c = {1, 1}}, "1x1x1");
    check({.m = 1, .n = 67, .k = 33, .transposeB = true, .c = {}}, "row vector x B^T");
}

TEST_F(Gemm, BatchDimsWithBroadcasting) {
    check({.aBatch = {2, 3}, .outBatch = {2, 3}, .c = {3, 1, 11}}, "A [2,3,M,K] x B [K,N], C [3,1,N]");
    check({.aBatch = {3, 1}, .bBatch = {1, 2}, .outBatch = {3, 2}, .transposeA = true, .transposeB = true, .c = {}},
          "A [3,1,K,M]^T x B [1,2,N,K]^T");
    check({.aBatch = {4}, .bBatch = {4}, .outBatch = {4}, .c = {4, 13, 11}, .beta = 0.5f}, "one batch dim, full C");
    check({.bBatch = {2}, .outBatch = {2}, .transposeA = true}, "A [K,M]^T x B [2,K,N]");
}

TEST_F(Gemm, StridedOperands) {
    GemmDesc d = makeGemm({.c = {13, 11}});
    d.a = TensorDesc::strided(F32, {13, 17}, {20, 1});   // padded rows
    d.b = TensorDesc::strided(F32, {17, 11}, {1, 17});   // column-major B
    d.c = TensorDesc::strided(F32, {13, 11}, {0, 1});    // every row the same (explicit broadcast)
    d.output = TensorDesc::strided(F32, {13, 11}, {16, 1});
    optest::checkOperator(d);
}

TEST_F(Gemm, PluginOwnedOperands) {
    check({.bFlags = TensorFlagOwnedByPlugin}, "B owned");
    check({.transposeB = true, .bFlags = TensorFlagOwnedByPlugin, .cFlags = TensorFlagOwnedByPlugin}, "B^T and C owned");
    check({.aBatch = {2}, .bBatch = {2}, .outBatch = {2}, .c = {11}, .aFlags = TensorFlagOwnedByPlugin, .bFlags = TensorFlagOwnedByPlugin,
           .cFlags = TensorFlagOwnedByPlugin},
          "all owned, batched");
    GemmDesc strided = makeGemm({.c = {}});
    strided.b = TensorDesc::strided(F32, {17, 11}, {1, 19}, TensorFlagOwnedByPlugin);  // packed from a strided source
    optest::checkOperator(strided);
}

TEST_F(Gemm, FusedActivations) {
    for (Activation a : {relu(), gelu(), sigmoid(), leakyRelu(0.2f)}) {
        SCOPED_TRACE(toString(a.type));
        check({.activation = a});
    }
}

TEST_F(Gemm, Fp16) {
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device";
    for (bool ta : {false, true})
        for (bool tb : {false, true}) check({.transposeA = ta, .transposeB = tb, .alpha = 0.5f, .type = F16}, "fp16");
    check({.aBatch = {2}, .bBatch = {2}, .outBatch = {2}, .c = {11}, .type = F16, .bFlags = TensorFlagOwnedByPlugin,
           .activation = relu()},
          "fp16 batched, owned B");
    GemmDesc mixed = makeGemm({.type = F16});
    mixed.b = TensorDesc::make(F32, {17, 11}, TensorFlagOwnedByPlugin);  // fp32 weights into an fp16 GEMM
    mixed.c = TensorDesc::make(F32, {13, 11});
    optest::checkOperator(mixed);
}

// --- validation ---------------------------------------------------------------------------

TEST_F(Gemm, RejectsMismatchedShapes) {
    GemmDesc d = makeGemm({}, "fc");
    d.b = TensorDesc::make(F32, {16, 11});
    EXPECT_EQ(compileError(d), "gemm 'fc': inner dimensions differ: op(A) is [13, 17] (A [13, 17]), op(B) is [16, 11] (B [16, 11])");
    d = makeGemm({.transposeA = true}, "fc");
    d.a = TensorDesc::make(F32, {13, 17});
    EXPECT_EQ(compileError(d), "gemm 'fc': inner dimensions differ: op(A) is [17, 13] (A [13, 17] transposed), op(B) is [17, 11] "
                               "(B [17, 11])");
    d = makeGemm({}, "fc");
    d.output = TensorDesc::make(F32, {13, 12});
    EXPECT_EQ(compileError(d), "gemm 'fc': output [13, 12] does not end in [M, N] = [13, 11] implied by A and B");
    d = makeGemm({.aBatch = {2}, .outBatch = {2}}, "fc");
    d.output = TensorDesc::make(F32, {13, 11});
    EXPECT_EQ(compileError(d), "gemm 'fc': output [13, 11] must have rank 3 like the larger of A and B");
    d = makeGemm({.aBatch = {2}, .bBatch = {3}, .outBatch = {3}}, "fc");
    EXPECT_EQ(compileError(d), "gemm 'fc': batch sizes of A [2, 13, 17] and B [3, 17, 11] do not broadcast");
    d = makeGemm({.aBatch = {2}, .bBatch = {1}, .outBatch = {3}}, "fc");
    EXPECT_EQ(compileError(d), "gemm 'fc': output [3, 13, 11] batch size 3 does not match the 2 implied by A and B");
}

TEST_F(Gemm, RejectsBadC) {
    GemmDesc d = makeGemm({.c = {13, 2}}, "fc");
    EXPECT_EQ(compileError(d), "gemm 'fc': C [13, 2] does not broadcast to the output [13, 11]");
    d = makeGemm({.c = {1, 13, 11}}, "fc");
    EXPECT_EQ(compileError(d), "gemm 'fc': C [1, 13, 11] has more dims than the output [13, 11]");
}

TEST_F(Gemm, RejectsBadRanksAndParameters) {
    GemmDesc d = makeGemm({}, "fc");
    d.a = TensorDesc::make(F32, {17});
    EXPECT_EQ(compileError(d), "gemm 'fc': A must be 2-D to 4-D ([batch..., rows, cols]), got rank 1 [17]");
    d = makeGemm({.aBatch = {1, 1, 1}, .outBatch = {1, 1, 1}}, "fc");
    EXPECT_EQ(compileError(d), "gemm 'fc': A must be 2-D to 4-D ([batch..., rows, cols]), got rank 5 [1, 1, 1, 13, 17]");
    d = makeGemm({.activation = softplus(0.0f)}, "fc");
    EXPECT_EQ(compileError(d), "gemm 'fc': softplus steepness (alpha) must not be 0");
    d = makeGemm({}, "");
    d.b.sizes[0] = 0;
    EXPECT_EQ(compileError(d), "gemm B: size of dim 0 is 0");
}

// --- plans (CPU only) --------------------------------------------------------------------

TEST(GemmPlan, Fp16NeedsDeviceSupport) {
    detail::PlanContext noFp16;  // a device without 16-bit storage / shaderFloat16
    GemmDesc d = makeGemm({}, "fc");
    d.c->dataType = F16;
    auto plan = detail::planGemm(noFp16, d);
    ASSERT_FALSE(plan.ok());
    EXPECT_EQ(plan.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(plan.error().message, "gemm 'fc' C is fp16 but the device was created without 16-bit storage and shaderFloat16");
}

TEST(GemmPlan, TallMatrixSplitsRowTilesOverLaunches) {
    // A 1x1 convolution over a 4K image as a GEMM: 8294400 rows = 129600 row tiles of 64.
    GemmDesc d = makeGemm({.m = 3840 * 2160, .n = 32, .k = 32, .c = {32}, .type = F16, .bFlags = TensorFlagOwnedByPlugin});
    detail::PlanContext pc;
    pc.fp16Storage = true;
    auto plan = detail::planGemm(pc, d);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_EQ(plan->execute.size(), 2u);
    EXPECT_EQ(plan->execute[0].groups[1], 65535u);
    EXPECT_EQ(plan->execute[1].groups[1], 129600u - 65535u);
    EXPECT_EQ(plan->execute[1].push[0], 65535u);  // first row tile of the second launch
    EXPECT_EQ(plan->persistentBytes, 32u * 32 * 2);  // B packed as fp16
    EXPECT_EQ(plan->initialize.size(), 1u);
}

}  // namespace
