#pragma once
/// \file
/// GraphDesc: a whole network as one dispatchable (DML_GRAPH_DESC). Values are tensors
/// identified by ValueId: graph inputs, constants (weights, with their data on the CPU) and node
/// outputs. compileGraph() validates, infers shapes, fuses, plans intermediate memory and returns
/// a CompiledOperator whose inputs/outputs are the graph's; all intermediates live in its
/// temporary resource and all constants in its persistent resource.
///
/// Lifecycle, split by how often things change (XNNPACK's create / reshape / setup):
///   compileGraph   once per network: pipelines, the persistent layout and the constants blob
///                  the OperatorInitializer turns into the persistent resource (the weights)
///   reshapeGraph   when graph-input extents change (a resize): shapes, kernel choices, the
///                  temporary resource and descriptor sets are recomputed; the persistent resource
///                  stays valid and bound, no initialization (report.persistentReused)
///   bind / record  as for any dispatchable
#include "mlplugin/cpu_reference.h"
#include "mlplugin/device.h"
#include "mlplugin/dispatchable.h"
#include "mlplugin/export.h"
#include "mlplugin/operator_desc.h"
#include "mlplugin/result.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// Index of a value in GraphDesc::values.
using ValueId = uint32_t;
/// No value: an absent optional input.
inline constexpr ValueId kNoValue = UINT32_MAX;

/// A tensor of a graph: an input, a constant or a node output.
struct GraphValue {
    std::string name;  ///< for messages; graph inputs and outputs are bound in order, not by name
    TensorDesc desc;               ///< for node outputs: filled by shape inference
    /// What the value is: a graph input, a constant with data, or a node output.
    enum class Kind { Input, Constant, Intermediate };
    Kind kind = Kind::Intermediate;  ///< input, constant or node output
    std::vector<float> constantData;  ///< Kind::Constant: packed row-major values (fp32)
    /// Kind::Input: the dims reshapeGraph may change (bit i = dim i), e.g. kFreeHeightWidth for an
    /// NCHW image input. The ONNX loader marks the model's symbolic dims.
    uint32_t freeDimMask = 0;
};

/// GraphValue::freeDimMask of an NCHW image input whose H and W may change.
inline constexpr uint32_t kFreeHeightWidth = (1u << 2) | (1u << 3);

/// A node: an operator desc whose tensor fields are filled from the values it reads and
/// writes; `inputs`/`outputs` follow operatorInputs/operatorOutputs order (kNoValue for an
/// absent optional input).
struct GraphNode {
    OperatorDesc op;  ///< its tensor fields are filled from `inputs` and `outputs`
    std::vector<ValueId> inputs;   ///< in operatorInputs() order
    std::vector<ValueId> outputs;  ///< in operatorOutputs() order
};

/// A network: values and the nodes connecting them, built with the add* functions (or by
/// GraphBuilder or the ONNX loader) and compiled by compileGraph.
struct GraphDesc {
    std::vector<GraphValue> values;  ///< indexed by ValueId
    std::vector<GraphNode> nodes;  ///< in execution order
    std::vector<ValueId> inputs;   ///< graph inputs, binding order
    std::vector<ValueId> outputs;  ///< graph outputs, binding order

    /// Adds a graph input (bound at execution, in the order of addition).
    ValueId addInput(std::string name, const TensorDesc& desc);
    /// Adds a constant (weights): `data` holds desc.elementCount() packed values.
    ValueId addConstant(std::string name, const TensorDesc& desc, std::vector<float> data);
    /// Adds a node; output descs are inferred from the inputs and the op's attributes.
    /// Returns the output values (one per operatorOutputs entry).
    Result<std::vector<ValueId>> addNode(OperatorDesc op, std::vector<ValueId> inputs);
    /// Makes `v` a graph output (bound at execution, in the order of marking).
    void markOutput(ValueId v);
    /// Stores graph input or output `v` with the strides of `desc` (the same data type and sizes;
    /// e.g. channels-last NHWC strides on NCHW sizes, so that a caller's own shaders and the
    /// tensor-core convolutions exchange 8 channels per access). Every node that reads or writes
    /// `v` sees the new desc. Call it once the nodes are added. Errors (InvalidArgument): `v` is
    /// not a graph input or output, or `desc` differs in type or sizes or is not a valid layout.
    Status setLayout(ValueId v, const TensorDesc& desc);
    /// Renumbers the channels (dim 1) of graph input or output `v`: afterwards its channel i holds
    /// what channel order[i] held before, and the graph computes the same function of the
    /// renumbered tensor. The permutation is folded into the weights of the convolutions next to
    /// `v`, so it costs nothing at execution: an input must be read only by convolutions (groups 1,
    /// not transposed, as their input) whose filters are constants no other node reads; an output
    /// must be written by such a convolution (bias constant or absent) and read by no node. A
    /// caller's own shaders can then exchange the tensor in whatever channel order suits their
    /// accesses. Errors (InvalidArgument, naming the value and the node): `order` is not a
    /// permutation of dim 1, or the graph around `v` is not of that form; the graph is then
    /// unchanged.
    Status permuteChannels(ValueId v, std::span<const uint32_t> order);
};

