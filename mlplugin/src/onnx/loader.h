#pragma once
// Internal state of one ONNX load: every ONNX tensor name maps to either a host tensor (known at
// load time: initializers, Constant nodes, folded shape arithmetic) or a graph value seen
// through a view (a packed TensorDesc over the value's memory, so Reshape/Squeeze/Flatten cost
// nothing). Converters (converters_*.cpp) read inputs and attributes through this class and add
// GraphDesc nodes.
#include "mlplugin/onnx.h"
#include "onnx/external_data.h"

#include <onnx/onnx_pb.h>  // with ONNX_ML: the onnx-ml.pb.h messages Debian ships

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mlplugin::onnx_detail {

// Tensors the loader computes on the CPU (shape arithmetic, ConstantOfShape, folded Gather...)
// are small in real models; the cap keeps hostile ones from allocating gigabytes of doubles.
inline constexpr uint64_t kMaxFoldedElements = uint64_t(1) << 22;
// And all of them together in one load, so that a chain of folds (a few hundred bytes of
// ConstantOfShape -> Concat -> Reshape -> Slice -> Transpose -> Cast, as PyTorch exports Pad) cannot
// keep the CPU busy for long or hold gigabytes either. Found by the ONNX fuzzer: 16.7M elements
// through such a chain took 31 s and 1.9 GB under the sanitizers.
inline constexpr uint64_t kMaxFoldedTotalElements = uint64_t(1) << 24;

// A tensor whose values the loader knows: int64 shape arithmetic and float weights alike, held
// as double (exact for integers below 2^53).
struct HostTensorValue {
    std::vector<int64_t> dims;
    std::vector<double> data;
    bool integer = false;
    uint64_t count() const;
};

// A graph value seen with `view` sizes (packed, same element count as the value, or the value's
// own desc).
struct GraphView {
    ValueId value = kNoValue;
    TensorDesc view;
};

struct LoaderValue {
    std::optional<HostTensorValue> host;
    std::optional<GraphView> graph;
    ValueId materialized = kNoValue;  // host tensor copied into a graph constant on first GPU use
};

class Loader;
using Converter = std::function<Status(Loader&, const onnx::NodeProto&)>;
// Registered converters by op type (converters_*.cpp each add theirs).
const std::unordered_map<std::string, Converter>& converters();
void registerElementwiseConverters(std::unordered_map<std::string, Converter>& table);
void registerNetworkConverters(std::unordered_map<std::string, Converter>& table);
void registerShapeConverters(std::unordered_map<std::string, Converter>& table);
void registerHostConverters(std::unordered_map<std::string, Converter>& table);
void registerMovementConverters(std::unordered_map<std::string, Converter>& table);

class Loader {
public:
    Loader(GraphDesc& graph, int64_t opset, DataType computeType, ExternalDataSource external = {})
        : graph_(graph), opset_(opset), computeType_(computeType), external_(std::move(external)) {}

    int64_t opset() const { return opset_; }
    // Where tensors with external data are read from (Constant values, initializers).
    const ExternalDataSource& external() const { return external_; }
    DataType computeType() const { return computeType_; }
    GraphDesc& graph() { return graph_; }

    // "node 'conv1' (Conv)": every message about the node being converted starts with this.
    std::string where() const;
    void setCurrentNode(const onnx::NodeProto* node, size_t index) { node_ = node; nodeIndex_ = index; }
    const onnx::NodeProto& node() const { return *node_; }

    Error invalid(const std::string& what) const;          // ErrorCode::InvalidModel
    Error unsupportedHere(const std::string& what) const;  // ErrorCode::Unsupported

    // --- values
    bool has(const std::string& name) const { return values_.count(name) != 0; }
    void define(const std::string& name, LoaderValue v) { values_[name] = std::move(v); }
    const LoaderValue* find(const std::string& name) const;

    size_t inputCount() const;                   // as declared, empty (absent optional) names included
    bool hasInput(size_t i) const;               // declared and not the empty name
    Result<const LoaderValue*> input(size_t i) const;
    // Input i as a host tensor (it must be known at load time: a shape, axes, pads...).
    Result<HostTensorValue> hostInput(size_t i, const char* what) const;
    // Input i as a graph value view; host tensors are materialized as graph constants.
    Result<GraphView> graphInput(size_t i);
    Result<GraphView> asGraph(const std::string& name);

    // Defines output i of the current node.
    void setHostOutput(size_t i, HostTensorValue t);
    void setGraphOutput(size_t i, GraphView v);
    // Adds the current node's host outputs to the load's folded total (kMaxFoldedTotalElements);
    // an error names the node once the total is over.
    Status countFolded();

    // Adds `op` reading `inputs` (views: the node sees the view sizes) and names its outputs
    // after the current node's outputs. Returns the output values.
    Result<std::vector<GraphView>> addNode(OperatorDesc op, const std::vector<std::optional<GraphView>>& inputs);
    // Single-output convenience: adds the node and defines the current node's output 0.
    Status emit(OperatorDesc op, const std::vector<std::optional<GraphView>>& inputs);

    // --- attributes
    const onnx::AttributeProto* attribute(const std::string& name) const;
    Result<int64_t> intAttr(const std::string& name, int64_t fallback) const;
    Result<float> floatAttr(const std::string& name, float fallback) const;
    Result<std::string> stringAttr(const std::string& name, const std::string& fallback) const;
    Result<std::vector<int64_t>> intsAttr(const std::string& name) const;  // empty when absent
    Result<std::vector<float>> floatsAttr(const std::string& name) const;
    // Fails naming every attribute of the node that is not in `known`.
    Status onlyAttributes(std::initializer_list<const char*> known) const;

    // Normalizes a possibly negative axis against `rank`.
    Result<uint32_t> axis(int64_t a, uint32_t rank, const char* what) const;

    std::string nodeName() const;  // the ONNX node name, or "<OpType>_<index>"

private:
    GraphDesc& graph_;
    int64_t opset_;
    DataType computeType_;
    ExternalDataSource external_;
    std::unordered_map<std::string, LoaderValue> values_;
    const onnx::NodeProto* node_ = nullptr;
    size_t nodeIndex_ = 0;
    uint64_t foldedElements_ = 0;
};

// --- helpers shared by converters
// Host values as integers: rounded toward zero and clamped to +-2^62, so that exporters'
// "to the end" markers (INT64_MAX, not exact in double) and hostile values stay in range.
int64_t toInt64(double v);
std::vector<int64_t> toInts(const HostTensorValue& h);
TensorDesc packedDesc(DataType type, const std::vector<uint32_t>& sizes);
std::vector<uint32_t> sizesOf(const TensorDesc& d);
std::vector<int64_t> dimsOf(const TensorDesc& d);
// "[1,2,3]" for messages.
std::string dimsString(const std::vector<int64_t>& dims);
std::string floatsString(const std::vector<double>& values);
// Checks dims (positive, at most kMaxTensorRank of them, element cap) and converts; a scalar
// becomes [1]. Errors start with `what`.
Result<std::vector<uint32_t>> toSizes(const std::vector<int64_t>& dims, const std::string& what);
// A view of the same packed data with other sizes (element counts must match).
Result<GraphView> reshapeView(const Loader& l, const GraphView& v, const std::vector<uint32_t>& sizes);
// Reshape's target dims for input dims `in`: `0` copies the input dim (unless allowZero), one
// `-1` is inferred from the element count. Errors name the loader's current node.
Result<std::vector<int64_t>> resolveReshapeDims(const Loader& l, const std::vector<int64_t>& in, std::vector<int64_t> shape, bool allowZero);
// Numpy-style broadcast of two host tensors through `f` (integer results truncated).
Result<HostTensorValue> broadcastHost(const Loader& l, const HostTensorValue& a, const HostTensorValue& b, double (*f)(double, double));
// Input i's dims, whether a host tensor or a graph value.
Result<std::vector<int64_t>> dimsOfInput(Loader& l, size_t i);
// A 1-D int64 host tensor.
HostTensorValue integerVector(const std::vector<int64_t>& values);
// A list that was attribute `name` before `inputOpset` and is input 1 from it on (axes, split).
Result<std::vector<int64_t>> axesAttrOrInput(Loader& l, int64_t inputOpset, const char* name);
// Row-major element strides of `dims`.
std::vector<uint64_t> stridesOf(const std::vector<int64_t>& dims);
// ONNX TensorProto -> host tensor, validating dims, data type and payload size; external data
// is read from `external`'s folder (external_data.h), or refused when it has none.
Result<HostTensorValue> hostFromTensorProto(const onnx::TensorProto& t, const std::string& what, const ExternalDataSource& external = {});

}  // namespace mlplugin::onnx_detail
