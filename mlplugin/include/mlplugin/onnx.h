#pragma once
/// \file
/// ONNX model loading (library target mlplugin_onnx; mlplugin itself never depends on protobuf).
///
///   OnnxLoadOptions options;
///   options.freeDimensions["batch"] = 1;
///   Result<OnnxModel> model = loadOnnxFile("espcn.onnx", options);
///   Result<CompiledGraph> compiled = compileGraph(device, model->graph);
///
/// A model run at several extents is parsed once and converted per extent, then reshaped:
///
///   auto parsed = parseOnnxFile("upscaler.onnx").value();        // protobuf read and checked once
///   options.freeDimensions = {{"H", 540}, {"W", 960}};
///   CompiledGraph net = compileGraph(device, loadOnnx(*parsed, options)->graph).value();
///   options.freeDimensions = {{"H", 720}, {"W", 1280}};              // a resize
///   net = reshapeGraph(device, net, loadOnnx(*parsed, options)->graph).value();  // weights kept
///
/// The loader turns an ONNX graph (opsets 6 through 21) into a GraphDesc: shapes are fixed at
/// load time (free dimensions by name, or from given input shapes; the graph inputs' symbolic
/// dims are marked in GraphValue::freeDimMask for reshapeGraph), shape-computing subgraphs
/// (Shape/Gather/Concat/... chains) are folded on the CPU, Reshape-like operators become views
/// of the same memory (no copy), and attributes that moved to inputs across opsets are
/// normalized. Malformed or hostile files fail with ErrorCode::InvalidModel naming the node or
/// tensor; operators or attributes outside the supported set fail with ErrorCode::Unsupported.
#include "mlplugin/export.h"
#include "mlplugin/graph.h"
#include "mlplugin/result.h"

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// How a model's free parts are fixed at load time.
struct OnnxLoadOptions {
    /// Symbolic dimensions ("batch", "height") fixed by name, like ONNX Runtime's free-dimension
    /// overrides.
    std::map<std::string, uint32_t> freeDimensions;
    /// Shapes of graph inputs by input name; they fix every symbolic dim of that input and must
    /// agree with its fixed dims.
    std::map<std::string, std::vector<uint32_t>> inputShapes;
    /// Data type of graph inputs, outputs and intermediates (weights are converted at compile).
    DataType computeType = DataType::Float32;
};

/// A loaded model: its graph, ready for compileGraph, and what the file said about itself.
struct OnnxModel {
    GraphDesc graph;  ///< shapes fixed, shape computations folded
    std::vector<std::string> inputNames;   ///< graph.inputs order
    std::vector<std::string> outputNames;  ///< graph.outputs order
    int64_t opsetVersion = 0;              ///< of the default ("ai.onnx") domain
    std::string producer;                  ///< producer_name + " " + producer_version
    /// The model's metadata_props (key -> value), e.g. what a consumer needs to know about how
    /// the network was trained (docs/EFFECTS.md: the temporal upscaler's "vkml.ratio_feature_max").
    /// A key given twice fails the load with InvalidModel.
    std::map<std::string, std::string> metadata;
};

/// Files larger than this are rejected (protobuf's own message limit).
inline constexpr uint64_t kMaxOnnxFileBytes = (uint64_t(1) << 31) - 1;
/// Any tensor (initializer, input, intermediate) with more elements is rejected.
inline constexpr uint64_t kMaxOnnxTensorElements = uint64_t(1) << 28;

/// The bytes of the ONNX file at `path`, read as loadOnnxFile and parseOnnxFile read it: IoError
/// when it cannot be opened or read, or is not a regular file (a directory; a device such as
/// /dev/zero, which would never end); InvalidModel when it is empty or larger than
/// kMaxOnnxFileBytes. Messages name the path ("the model file '...'").
Result<std::vector<uint8_t>> readOnnxFile(const std::string& path);

/// Loads the ONNX file at `path` (IoError when it cannot be read). Tensors stored as external
/// data (data_location = EXTERNAL, as onnx.save_model writes with save_as_external_data) are
/// read from files inside the model file's folder (symbolic links resolved); an absolute
/// location, `..`, or a link out of the folder is refused naming the tensor, and offset / length
/// are checked against the file before anything is read.
Result<OnnxModel> loadOnnxFile(const std::string& path, const OnnxLoadOptions& options = {});
/// Loads an ONNX model from memory (the serialized ModelProto). There is no folder: a model with
/// external data fails with InvalidArgument.
Result<OnnxModel> loadOnnx(std::span<const uint8_t> bytes, const OnnxLoadOptions& options = {});

/// A model file parsed and checked once (protobuf, opset, no sparse initializers): the part of
/// loading that does not depend on the free dimensions. Opaque and immutable; convert it with
/// loadOnnx at any extents, from any thread.
struct ParsedOnnx;
/// Parses and checks an ONNX model in memory (the serialized ModelProto; `bytes` is not kept).
Result<std::shared_ptr<const ParsedOnnx>> parseOnnx(std::span<const uint8_t> bytes);
/// Parses and checks the ONNX file at `path` (IoError when it cannot be read).
Result<std::shared_ptr<const ParsedOnnx>> parseOnnxFile(const std::string& path);
/// Converts a parsed model at the extents of `options` (no file read, no protobuf parse).
Result<OnnxModel> loadOnnx(const ParsedOnnx& parsed, const OnnxLoadOptions& options = {});

/// The operator types the loader converts (sorted), for messages and documentation.
const std::vector<std::string>& supportedOnnxOperators();

}  // namespace mlplugin
MLPLUGIN_API_END