/// compileGraph flags (combined with ExecutionFlags).
enum GraphCompileFlags : uint32_t {
    GraphCompileFlagNone = 0,  ///< no flag
    GraphCompileFlagDisableFusion = 1u << 16,     ///< for tests: compile node by node
    GraphCompileFlagDisableAliasing = 1u << 17,   ///< for tests: every intermediate gets its own memory
    GraphCompileFlagDisableConvChains = 1u << 18, ///< for tests and benchmarks: convolutions one dispatch each
    /// Fuse convolution chains (conv -> conv [-> conv] [-> depth-to-space]) whose tiles fit shared
    /// memory into one dispatch. Opt-in: on the GPUs measured so far the fused kernel is slower
    /// than the layers one by one (docs/ARCHITECTURE.md).
    GraphCompileFlagForceConvChains = 1u << 19,
    /// Keep every intermediate in the packed NCHW layout. By default, on devices whose tensor-core
    /// convolution is enabled, fp16 intermediates passed from one convolution to others are stored
    /// channels-last (NHWC), which that kernel reads and writes 8 channels per access.
    GraphCompileFlagDisableChannelsLast = 1u << 20,
    /// Keep every intermediate's channel count as the network has it. By default, on devices
    /// whose tensor-core convolution is enabled, an fp16 intermediate passed from one convolution
    /// to other convolutions only, with more than 16 channels that are not a multiple of 16, gets
    /// zero channels up to the next multiple where that adds at most half (22 -> 32, 24 -> 32,
    /// 56 -> 64; zero filter rows in its writer, zero filter columns in its readers: the outputs
    /// do not change): that kernel works in 16-channel fragments.
    GraphCompileFlagDisableChannelPadding = 1u << 21,
    /// For tests: pad such intermediates on any device and in fp32 too.
    GraphCompileFlagForceChannelPadding = 1u << 22,
};

/// A convolution whose kernel configuration can be chosen by measurement (mlplugin/tuning.h).
struct TunableConvolution {
    std::string node;                     ///< the node's label
    std::string key;                      ///< its TuningTable key
    std::vector<std::string> candidates;  ///< the configurations that can run it
    std::string chosen;                   ///< what this compile took (table entry or heuristic)
};

/// What compileGraph decided (for logs, tests and tools).
struct GraphCompileReport {
    uint32_t nodesIn = 0;  ///< nodes of the GraphDesc
    uint32_t dispatchablesOut = 0;         ///< after fusion and folding
    std::vector<std::string> fusions;      ///< "conv 'c1' + relu 'r1' -> fused activation"
    uint64_t temporaryBytes = 0;           ///< planned, with aliasing
    uint64_t temporaryBytesNaive = 0;      ///< one region per intermediate
    uint64_t persistentBytes = 0;  ///< weights and other constants
    uint32_t barriers = 0;                 ///< between dependent dispatches only
    uint32_t channelsLastValues = 0;       ///< intermediates stored NHWC (GraphCompileFlagDisableChannelsLast)
    uint32_t paddedValues = 0;             ///< intermediates padded to whole 16-channel fragments (GraphCompileFlagDisableChannelPadding)
    std::vector<TunableConvolution> tuning;  ///< convolutions with two or more candidates
    /// reshapeGraph only: the persistent resource initialized for the graph it reshaped holds
    /// exactly what this one needs (same size, same layout, same contents): keep it bound, record
    /// no initializer. Otherwise persistentChange says why and the result is initialized like a
    /// fresh compile.
    bool persistentReused = false;
    /// reshapeGraph only, when not persistentReused: why the persistent resource must be
    /// initialized again (a kernel chosen at these extents lays its weights out differently,
    /// constants that depend on the extents).
    std::string persistentChange;
};

/// A compiled graph: one dispatchable whose inputs are the graph inputs followed by one more,
/// "constants" — owned by the plugin: bind a buffer holding `constantData` to the
/// OperatorInitializer (like a weight tensor), and leave it empty at execution. Outputs are the
/// graph outputs. Intermediates live in the temporary resource, weights and other constants in
/// the persistent resource.
struct CompiledGraph {
    std::unique_ptr<CompiledOperator> op;  ///< the graph as one dispatchable
    std::vector<uint8_t> constantData;  ///< fp32 values of every constant, 256-byte aligned blocks
    GraphCompileReport report;  ///< what the compiler did
};

/// Compiles `desc` for `device`. `flags`: ExecutionFlags and GraphCompileFlags. Errors name the
/// node ("graph node 3 (convolution 'enc2'): ...").
Result<CompiledGraph> compileGraph(Device& device, const GraphDesc& desc, uint32_t flags = 0);

/// The network `compiled` was compiled from, at other graph-input extents: `desc` must be that
/// graph with only free dims (GraphValue::freeDimMask) of its inputs changed and everything
/// derived from them (an ONNX model converted again at new free dimensions, the same builder code
/// run for the new size): the same values, nodes and operator kinds, input names, ranks and data
/// types, fixed dims and constants. Compiled with `compiled`'s flags. The result is a new
/// dispatchable (bind it with a new binding table; `compiled` stays valid until the application
/// releases it); see GraphCompileReport::persistentReused for whether its persistent resource
/// is the one `compiled` already has. Errors (InvalidArgument) name what does not match: "input
/// 0 'color' dim 1 changed from 3 to 4, but it is not a free dim", a zero or oversized extent, a
/// node of another kind.
Result<CompiledGraph> reshapeGraph(Device& device, const CompiledGraph& compiled, const GraphDesc& desc);

/// Evaluates the graph node by node on the CPU (referenceEvaluate, double precision): for tests
/// and for applications validating a model. Inputs and outputs in graph binding order.
Result<std::vector<HostTensor>> referenceEvaluateGraph(const GraphDesc& desc, const std::vector<HostTensor>& inputs);

}  // namespace mlplugin
MLPLUGIN_API_END
