// The per-frame path (CommandRecorder::record of a compiled graph with a bound table) makes no
// heap allocation in steady state. Counted with replaced global operator new (alloc_counter.cpp).
// The context runs without the validation layer on purpose: the layer intercepts every vkCmd*
// on this thread and allocates through the same operator new, which would be counted as ours.
#include "alloc_counter.h"
#include "bound_graph.h"
#include "effect_rig.h"
#include "bridge/graph_session.h"
#include "networks.h"

#include <gtest/gtest.h>

#include <memory>

using namespace mlplugin;

namespace {

// Recording cost does not depend on the resolution (same dispatches, other group counts); 640x360
// keeps every tensor within lavapipe's 128 MiB maxStorageBufferRange.

class RecordAllocations : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        engine::ContextDesc cd;
        cd.applicationName = "record_alloc_test";
        ctx_ = new engine::Context(cd);
        device_ = bridge::createDevice(*ctx_, false).release();
    }
    static void TearDownTestSuite() {
        delete device_;
        delete ctx_;
    }

    // Heap allocations made by `frames` recordings after one warm-up recording.
    static uint64_t allocationsPerFrames(const bench::Network& net, uint32_t flags, uint32_t frames) {
        bench::BoundGraph bound(*ctx_, *device_, net.graph, flags);
        auto recorder = device_->createCommandRecorder();
        EXPECT_TRUE(recorder);
        bench::CommandBuffer cmd(*ctx_);
        cmd.begin();
        EXPECT_TRUE((*recorder)->record(cmd.handle(), *bound.compiled().op, bound.table()));
        uint64_t before = bench::heapAllocations();
        for (uint32_t i = 0; i < frames; ++i) {
            Status s = (*recorder)->record(cmd.handle(), *bound.compiled().op, bound.table());
            if (!s) ADD_FAILURE() << s.error().message;
        }
        uint64_t allocations = bench::heapAllocations() - before;
        cmd.end();
        return allocations;
    }

    static engine::Context* ctx_;
    static Device* device_;
};
engine::Context* RecordAllocations::ctx_ = nullptr;
Device* RecordAllocations::device_ = nullptr;

int* volatile g_escape = nullptr;  // keeps the compiler from eliding the new/delete pairs below

TEST_F(RecordAllocations, CounterSeesOperatorNew) {
    uint64_t before = bench::heapAllocations();
    auto p = std::make_unique<int>(1);
    g_escape = p.get();
    auto v = std::make_unique<int[]>(8);
    g_escape = v.get();
    EXPECT_EQ(bench::heapAllocations() - before, 2u);
}

TEST_F(RecordAllocations, EspcnRecordsWithoutHeapAllocation) {
    EXPECT_EQ(allocationsPerFrames(bench::espcn(DataType::Float32, 640, 360), 0, 100), 0u);
}

TEST_F(RecordAllocations, FsrcnnRecordsWithoutHeapAllocation) {
    EXPECT_EQ(allocationsPerFrames(bench::fsrcnn(DataType::Float32, 640, 360), 0, 100), 0u);
}

TEST_F(RecordAllocations, Fp16EspcnRecordsWithoutHeapAllocation) {
    if (!device_->capabilities().fp16Storage) GTEST_SKIP() << "no fp16 storage on this device";
    EXPECT_EQ(allocationsPerFrames(bench::espcn(DataType::Float16, 640, 360), ExecutionFlagAllowHalfPrecisionComputation, 100), 0u);
}

// The upscaler effect's per-frame record() (validation of the inputs, barriers, dispatches and,
// in the ML mode, the network's recording) allocates nothing once its descriptors are written.
// With `steps`, the application's step callbacks (effects/step_callbacks.h) count the steps: the
// effect's bracketing of them allocates nothing either.
uint64_t effectAllocations(engine::Context& ctx, effects::UpscalerMode mode, const std::string& model, uint32_t* steps = nullptr) {
    bench::EffectRig rig(ctx, mode, {320, 180}, {640, 360}, model);
    auto inputs = [&](uint32_t i) {
        effects::UpscalerInputs in = rig.inputs(i);
        if (steps) in.steps = {.begin = [](void* n, VkCommandBuffer, const char*) { ++*static_cast<uint32_t*>(n); }, .end = nullptr, .user = steps};
        return in;
    };
    bench::CommandBuffer cmd(ctx);
    cmd.begin();
    EXPECT_TRUE(rig.upscaler().recordInitialization(cmd.handle()));
    // Two frames per slot and parity write every descriptor set the steady state uses.
    for (uint32_t i = 0; i < 4 * rig.upscaler().desc().framesInFlight; ++i) EXPECT_TRUE(rig.upscaler().record(cmd.handle(), inputs(i)));
    if (steps) *steps = 0;
    uint64_t before = bench::heapAllocations();
    for (uint32_t i = 0; i < 100; ++i) {
        effects::Status s = rig.upscaler().record(cmd.handle(), inputs(i));
        if (!s) ADD_FAILURE() << s.error().message;
    }
    uint64_t allocations = bench::heapAllocations() - before;
    cmd.end();
    return allocations;
}

TEST_F(RecordAllocations, TaauEffectRecordsWithoutHeapAllocation) {
    EXPECT_EQ(effectAllocations(*ctx_, effects::UpscalerMode::Taau, ""), 0u);
}

TEST_F(RecordAllocations, TemporalMlEffectRecordsWithoutHeapAllocation) {
    EXPECT_EQ(effectAllocations(*ctx_, effects::UpscalerMode::MlTemporal, VKML_TEST_DATA_DIR "/onnx/temporal_take_current.onnx"), 0u);
}

TEST_F(RecordAllocations, TemporalMlEffectWithStepCallbacksRecordsWithoutHeapAllocation) {
    uint32_t steps = 0;
    EXPECT_EQ(effectAllocations(*ctx_, effects::UpscalerMode::MlTemporal, VKML_TEST_DATA_DIR "/onnx/temporal_take_current.onnx", &steps), 0u);
    EXPECT_EQ(steps, 3u * 100u) << "features, network and resolve in each of the 100 frames";
}

}  // namespace
