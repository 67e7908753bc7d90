// optest::checkGraph: a compiled graph through the same harness as single operators. Its own
// translation unit so that only test binaries that use graphs link the graph compiler.
#include "mlplugin/graph.h"
#include "op_test.h"
#include "op_test_internal.h"

#include <algorithm>
#include <cstring>

namespace optest {

using namespace mlplugin;

std::vector<HostTensor> runGraph(const CompiledGraph& compiled, const GraphDesc& graph, const std::vector<HostTensor>& inputs,
                                 const RunOptions& options) {
    std::vector<const TensorDesc*> inDescs;
    for (ValueId v : graph.inputs) inDescs.push_back(&graph.values[v].desc);
    // The constants blob: one more input, owned by the plugin (bound to the initializer only).
    const std::vector<uint8_t>& blob = compiled.constantData;
    TensorDesc blobDesc = TensorDesc::make(DataType::Float32, {uint32_t(std::max<size_t>(blob.size() / 4, 1))}, TensorFlagOwnedByPlugin);
    HostTensor blobValues{blobDesc, std::vector<double>(blob.size() / 4)};
    for (size_t i = 0; i < blobValues.data.size(); ++i) {
        float f;
        std::memcpy(&f, blob.data() + i * 4, 4);
        blobValues.data[i] = f;
    }
    std::vector<HostTensor> hostInputs = inputs;
    hostInputs.push_back(blob.empty() ? HostTensor{} : blobValues);
    inDescs.push_back(blob.empty() ? nullptr : &blobDesc);

    std::vector<const TensorDesc*> outDescs;
    for (ValueId v : graph.outputs) outDescs.push_back(&graph.values[v].desc);
    return runCompiled(*compiled.op, inDescs, hostInputs, outDescs, options, compiled.op->name());
}

void checkGraph(const GraphDesc& graph, const RunOptions& options, uint32_t graphFlags, uint32_t seed) {
    auto compiled = compileGraph(device(), graph, graphFlags | options.executionFlags);
    ASSERT_TRUE(compiled.ok()) << "compileGraph: " << compiled.error().message;
    std::vector<HostTensor> inputs;
    for (size_t i = 0; i < graph.inputs.size(); ++i)
        inputs.push_back(randomTensor(graph.values[graph.inputs[i]].desc, seed * 7919u + uint32_t(i)));
    std::vector<HostTensor> got = runGraph(*compiled, graph, inputs, options);
    if (got.empty()) return;  // runCompiled reported the failure
    auto want = referenceEvaluateGraph(graph, inputs);
    ASSERT_TRUE(want.ok()) << "referenceEvaluateGraph: " << want.error().message;
    expectClose(got, *want, options, compiled->op->name());
}

}  // namespace optest
