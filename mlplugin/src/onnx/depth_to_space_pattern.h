#pragma once
// Before opset 11, DepthToSpace has no CRD mode, so PyTorch exports pixel_shuffle as
//   Reshape(x, [N, C, r, r, H, W]) -> Transpose(perm [0,1,4,2,5,3]) -> Reshape([N, C, H*r, W*r])
// (and a DCR depth-to-space as perm [0,3,4,1,5,2] on [N, r, r, C, H, W]). The 6-D intermediates
// exceed the plugin's rank limit, so the loader finds these chains up front and turns each into
// one DepthToSpace.
//
// Matching has two stages: the structure (op types, the permutation, intermediates used only
// inside the chain) is checked before conversion; the numbers (shapes, which may come from
// folded shape arithmetic) when the chain's last Reshape is reached and every input is known.
// A chain whose numbers don't fit is converted node by node, as if it had never matched.
#include "mlplugin/data_movement.h"
#include "mlplugin/result.h"

#include <onnx/onnx_pb.h>  // with ONNX_ML: the onnx-ml.pb.h messages Debian ships

#include <map>
#include <set>

namespace mlplugin::onnx_detail {

class Loader;

struct DepthToSpaceChain {
    int reshape6d = -1;  // node indices, in file order
    int transpose = -1;
    int reshape4d = -1;
    DepthSpaceOrder order = DepthSpaceOrder::CRD;
};

struct DepthToSpacePatterns {
    std::set<int> deferred;                    // the chains' first two nodes: handled at the last
    std::map<int, DepthToSpaceChain> byLastNode;  // index of the chain's last Reshape -> chain
};

DepthToSpacePatterns findDepthToSpacePatterns(const onnx::GraphProto& graph);

// With the loader's current node at the chain's last Reshape: checks every shape and emits one
// DepthToSpace defining that Reshape's output. Returns false, having added nothing, when the
// numbers don't describe a depth-to-space.
Result<bool> convertDepthToSpaceChain(Loader& loader, const onnx::GraphProto& graph, const DepthToSpaceChain& chain);

}  // namespace mlplugin::onnx_detail
