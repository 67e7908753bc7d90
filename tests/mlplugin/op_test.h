#pragma once
// Operator conformance harness: random inputs (never zeros), GPU run through the public API
// (compile, initialize, bind, record, submit), outputs poisoned beforehand, temporaries filled
// with junk, comparison against mlplugin::referenceEvaluate in double.
#include "mlplugin/graph.h"
#include "mlplugin/mlplugin.h"
#include "vulkan_test.h"

#include <cstdint>
#include <string>
#include <vector>

namespace optest {

// The mlplugin device over testsupport::context() (DeviceFlagDebug on).
mlplugin::Device& device();
// A DeviceDesc over the test context: no flags, no optional features.
mlplugin::DeviceDesc deviceDesc();
bool fp16Supported();

struct RunOptions {
    uint32_t executionFlags = 0;
    bool poisonOutputs = true;   // outputs pre-filled with NaN so unwritten elements fail
    bool junkTemporary = true;   // temporary resource pre-filled with junk
    double tolerance = 0;        // relative L2; 0: 1e-4 for fp32 outputs, 1e-2 for fp16
    bool viaBundle = false;      // record through CommandRecorder::recordBundle + execute, not record
};

// Uniform random values in [lo, hi) for every input of `desc` (fp16 inputs rounded to half).
// Deterministic for a given seed. Owned-by-plugin tensors included.
std::vector<mlplugin::HostTensor> randomInputs(const mlplugin::OperatorDesc& desc, uint32_t seed, double lo = -1.0, double hi = 1.0);
mlplugin::HostTensor randomTensor(const mlplugin::TensorDesc& desc, uint32_t seed, double lo = -1.0, double hi = 1.0);

// Runs `desc` on the GPU. Fails the current test (and returns empty) on any error.
std::vector<mlplugin::HostTensor> runOnGpu(const mlplugin::OperatorDesc& desc, const std::vector<mlplugin::HostTensor>& inputs,
                                           const RunOptions& options = {});

// ||got - want||_2 / max(||want||_2, tiny) over the elements the output desc addresses;
// NaN anywhere in `got` gives +inf.
double relativeL2(const mlplugin::HostTensor& got, const mlplugin::HostTensor& want);

// randomInputs + runOnGpu + referenceEvaluate + relativeL2 per output, with EXPECT_LT.
void checkOperator(const mlplugin::OperatorDesc& desc, const RunOptions& options = {}, uint32_t seed = 1);
void checkOperator(const mlplugin::OperatorDesc& desc, const std::vector<mlplugin::HostTensor>& inputs, const RunOptions& options = {});

// The message compileOperator fails with, or "<compiled>" when it succeeds.
std::string compileError(const mlplugin::OperatorDesc& desc);
// [n, c, h, w] stored channels-last.
mlplugin::TensorDesc nhwc(mlplugin::DataType type, uint32_t n, uint32_t c, uint32_t h, uint32_t w);
// [n, c, h, w] with `pad` unused elements after every row.
mlplugin::TensorDesc paddedRows(mlplugin::DataType type, uint32_t n, uint32_t c, uint32_t h, uint32_t w, uint32_t pad);

// Skips the current test on devices without fp16 storage and arithmetic.
#define REQUIRE_FP16() \
    if (!optest::fp16Supported()) GTEST_SKIP() << "no fp16 on this device"

// Runs a compiled graph on `inputs` (in graph.inputs order, laid out as their value descs say)
// through the OperatorInitializer (constants blob) and the recorder; returns the outputs as the
// GPU wrote them (empty after a reported failure).
std::vector<mlplugin::HostTensor> runGraph(const mlplugin::CompiledGraph& compiled, const mlplugin::GraphDesc& graph,
                                           const std::vector<mlplugin::HostTensor>& inputs, const RunOptions& options);
// Compiles `graph` (GraphCompileFlags in `graphFlags`), runs it with random inputs and compares
// every output with referenceEvaluateGraph.
void checkGraph(const mlplugin::GraphDesc& graph, const RunOptions& options, uint32_t graphFlags = 0, uint32_t seed = 1);

}  // namespace optest
