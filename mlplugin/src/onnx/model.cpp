// loadOnnx: parses and validates the protobuf, fixes input shapes, then converts the nodes in
// file order (ONNX requires topological order; anything else is reported as undefined/cyclic).
#include "mlplugin/onnx.h"

#include "onnx/depth_to_space_pattern.h"
#include "onnx/gelu_pattern.h"
#include "onnx/loader.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>

namespace mlplugin::onnx_detail {

// Every converter by ONNX op type (each converters_*.cpp registers its family).
const std::unordered_map<std::string, Converter>& converters() {
    static const std::unordered_map<std::string, Converter> table = [] {
        std::unordered_map<std::string, Converter> t;
        registerElementwiseConverters(t);
        registerNetworkConverters(t);
        registerShapeConverters(t);
        registerMovementConverters(t);
        registerHostConverters(t);
        return t;
    }();
    return table;
}

}  // namespace mlplugin::onnx_detail

namespace mlplugin {

struct ParsedOnnx {
    onnx::ModelProto model;
    int64_t opset = 0;
    onnx_detail::ExternalDataSource external;  // the model file's folder (parseOnnxFile)
};

namespace {

using namespace onnx_detail;

Error invalidModel(std::string m) { return {ErrorCode::InvalidModel, std::move(m)}; }

constexpr int64_t kMinOpset = 6, kMaxOpset = 21;

Result<int64_t> defaultOpset(const onnx::ModelProto& model) {
    int64_t opset = -1;
    for (const auto& o : model.opset_import()) {
        if (o.domain().empty() || o.domain() == "ai.onnx") opset = o.version();
    }
    if (opset < 0) return invalidModel("model imports no version of the default ONNX operator set");
    if (opset < kMinOpset || opset > kMaxOpset)
        return Error{ErrorCode::Unsupported, "opset " + std::to_string(opset) + " is not supported (opsets " + std::to_string(kMinOpset) +
                                                 " through " + std::to_string(kMaxOpset) + " are)"};
    return opset;
}

bool isFloatType(int32_t t) {
    return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::FLOAT16 || t == onnx::TensorProto::DOUBLE;
}

// The fixed shape of graph input `in`: dim_value, a free dimension override by name, or the
// shape given for the input.
Result<std::vector<uint32_t>> inputShape(const onnx::ValueInfoProto& in, const OnnxLoadOptions& options) {
    std::string what = "graph input '" + in.name() + "'";
    if (!in.type().has_tensor_type()) return Error{ErrorCode::Unsupported, what + " is not a tensor"};
    const auto& tt = in.type().tensor_type();
    if (!isFloatType(tt.elem_type()))
        return Error{ErrorCode::Unsupported, what + " has element type " + std::to_string(tt.elem_type()) + "; only float inputs are supported"};
    auto given = options.inputShapes.find(in.name());
    if (!tt.has_shape()) {
        if (given == options.inputShapes.end()) return invalidModel(what + " has no shape; give it in OnnxLoadOptions::inputShapes");
        std::vector<int64_t> dims(given->second.begin(), given->second.end());
        return toSizes(dims, what);
    }
    const auto& shape = tt.shape();
    if (given != options.inputShapes.end() && given->second.size() != size_t(shape.dim_size()))
        return invalidArgument(what + " has rank " + std::to_string(shape.dim_size()) + ", the given shape has " + std::to_string(given->second.size()) + " dims");
    std::vector<int64_t> dims;
    for (int d = 0; d < shape.dim_size(); ++d) {
        const auto& dim = shape.dim(d);
        // The given shape's dim, or -1 when no shape was given (a plain value keeps GCC's
        // -Wmaybe-uninitialized quiet, which misfires on std::optional at -O2).
        int64_t givenDim = given != options.inputShapes.end() ? int64_t(given->second[d]) : -1;
        bool fromShape = givenDim >= 0;
        if (dim.has_dim_value()) {
            if (fromShape && givenDim != dim.dim_value())
                return invalidArgument(what + " dim " + std::to_string(d) + " is " + std::to_string(dim.dim_value()) + ", the given shape says " +
                                       std::to_string(givenDim));
            dims.push_back(dim.dim_value());
            continue;
        }
        auto named = dim.has_dim_param() ? options.freeDimensions.find(dim.dim_param()) : options.freeDimensions.end();
        if (named != options.freeDimensions.end() && fromShape && givenDim != named->second)
            return invalidArgument(what + " dim " + std::to_string(d) + " ('" + dim.dim_param() + "') is fixed to " + std::to_string(named->second) +
                                   ", the given shape says " + std::to_string(givenDim));
        if (named != options.freeDimensions.end()) dims.push_back(named->second);
        else if (fromShape) dims.push_back(givenDim);
        else
            return invalidArgument(what + " dim " + std::to_string(d) + " is free ('" + dim.dim_param() +
                                   "'); fix it with a free-dimension override or an input shape");
    }
    return toSizes(dims, what);
}

// The input's dims the model leaves symbolic (no dim_value): reshapeGraph may change them.
uint32_t symbolicDims(const onnx::ValueInfoProto& in) {
    const auto& tt = in.type().tensor_type();
    if (!tt.has_shape()) return (1u << kMaxTensorRank) - 1;  // the whole shape came from OnnxLoadOptions::inputShapes
    uint32_t mask = 0;
    for (int d = 0; d < tt.shape().dim_size() && d < int(kMaxTensorRank); ++d)
        if (!tt.shape().dim(d).has_dim_value()) mask |= 1u << d;
    return mask;
}

// Converts node i with its registered converter.
Status convertNode(Loader& loader, const onnx::GraphProto& g, int i) {
    const onnx::NodeProto& node = g.node(i);
    loader.setCurrentNode(&node, size_t(i));
    if (!node.domain().empty() && node.domain() != "ai.onnx")
        return loader.unsupportedHere("operator domain '" + node.domain() + "' is not supported (only the default ONNX domain is)");
    if (node.output_size() == 0 || node.output(0).empty()) return loader.invalid("the node has no output");
    for (const auto& out : node.output())
        if (!out.empty() && loader.has(out)) return loader.invalid("output '" + out + "' is already defined (each tensor has one producer)");
    const auto& table = converters();
    auto conv = table.find(node.op_type());
    if (conv == table.end()) {
        std::string list;
        for (const auto& s : supportedOnnxOperators()) list += (list.empty() ? "" : ", ") + s;
        return loader.unsupportedHere("operator '" + node.op_type() + "' is not supported. Supported operators: " + list);
    }
    MLP_TRY(conv->second(loader, node));
    if (node.op_type() != "Constant") MLP_TRY(loader.countFolded());  // a Constant's size is the file's
    for (int o = 0; o < node.output_size(); ++o)
        if (!node.output(o).empty() && !loader.has(node.output(o)))
            return loader.unsupportedHere("output " + std::to_string(o) + " ('" + node.output(o) + "') is not supported");
    return {};
}

Status convertNodes(Loader& loader, const onnx::GraphProto& g) {
    GeluPatterns gelu = findGeluPatterns(g);
    DepthToSpacePatterns depthToSpace = findDepthToSpacePatterns(g);
    for (int i = 0; i < g.node_size(); ++i) {
        const onnx::NodeProto& node = g.node(i);
        loader.setCurrentNode(&node, size_t(i));
        if (gelu.skipped.count(i) || depthToSpace.deferred.count(i)) continue;
        if (auto it = gelu.geluInput.find(i); it != gelu.geluInput.end()) {
            auto x = loader.asGraph(it->second);
            if (!x) return x.error();
            ElementWiseDesc e{.op = ElementWiseOp::Activation, .activation = mlplugin::gelu()};
            MLP_TRY(loader.emit(e, {*x}));
            continue;
        }
        if (auto it = depthToSpace.byLastNode.find(i); it != depthToSpace.byLastNode.end()) {
            if (node.output(0).empty() || loader.has(node.output(0)))
                return loader.invalid("the node has no output, or its output is already defined");
            auto matched = convertDepthToSpaceChain(loader, g, it->second);
            if (!matched) return matched.error();
            if (*matched) continue;
            // The shapes are not a depth-to-space: convert the chain as written (a 6-D runtime
            // tensor then fails with the rank limit, naming the first Reshape).
            MLP_TRY(convertNode(loader, g, it->second.reshape6d));
            MLP_TRY(convertNode(loader, g, it->second.transpose));
        }
        MLP_TRY(convertNode(loader, g, i));
    }
    loader.setCurrentNode(nullptr, 0);
    return {};
}

// Every graph output must be a node output of its own with the ONNX shape; views and
// pass-through inputs get a copy (ElementWise Identity).
Status markOutputs(Loader& loader, const onnx::GraphProto& g, OnnxModel& model) {
    GraphDesc& graph = loader.graph();
    for (const auto& out : g.output()) {
        const LoaderValue* v = loader.find(out.name());
        if (!v) return invalidModel("graph output '" + out.name() + "' is not produced by any node");
        if (!v->graph) return Error{ErrorCode::Unsupported, "graph output '" + out.name() + "' is a constant (it depends on no graph input)"};
        GraphView view = *v->graph;
        bool needsCopy = view.view != graph.values[view.value].desc || graph.values[view.value].kind != GraphValue::Kind::Intermediate ||
                         std::count(graph.outputs.begin(), graph.outputs.end(), view.value) > 0;
        ValueId id = view.value;
        if (needsCopy) {
            graph.values.push_back({out.name() + "@view", view.view, GraphValue::Kind::Intermediate, {}});
            ValueId scratch = ValueId(graph.values.size() - 1);
            ElementWiseDesc copy{.name = "output '" + out.name() + "'", .op = ElementWiseOp::Identity};
            auto outs = graph.addNode(copy, {scratch});
            if (!outs) return outs.error();
            graph.nodes.back().inputs[0] = view.value;
            id = (*outs)[0];
        }
        graph.values[id].name = out.name();
        graph.markOutput(id);
        model.outputNames.push_back(out.name());
    }
    return {};
}

// Parses and checks `bytes`; tensors with external data will be read from `external`'s folder.
Result<std::shared_ptr<const ParsedOnnx>> parseModel(std::span<const uint8_t> bytes, ExternalDataSource external) {
    if (bytes.size() > kMaxOnnxFileBytes)
        return invalidModel("model is " + std::to_string(bytes.size()) + " bytes; files over 2 GiB (protobuf's limit) are not supported");
    auto parsed = std::make_shared<ParsedOnnx>();
    google::protobuf::io::ArrayInputStream stream(bytes.data(), int(bytes.size()));
    google::protobuf::io::CodedInputStream coded(&stream);
    coded.SetTotalBytesLimit(INT_MAX);
    if (!parsed->model.ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
        return invalidModel("not a valid ONNX protobuf (truncated or malformed file)");
    if (!parsed->model.has_graph()) return invalidModel("model has no graph");
    auto opset = defaultOpset(parsed->model);
    if (!opset) return opset.error();
    parsed->opset = *opset;
    if (parsed->model.graph().sparse_initializer_size() > 0) return Error{ErrorCode::Unsupported, "sparse initializers are not supported"};
    parsed->external = std::move(external);
    return std::shared_ptr<const ParsedOnnx>(std::move(parsed));
}

}  // namespace

Result<std::vector<uint8_t>> readOnnxFile(const std::string& path) {
    const std::string file = "the model file '" + path + "'";
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return Error{ErrorCode::IoError, "cannot open " + file};
    // Before opening: a device or a pipe reads without end (and reports no size).
    if (!std::filesystem::is_regular_file(path, ec)) return Error{ErrorCode::IoError, file + " is not a regular file"};
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return Error{ErrorCode::IoError, "cannot open " + file};
    std::streamoff size = in.tellg();
    if (size < 0) return Error{ErrorCode::IoError, "cannot read " + file};
    if (size == 0) return Error{ErrorCode::InvalidModel, file + " is empty"};
    if (uint64_t(size) > kMaxOnnxFileBytes)
        return Error{ErrorCode::InvalidModel, file + " is " + std::to_string(size) + " bytes; files over 2 GiB (protobuf's limit) are not supported"};
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) return Error{ErrorCode::IoError, "cannot read " + file};
    return bytes;
}

// From bytes there is no folder: tensors with external data are refused (when converted).
Result<std::shared_ptr<const ParsedOnnx>> parseOnnx(std::span<const uint8_t> bytes) { return parseModel(bytes, {}); }

Result<std::shared_ptr<const ParsedOnnx>> parseOnnxFile(const std::string& path) {
    auto bytes = readOnnxFile(path);
    if (!bytes) return bytes.error();
    // External data is read from the folder of the model file, symbolic links resolved.
    std::error_code ec;
    std::filesystem::path canonical = std::filesystem::canonical(path, ec);
    if (ec) return Error{ErrorCode::IoError, "cannot resolve '" + path + "' (" + ec.message() + ")"};
    auto parsed = parseModel(*bytes, {canonical.parent_path()});
    if (!parsed) return Error{parsed.error().code, path + ": " + parsed.error().message};
    return parsed;
}

Result<OnnxModel> loadOnnx(const ParsedOnnx& parsed, const OnnxLoadOptions& options) {
    OnnxModel result;
    result.opsetVersion = parsed.opset;
    result.producer = parsed.model.producer_name() + " " + parsed.model.producer_version();
    for (const auto& entry : parsed.model.metadata_props())
        if (!result.metadata.emplace(entry.key(), entry.value()).second)
            return invalidModel("metadata key '" + entry.key() + "' is given twice");
    const onnx::GraphProto& g = parsed.model.graph();
    const ExternalDataSource& external = parsed.external;

    Loader loader(result.graph, parsed.opset, options.computeType, external);
    for (const auto& t : g.initializer()) {
        if (t.name().empty()) return invalidModel("an initializer has no name");
        if (loader.has(t.name())) return invalidModel("initializer '" + t.name() + "' is defined twice");
        auto h = hostFromTensorProto(t, "initializer '" + t.name() + "'", external);
        if (!h) return h.error();
        loader.define(t.name(), {std::move(*h), {}, kNoValue});
    }
    // Shapes given for inputs the model does not have: named before any shape is resolved.
    for (const auto& [name, shape] : options.inputShapes) {
        bool found = false;
        for (const auto& in : g.input()) found = found || (in.name() == name && !loader.has(name));
        if (!found) return invalidArgument("a shape was given for input '" + name + "', but the model has no such input");
    }
    for (const auto& in : g.input()) {
        if (in.name().empty()) return invalidModel("a graph input has no name");
        // Before IR version 4 initializers are listed as inputs too; they are constants here.
        if (loader.has(in.name())) continue;
        auto sizes = inputShape(in, options);
        if (!sizes) return sizes.error();
        ValueId id = result.graph.addInput(in.name(), packedDesc(options.computeType, *sizes));
        result.graph.values[id].freeDimMask = symbolicDims(in);
        loader.define(in.name(), {{}, GraphView{id, result.graph.values[id].desc}, kNoValue});
        result.inputNames.push_back(in.name());
    }
    MLP_TRY(convertNodes(loader, g));
    if (g.output_size() == 0) return invalidModel("graph has no outputs");
    MLP_TRY(markOutputs(loader, g, result));
    return result;
}

Result<OnnxModel> loadOnnx(std::span<const uint8_t> bytes, const OnnxLoadOptions& options) {
    auto parsed = parseOnnx(bytes);
    if (!parsed) return parsed.error();
    return loadOnnx(**parsed, options);
}

Result<OnnxModel> loadOnnxFile(const std::string& path, const OnnxLoadOptions& options) {
    auto parsed = parseOnnxFile(path);
    if (!parsed) return parsed.error();
    auto model = loadOnnx(**parsed, options);
    if (!model) return Error{model.error().code, path + ": " + model.error().message};
    return model;
}

const std::vector<std::string>& supportedOnnxOperators() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const auto& [name, conv] : converters()) v.push_back(name);
        std::sort(v.begin(), v.end());
        return v;
    }();
    return names;
}

}  // namespace mlplugin
