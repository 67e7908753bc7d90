// optest::checkGraph: a compiled graph through the same harness as single operators. Its own
// translation unit so that only test binaries that use graphs link the graph compiler.
#include "mlplugin/graph.h"
#include "op_test.h"
#include "op_test_internal.h"

#include <algorithm>
#include <cstring>

namespace optest {

using namespace mlplugin;

void checkGraph(const GraphDesc& graph, const RunOptions& options, uint32_t graphFlags, uint32_t seed) {
    auto compiled = compileGraph(device(), graph, graphFlags | options.executionFlags);
    ASSERT_TRUE(compiled.ok()) << "compileGraph: " << compiled.error().message;
    std::string label = compiled->op->name();

    std::vector<HostTensor> inputs;
    std::vector<const TensorDesc*> inDescs;
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
        const TensorDesc& desc = graph.values[graph.inputs[i]].desc;
        inputs.push_back(randomTensor(desc, seed * 7919u + uint32_t(i)));
        inDescs.push_back(&desc);
    }
    // The constants blob: one more input, owned by the plugin (bound to the initializer only).
    const std::vector<uint8_t>& blob = compiled->constantData;
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
    std::vector<HostTensor> got = runCompiled(*compiled->op, inDescs, hostInputs, outDescs, options, label);
    if (got.empty()) return;  // runCompiled reported the failure
    auto want = referenceEvaluateGraph(graph, inputs);
    ASSERT_TRUE(want.ok()) << "referenceEvaluateGraph: " << want.error().message;
    expectClose(got, *want, options, label);
}

}  // namespace optest
