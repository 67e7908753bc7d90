#pragma once
// Internal: the CPU half of graph compilation. planGraph() validates a GraphDesc, orders and
// culls its nodes, runs the fusion and folding passes, places intermediates in the temporary
// resource with lifetime-based aliasing and decides where barriers go. The GPU half
// (graph_compile.cpp) turns the result into pipelines and descriptor sets.
#include "kernel.h"
#include "mlplugin/graph.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlplugin::detail {

inline constexpr uint64_t kGraphAlignment = 256;

struct PlannedNode {
    GraphNode node;
    std::string label;
    bool barrierBefore = false;  // reads or overwrites memory an earlier unsynchronized node touched
    // A fused element-wise chain (kernel.h ElementWiseChain) when not empty: its steps in order;
    // node.inputs are then the chain's inputs in slot order (a0, b0, b1, ...; kNoValue for an
    // absent b) and node.op is the last step.
    std::vector<ElementWiseDesc> chain;
    // A fused convolution chain (kernel.h ConvChain) when not empty: its convolutions in order;
    // node.inputs are then the chain's input and each layer's filter and bias (kNoValue for
    // none), and node.op is the last convolution or the depth-to-space folded into its store.
    std::vector<ConvolutionDesc> convChain;
    // What the convolution of node.op does besides convolving (kernel.h ConvolutionFusion): a
    // depth-to-space folded into its store (node.outputs are then the depth-to-space's), PReLU
    // slopes, a residual, a concatenated / upsampled input, a max pool in the store. The fused
    // tensors are node.inputs[3] (slopes), [4] (residual), [5] (the concat's second part), each
    // kNoValue when absent, bound at slot index + 1 (kConvSlopeSlot...); with `source`,
    // node.inputs[0] is the source.
    ConvolutionFusion fusion;
};

// Where a value lives at execution time.
struct ValuePlacement {
    enum class Where { GraphInput, GraphOutput, Temporary, Constant, Unused } where = Where::Unused;
    uint32_t index = 0;     // GraphInput/GraphOutput: binding index
    uint64_t offset = 0;    // Temporary: byte offset in the temporary resource; GraphOutput: within the output
    uint64_t bytes = 0;     // GraphOutput: 0 = the whole output, else a sub-range (a view)
};

// A value written in place into a slice of another (concat elimination): `base` holds it at
// byte `offset`, and the value's desc carries the base's strides.
struct ValueView {
    ValueId base = kNoValue;
    uint64_t offset = 0;
};

struct GraphPlan {
    std::vector<GraphValue> values;        // the input graph's values plus folded constants
    std::vector<PlannedNode> nodes;        // topological order, after fusion and culling
    std::vector<ValuePlacement> placement; // per value
    std::vector<ValueView> views;          // per value; base == kNoValue for ordinary values
    std::vector<ValueId> inputs, outputs;
    GraphCompileReport report;
};

struct GraphPlanOptions {
    bool fuse = true;
    bool alias = true;
    bool convChains = true;               // with fuse: fuse convolution chains (GraphCompileFlagDisableConvChains)
    bool forceConvChains = false;         // ...which happens only when forced (GraphCompileFlagForceConvChains)
    uint32_t sharedMemoryBytes = 49152;   // the device's, for the convolution chains' tiles
    // fp16 conv -> conv intermediates stored NHWC where this says the writer and every reader
    // run on the tensor-core kernel with that layout (empty: never).
    std::function<bool(const ConvolutionDesc&)> channelsLastConv;
    // Whether a convolution can take a fusion (kernel.h convolutionTakesFusion): PReLU slopes, a
    // residual add, a max pool in the store, a concatenated / upsampled input (empty: none of them).
    std::function<bool(const ConvolutionDesc&, const ConvolutionFusion&)> convFusion;
    // Conv -> conv intermediates padded to whole 16-channel fragments where this says the writer
    // and every reader run on the tensor cores with the wider tensor (graph_pad.cpp; empty: never).
    std::function<bool(const ConvolutionDesc&)> padChannels;
};

Result<GraphPlan> planGraph(const GraphDesc& desc, const GraphPlanOptions& options);

// compileGraph without a Vulkan device, for one with `caps`: planning plus every node's operator
// plan, launches and binding rules, but no pipelines (VK_NULL_HANDLE) and no device, so the
// result can never be bound or recorded. For the fuzz targets (fuzz/) and CPU-only tests.
Result<CompiledGraph> compileGraphOnCpu(const Capabilities& caps, const GraphDesc& desc, uint32_t flags);

// The fusion and folding passes, to a fixed point, then concat elimination (graph_fusion.cpp).
void fuseGraph(GraphPlan& plan, const GraphPlanOptions& options);

// Conv -> conv intermediates of more than 16 channels, not a multiple of 16, padded with zero
// channels to the next multiple (when that adds at most half) where `onTensorCores` accepts
// every convolution involved as it would be (graph_pad.cpp). Exact: the new filter rows, bias
// entries and columns are zero.
void padConvChannels(GraphPlan& plan, const std::function<bool(const ConvolutionDesc&)>& onTensorCores);

}  // namespace mlplugin::detail
