#pragma once
// Exporters before opset 20 have no Gelu: PyTorch writes x * 0.5 * (1 + erf(x / sqrt(2))) as
// Div -> Erf -> Add -> Mul -> Mul. The plugin has no Erf, but has a Gelu activation, so the
// loader finds these chains up front and replaces each with one Gelu.
#include <onnx/onnx_pb.h>  // with ONNX_ML: the onnx-ml.pb.h messages Debian ships

#include <map>
#include <set>
#include <string>

namespace mlplugin::onnx_detail {

struct GeluPatterns {
    std::set<int> skipped;                // node indices folded into a Gelu
    std::map<int, std::string> geluInput; // index of the chain's last node -> x
};

GeluPatterns findGeluPatterns(const onnx::GraphProto& graph);

}  // namespace mlplugin::onnx_detail
