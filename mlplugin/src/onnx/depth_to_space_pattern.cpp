#include "onnx/depth_to_space_pattern.h"

#include "onnx/graph_index.h"

#include <algorithm>
#include <array>
#include <optional>

namespace mlplugin::onnx_detail {
namespace {

// Transpose permutations of the 6-D views that make a depth-to-space; both move the dims to
// [N, C, H, r, W, r], which the final Reshape merges into [N, C, H*r, W*r].
constexpr std::array<int64_t, 6> kCrdPerm{0, 1, 4, 2, 5, 3};  // on [N, C, r, r, H, W]
constexpr std::array<int64_t, 6> kDcrPerm{0, 3, 4, 1, 5, 2};  // on [N, r, r, C, H, W]

std::optional<DepthSpaceOrder> orderOfTranspose(const onnx::NodeProto& t) {
    if (t.attribute_size() != 1 || t.attribute(0).name() != "perm" || t.attribute(0).type() != onnx::AttributeProto::INTS) return {};
    const auto& p = t.attribute(0).ints();
    auto is = [&](const std::array<int64_t, 6>& want) { return std::equal(p.begin(), p.end(), want.begin(), want.end()); };
    if (is(kCrdPerm)) return DepthSpaceOrder::CRD;
    if (is(kDcrPerm)) return DepthSpaceOrder::DCR;
    return {};
}

// A Reshape with a data and a shape input, one output and no attribute besides allowzero.
bool isPlainReshape(const GraphIndex& ix, int i) {
    if (!ix.isOp(i, "Reshape")) return false;
    const auto& n = ix.graph.node(i);
    for (const auto& a : n.attribute())
        if (a.name() != "allowzero") return false;
    return n.input_size() == 2 && n.output_size() == 1;
}

// The node's target dims for input dims `in`, or nothing when the shape is not known at load
// time or does not apply (the node's own converter reports that when the chain falls back).
std::optional<std::vector<int64_t>> reshapeTarget(const Loader& l, const onnx::NodeProto& reshape, const std::vector<int64_t>& in) {
    const LoaderValue* shape = l.find(reshape.input(1));
    if (!shape || !shape->host) return {};
    bool allowZero = false;
    for (const auto& a : reshape.attribute())
        if (a.name() == "allowzero") {
            if (a.type() != onnx::AttributeProto::INT) return {};
            allowZero = a.i() != 0;
        }
    auto dims = resolveReshapeDims(l, in, toInts(*shape->host), allowZero);
    if (!dims) return {};
    return *dims;
}

}  // namespace

DepthToSpacePatterns findDepthToSpacePatterns(const onnx::GraphProto& graph) {
    DepthToSpacePatterns result;
    GraphIndex ix(graph);
    for (int t = 0; t < graph.node_size(); ++t) {
        const auto& tn = graph.node(t);
        if (!ix.isOp(t, "Transpose") || tn.input_size() != 1 || tn.output_size() != 1) continue;
        auto order = orderOfTranspose(tn);
        if (!order) continue;
        int first = ix.producerOf(tn.input(0));
        if (!isPlainReshape(ix, first) || first >= t || ix.onlyConsumer(ix.out0(first)) != t) continue;
        int last = ix.onlyConsumer(ix.out0(t));
        if (!isPlainReshape(ix, last) || last <= t || graph.node(last).input(0) != ix.out0(t)) continue;
        result.deferred.insert(first);
        result.deferred.insert(t);
        result.byLastNode[last] = {first, t, last, *order};
    }
    return result;
}

Result<bool> convertDepthToSpaceChain(Loader& l, const onnx::GraphProto& graph, const DepthToSpaceChain& chain) {
    const onnx::NodeProto& first = graph.node(chain.reshape6d);
    const LoaderValue* x = l.find(first.input(0));
    if (!x || !x->graph || x->graph->view.rank != 4) return false;  // host tensors fold as 6-D anyway
    std::vector<int64_t> in = dimsOf(x->graph->view);  // [N, C*r*r, H, W]

    auto split = reshapeTarget(l, first, in);
    if (!split || split->size() != 6) return false;
    const std::vector<int64_t>& s = *split;
    bool crd = chain.order == DepthSpaceOrder::CRD;
    int64_t n = s[0], c = crd ? s[1] : s[3], r = crd ? s[2] : s[1], h = s[4], w = s[5];
    bool square = crd ? s[3] == r : s[2] == r;
    if (!square || n != in[0] || h != in[2] || w != in[3] || c * r * r != in[1] || r > 256) return false;

    // Both permutations give [N, C, H, r, W, r]; the last Reshape must merge it to [N, C, H*r, W*r].
    std::vector<int64_t> want{n, c, h * r, w * r};
    auto merged = reshapeTarget(l, graph.node(chain.reshape4d), {n, c, h, r, w, r});
    if (!merged || *merged != want) return false;

    DepthToSpaceDesc d;
    d.blockSize = uint32_t(r);
    d.order = chain.order;
    MLP_TRY(l.emit(d, {*x->graph}));
    return true;
}

}  // namespace mlplugin::onnx_detail
