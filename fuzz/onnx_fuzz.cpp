// Fuzz target: ONNX model bytes -> loadOnnx -> GraphDesc -> compileGraphOnCpu (validation, shape
// checks, fusion, memory planning, every node's operator plan and binding rules; everything
// compileGraph does except creating pipelines). Loaded once in fp32 for a lavapipe-like device
// and once in fp16 for a device with tensor cores, so both kernel selections are planned.
#include "fuzz_checks.h"
#include "graph/graph_plan.h"
#include "mlplugin/onnx.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace mlplugin;

namespace {

void compileLoaded(std::span<const uint8_t> bytes, DataType computeType, const Capabilities& caps, uint32_t flags) {
    OnnxLoadOptions options;
    // The free dimension names the test models and common exporters use.
    for (const char* name : {"batch", "N", "height", "width", "H", "W"}) options.freeDimensions[name] = 3;
    options.computeType = computeType;
    Result<OnnxModel> model = loadOnnx(bytes, options);
    if (!model) {
        vkml_fuzz::checkError(model.error(), {ErrorCode::InvalidModel, ErrorCode::Unsupported, ErrorCode::InvalidArgument});
        return;
    }
    if (model->inputNames.size() != model->graph.inputs.size() || model->outputNames.size() != model->graph.outputs.size()) {
        std::fprintf(stderr, "fuzz check failed: input/output names do not match the graph's bindings\n");
        std::abort();
    }
    Result<CompiledGraph> compiled = detail::compileGraphOnCpu(caps, model->graph, flags);
    if (!compiled) {
        vkml_fuzz::checkError(compiled.error(), {ErrorCode::InvalidArgument, ErrorCode::Unsupported});
        return;
    }
    vkml_fuzz::checkCompiled(*compiled, caps);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::span<const uint8_t> bytes(data, size);
    const auto& caps = vkml_fuzz::capabilitySets();
    compileLoaded(bytes, DataType::Float32, caps[0], GraphCompileFlagNone);
    compileLoaded(bytes, DataType::Float16, caps[1], ExecutionFlagAllowHalfPrecisionComputation);
    return 0;
}
