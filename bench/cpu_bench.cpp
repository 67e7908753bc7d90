// cpu_bench: CPU-side costs of the plugin (Google Benchmark) on any Vulkan device, lavapipe
// included: compiling one operator and whole graphs, creating + binding a binding table, and
// recording the compiled ESPCN upscaler per frame. Every benchmark reports heap allocations
// per iteration (global operator new, alloc_counter.cpp) as the counter `allocs_per_iter`;
// the per-frame recording path must make none (target also: <= 10 us per frame).
//
// Recording never submits (the persistent resources are bound but not initialized); the
// command pool is reset outside the timed region every kRecordsPerBuffer records.
#include "alloc_counter.h"
#include "bound_graph.h"
#include "effect_rig.h"
#include "bridge/graph_session.h"
#include "engine/context.h"
#include "networks.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

using namespace mlplugin;

namespace {

struct Env {
    std::unique_ptr<engine::Context> ctx;
    std::unique_ptr<Device> device;
};
Env* g_env = nullptr;

constexpr uint32_t kRecordsPerBuffer = 256;

// Heap allocations between construction and report(), divided by the iterations run.
class AllocationCount {
public:
    AllocationCount() : start_(bench::heapAllocations()) {}
    void report(benchmark::State& state) const {
        double n = double(bench::heapAllocations() - start_);
        state.counters["allocs_per_iter"] = benchmark::Counter(state.iterations() ? n / double(state.iterations()) : n);
    }

private:
    uint64_t start_;
};

ConvolutionDesc conv3x3(uint32_t width, uint32_t height, uint32_t channels) {
    ConvolutionDesc c;
    c.name = "conv3x3";
    c.input = TensorDesc::make(DataType::Float32, {1, channels, height, width});
    c.filter = TensorDesc::make(DataType::Float32, {channels, channels, 3, 3}, TensorFlagOwnedByPlugin);
    c.bias = TensorDesc::make(DataType::Float32, {channels}, TensorFlagOwnedByPlugin);
    c.output = c.input;
    c.padBegin = c.padEnd = {1, 1};
    return c;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Validation + pipeline lookup of one convolution. The device caches pipelines (created once
// per shader variant), so the steady state is the plugin's own work; the first compile of a
// process, driver pipeline creation included, is the context value first_compile_ms.
void BM_CompileOperatorConv3x3(benchmark::State& state) {
    OperatorDesc desc = conv3x3(uint32_t(state.range(0)), uint32_t(state.range(1)), 32);
    if (!g_env->device->compileOperator(desc)) return state.SkipWithError("compileOperator failed");
    AllocationCount allocs;
    for (auto _ : state) {
        auto op = g_env->device->compileOperator(desc);
        if (!op) return state.SkipWithError(op.error().message.c_str());
        benchmark::DoNotOptimize(op);
    }
    allocs.report(state);
}

// compileGraph of ESPCN x2 (fusion, planning, weights blob, pipelines from the cache).
void BM_CompileGraphEspcn(benchmark::State& state) {
    bench::Network net = bench::espcn(DataType::Float32, uint32_t(state.range(0)), uint32_t(state.range(1)));
    if (!compileGraph(*g_env->device, net.graph)) return state.SkipWithError("compileGraph failed");
    AllocationCount allocs;
    for (auto _ : state) {
        auto compiled = compileGraph(*g_env->device, net.graph);
        if (!compiled) return state.SkipWithError(compiled.error().message.c_str());
        benchmark::DoNotOptimize(compiled);
    }
    allocs.report(state);
}

// Creating a binding table for compiled ESPCN and binding inputs, outputs, temporary and
// persistent buffers (descriptor writes): what an application does when its resources change.
void BM_CreateAndBindTable(benchmark::State& state) {
    bench::Network net = bench::espcn(DataType::Float32, uint32_t(state.range(0)), uint32_t(state.range(1)));
    bench::BoundGraph bound(*g_env->ctx, *g_env->device, net.graph);
    AllocationCount allocs;
    for (auto _ : state) bound.bind();
    allocs.report(state);
}

// The timed loop of a recording benchmark: `recordOne` records one frame (false: failed) into
// `cmd`, which is begun; every kRecordsPerBuffer records the buffer is ended, reset and begun
// again outside the timing. Heap allocations inside the loop are reported; `cmd` ends ended.
template <class RecordOne>
void timeRecords(benchmark::State& state, bench::CommandBuffer& cmd, RecordOne&& recordOne) {
    uint32_t inBuffer = 0;
    AllocationCount allocs;
    for (auto _ : state) {
        if (!recordOne()) {
            cmd.end();
            return state.SkipWithError("record failed");
        }
        if (++inBuffer == kRecordsPerBuffer) {
            state.PauseTiming();
            cmd.end();
            cmd.reset();
            cmd.begin();
            inBuffer = 0;
            state.ResumeTiming();
        }
    }
    allocs.report(state);
    cmd.end();
}

// One frame's recording of a whole network (CommandRecorder::record), steady state.
void recordBenchmark(benchmark::State& state, const bench::Network& net) {
    bench::BoundGraph bound(*g_env->ctx, *g_env->device, net.graph);
    auto recorder = g_env->device->createCommandRecorder();
    if (!recorder) return state.SkipWithError(recorder.error().message.c_str());
    bench::CommandBuffer cmd(*g_env->ctx);
    cmd.begin();
    timeRecords(state, cmd, [&] { return bool((*recorder)->record(cmd.handle(), *bound.compiled().op, bound.table())); });
    state.counters["dispatches"] = bound.compiled().report.dispatchablesOut;
}

// The same network recorded once into a CommandBundle; one frame is one execute().
void executeBundleBenchmark(benchmark::State& state, const bench::Network& net) {
    bench::BoundGraph bound(*g_env->ctx, *g_env->device, net.graph);
    auto recorder = g_env->device->createCommandRecorder();
    if (!recorder) return state.SkipWithError(recorder.error().message.c_str());
    auto bundle = (*recorder)->recordBundle(*bound.compiled().op, bound.table());
    if (!bundle) return state.SkipWithError(bundle.error().message.c_str());
    bench::CommandBuffer cmd(*g_env->ctx);
    cmd.begin();
    timeRecords(state, cmd, [&] { return bool((*bundle)->execute(cmd.handle())); });
    state.counters["dispatches"] = bound.compiled().report.dispatchablesOut;
}

// SRVGG-compact (the 37-operator network; fused to fewer dispatches) in fp16 where the
// device has it: the kernels and so the dispatch count the demo's precision gets. 480x270: the
// CPU cost does not depend on the size, and lavapipe's buffer range holds it.
bench::Network srvggForRecording() {
    return bench::srvggCompact(g_env->device->capabilities().fp16Storage ? DataType::Float16 : DataType::Float32, 480, 270);
}

void BM_RecordSrvgg(benchmark::State& state) { recordBenchmark(state, srvggForRecording()); }
void BM_ExecuteBundleSrvgg(benchmark::State& state) { executeBundleBenchmark(state, srvggForRecording()); }

// One frame's recording of the upscaler effect (Upscaler::record: input checks, barriers, its
// dispatches and, in the ML mode, the network), steady state (descriptors written).
void recordEffectBenchmark(benchmark::State& state, effects::UpscalerMode mode, const std::string& model, bool bundle = true) {
    bench::EffectRig rig(*g_env->ctx, mode, {960, 540}, {1920, 1080}, model, bundle);
    bench::CommandBuffer cmd(*g_env->ctx);
    cmd.begin();
    if (!rig.upscaler().recordInitialization(cmd.handle())) return state.SkipWithError("recordInitialization failed");
    uint32_t frame = 0;
    for (; frame < 4 * rig.upscaler().desc().framesInFlight; ++frame)
        if (!rig.upscaler().record(cmd.handle(), rig.inputs(frame))) return state.SkipWithError("record failed");
    timeRecords(state, cmd, [&] { return bool(rig.upscaler().record(cmd.handle(), rig.inputs(frame++))); });
}

void BM_RecordTaau(benchmark::State& state) { recordEffectBenchmark(state, effects::UpscalerMode::Taau, ""); }

// The shipped temporal network when it exists, else the test model of the same contract.
void BM_RecordTemporalMl(benchmark::State& state) {
    std::string shipped = VKML_ASSETS_DIR "/upscaler_temporal.onnx";
    std::FILE* f = std::fopen(shipped.c_str(), "rb");
    if (f) std::fclose(f);
    // Argument: 1 = the network as a bundle (EffectDevice::primaryCommandBuffers, what the demo
    // runs), 0 = recorded every frame (what secondaries get).
    recordEffectBenchmark(state, effects::UpscalerMode::MlTemporal, f ? shipped : VKML_TEST_DATA_DIR "/onnx/temporal_take_current.onnx",
                          state.range(0) != 0);
}

void BM_RecordEspcn(benchmark::State& state) {
    recordBenchmark(state, bench::espcn(DataType::Float32, uint32_t(state.range(0)), uint32_t(state.range(1))));
}

void BM_RecordFsrcnn(benchmark::State& state) {
    recordBenchmark(state, bench::fsrcnn(DataType::Float32, uint32_t(state.range(0)), uint32_t(state.range(1))));
}

// 1920x1080 where the device's maxStorageBufferRange holds ESPCN's 64-channel fp32 tensors
// (530 MB), else 640x360 (lavapipe: 128 MiB). CPU costs barely depend on the size.
std::pair<int64_t, int64_t> largeSize(Device& device) {
    auto t0 = std::chrono::steady_clock::now();
    bool fullHd = bool(compileGraph(device, bench::espcn(DataType::Float32, 1920, 1080).graph));
    if (!fullHd && !compileGraph(device, bench::espcn(DataType::Float32, 640, 360).graph)) throw std::runtime_error("compileGraph of ESPCN failed");
    // The graph's validation stops before pipeline creation when a tensor does not fit, so this
    // is the first ESPCN compilation either way.
    benchmark::AddCustomContext("first_compile_ms", std::to_string(msSince(t0)) + " (ESPCN fp32, driver pipeline creation included)");
    if (fullHd) return {1920, 1080};
    std::printf("ESPCN at 1920x1080 exceeds this device's maxStorageBufferRange: the large size is 640x360\n");
    return {640, 360};
}

void registerBenchmarks(Device& device) {
    auto [w, h] = largeSize(device);
    benchmark::RegisterBenchmark("BM_CompileOperatorConv3x3", BM_CompileOperatorConv3x3)->Args({w, h})->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_CompileGraphEspcn", BM_CompileGraphEspcn)->Args({w, h})->Args({64, 64})->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_CreateAndBindTable", BM_CreateAndBindTable)->Args({w, h})->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_RecordEspcn", BM_RecordEspcn)->Args({w, h})->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_RecordFsrcnn", BM_RecordFsrcnn)->Args({w, h})->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_RecordSrvgg", BM_RecordSrvgg)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_ExecuteBundleSrvgg", BM_ExecuteBundleSrvgg)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_RecordTaau", BM_RecordTaau)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_RecordTemporalMl", BM_RecordTemporalMl)->ArgName("bundle")->Arg(1)->Arg(0)->Unit(benchmark::kMicrosecond);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    try {
        engine::ContextDesc cd;
        cd.applicationName = "cpu_bench";
        Env env;
        env.ctx = std::make_unique<engine::Context>(cd);
        env.device = bridge::createDevice(*env.ctx, false);
        g_env = &env;
        registerBenchmarks(*env.device);
        benchmark::AddCustomContext("vulkan_device", env.ctx->deviceName());
        benchmark::RunSpecifiedBenchmarks();
        benchmark::Shutdown();
        g_env = nullptr;
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cpu_bench: %s\n", e.what());
        return 1;
    }
}
