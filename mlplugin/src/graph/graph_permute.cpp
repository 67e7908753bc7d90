// GraphDesc::permuteChannels: a graph input's or output's channel order folded into the weights
// of the convolutions next to it.
#include "mlplugin/graph.h"

#include <algorithm>
#include <string>

namespace mlplugin {
namespace {

Error invalid(const std::string& message) { return Error{ErrorCode::InvalidArgument, "permuteChannels: " + message, VK_SUCCESS}; }

std::string nodeName(const GraphNode& node, size_t index) {
    return "node " + std::to_string(index) + " (" + operatorLabel(node.op) + ")";
}

size_t readers(const GraphDesc& g, ValueId v) {
    size_t n = 0;
    for (const GraphNode& node : g.nodes) n += size_t(std::count(node.inputs.begin(), node.inputs.end(), v));
    return n;
}

// The constant filter of convolution `node`, if it is one this function may rewrite: groups 1,
// not transposed, a packed [outC, inC, kH, kW] constant read by this node only.
const GraphValue* foldableFilter(const GraphDesc& g, const GraphNode& node) {
    const auto* conv = std::get_if<ConvolutionDesc>(&node.op);
    if (!conv || conv->groups != 1 || conv->transposed || node.inputs.size() < 2) return nullptr;
    const ValueId f = node.inputs[1];
    if (f >= g.values.size() || g.values[f].kind != GraphValue::Kind::Constant || readers(g, f) != 1) return nullptr;
    const GraphValue& filter = g.values[f];
    if (filter.desc.rank != 4 || filter.constantData.size() != filter.desc.elementCount()) return nullptr;
    return &filter;
}

// Rows (dim `dim` = 0) or columns (dim 1) of a packed [d0, d1, rest] array, renumbered by `order`.
std::vector<float> permuted(const std::vector<float>& data, uint32_t d0, uint32_t d1, uint32_t dim, std::span<const uint32_t> order) {
    const size_t rest = data.size() / (size_t(d0) * d1);
    std::vector<float> out(data.size());
    for (uint32_t i = 0; i < d0; ++i)
        for (uint32_t j = 0; j < d1; ++j) {
            const uint32_t si = dim == 0 ? order[i] : i, sj = dim == 1 ? order[j] : j;
            std::copy_n(data.begin() + ptrdiff_t((size_t(si) * d1 + sj) * rest), rest, out.begin() + ptrdiff_t((size_t(i) * d1 + j) * rest));
        }
    return out;
}

}  // namespace

Status GraphDesc::permuteChannels(ValueId v, std::span<const uint32_t> order) {
    const bool isInput = std::find(inputs.begin(), inputs.end(), v) != inputs.end();
    const bool isOutput = std::find(outputs.begin(), outputs.end(), v) != outputs.end();
    if (v >= values.size() || (!isInput && !isOutput)) return invalid("value " + std::to_string(v) + " is not a graph input or output");
    const GraphValue& value = values[v];
    const std::string what = "'" + value.name + "'";
    if (value.desc.rank < 2) return invalid(what + " has no channel dim (rank " + std::to_string(value.desc.rank) + ")");
    const uint32_t channels = value.desc.sizes[1];
    if (order.size() != channels)
        return invalid("the order has " + std::to_string(order.size()) + " entries, " + what + " has " + std::to_string(channels) + " channels");
    std::vector<bool> seen(channels, false);
    for (uint32_t c : order) {
        if (c >= channels || seen[c]) return invalid("the order for " + what + " is not a permutation of 0.." + std::to_string(channels - 1));
        seen[c] = true;
    }
    if (isInput && isOutput) return invalid(what + " is both a graph input and a graph output");

    // Check everything first, so that an error leaves the graph unchanged.
    struct Edit {
        ValueId value;
        std::vector<float> data;
    };
    std::vector<Edit> edits;
    if (isInput) {
        for (size_t i = 0; i < nodes.size(); ++i) {
            const GraphNode& node = nodes[i];
            if (std::find(node.inputs.begin(), node.inputs.end(), v) == node.inputs.end()) continue;
            const GraphValue* filter = foldableFilter(*this, node);
            if (!filter || node.inputs[0] != v || std::count(node.inputs.begin(), node.inputs.end(), v) != 1 || filter->desc.sizes[1] != channels)
                return invalid(nodeName(node, i) + " reads " + what + ", and only convolutions (groups 1, a constant filter of their own) can absorb the order");
            edits.push_back({node.inputs[1], permuted(filter->constantData, filter->desc.sizes[0], filter->desc.sizes[1], 1, order)});
        }
        if (edits.empty()) return invalid("no node reads " + what);
    } else {
        if (readers(*this, v) != 0) return invalid(what + " is also read by nodes of the graph");
        const auto producer = std::find_if(nodes.begin(), nodes.end(), [v](const GraphNode& n) {
            return std::find(n.outputs.begin(), n.outputs.end(), v) != n.outputs.end();
        });
        if (producer == nodes.end()) return invalid("no node writes " + what);
        const std::string name = nodeName(*producer, size_t(producer - nodes.begin()));
        const GraphValue* filter = foldableFilter(*this, *producer);
        if (!filter || filter->desc.sizes[0] != channels) return invalid(name + " writes " + what + ", and only a convolution (groups 1, a constant filter of its own) can absorb the order");
        edits.push_back({producer->inputs[1], permuted(filter->constantData, filter->desc.sizes[0], filter->desc.sizes[1], 0, order)});
        if (producer->inputs.size() > 2 && producer->inputs[2] != kNoValue) {
            const ValueId b = producer->inputs[2];
            const GraphValue& bias = values[b];
            if (bias.kind != GraphValue::Kind::Constant || readers(*this, b) != 1 || bias.constantData.size() != channels)
                return invalid(name + " has a bias that is not a constant of its own with " + std::to_string(channels) + " values");
            edits.push_back({b, permuted(bias.constantData, channels, 1, 0, order)});
        }
    }
    for (Edit& e : edits) values[e.value].constantData = std::move(e.data);
    return {};
}

}  // namespace mlplugin
