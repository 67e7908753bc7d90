// padConvChannels: an intermediate passed from one convolution to others only, whose channel
// count is not a multiple of 16, gets zero channels up to the next multiple. The tensor-core
// convolution works in 16-channel fragments: with a partial last fragment its epilogue falls
// back from fragment stores to a staged patch, a 1x1 head cannot fold into it, and its readers
// load a partial K slice. Measured on an H200 (bench/RESULTS.md, "Twenty-fourth session"): the
// temporal upscaler's pass with 24-channel hidden layers took 1.660 ms at 4K, with 32 channels
// 1.513 ms, although 24 channels are fewer multiplies.
//
// The result is exact: the writer's new filter rows and bias entries are 0, so the new channels
// hold activation(0), and every reader's new filter columns are 0, so they add nothing. Only the
// intermediate's own bytes grow, by at most half: 17 to 21 channels are left alone, as are 16 or
// fewer, where a network is bound by memory traffic and the extra bytes would likely cost more
// than whole fragments gain.
#include "graph/graph_plan.h"

#include <algorithm>

namespace mlplugin::detail {
namespace {

constexpr uint32_t kFragmentChannels = 16;

uint32_t paddedChannels(uint32_t c) { return (c + kFragmentChannels - 1) / kFragmentChannels * kFragmentChannels; }

bool plainConv(const PlannedNode& pn) {
    const auto* d = std::get_if<ConvolutionDesc>(&pn.node.op);
    return d && pn.chain.empty() && pn.convChain.empty() && !pn.fusion.any() && !d->transposed && d->groups == 1 && d->filter.rank == 4;
}

// Rows (outputs) or columns (inputs) of a packed [O, I, kH, kW] filter, zero-extended.
std::vector<float> widened(const std::vector<float>& data, uint32_t o, uint32_t i, uint32_t taps, uint32_t newO, uint32_t newI) {
    std::vector<float> out(size_t(newO) * newI * taps, 0.0f);
    for (uint32_t r = 0; r < o; ++r)
        std::copy_n(data.begin() + ptrdiff_t(size_t(r) * i * taps), size_t(i) * taps, out.begin() + ptrdiff_t(size_t(r) * newI * taps));
    return out;
}

}  // namespace

void padConvChannels(GraphPlan& plan, const std::function<bool(const ConvolutionDesc&)>& onTensorCores) {
    std::vector<uint32_t> uses(plan.values.size(), 0);
    std::vector<int> producer(plan.values.size(), -1);
    std::vector<std::vector<size_t>> readers(plan.values.size());
    for (size_t n = 0; n < plan.nodes.size(); ++n) {
        for (ValueId v : plan.nodes[n].node.inputs)
            if (v != kNoValue) ++uses[v], readers[v].push_back(n);
        for (ValueId v : plan.nodes[n].node.outputs) producer[v] = int(n);
    }
    for (ValueId v : plan.outputs) ++uses[v];
    for (ValueId v : plan.inputs) producer[v] = -1;
    // A constant only this node reads, with exactly the elements its desc names.
    auto ownConstant = [&](ValueId c) {
        return c != kNoValue && plan.values[c].kind == GraphValue::Kind::Constant && uses[c] == 1 &&
               plan.values[c].constantData.size() == plan.values[c].desc.elementCount();
    };
    auto inputs = [](const PlannedNode& pn, size_t k) { return k < pn.node.inputs.size() ? pn.node.inputs[k] : kNoValue; };

    for (size_t v = 0; v < plan.values.size(); ++v) {
        GraphValue& value = plan.values[v];
        const TensorDesc& d = value.desc;
        if (value.kind != GraphValue::Kind::Intermediate || d.rank != 4 || d.hasStrides || producer[v] < 0 || readers[v].empty()) continue;
        if (uses[v] != readers[v].size() || std::count(plan.outputs.begin(), plan.outputs.end(), ValueId(v))) continue;  // a graph output
        const uint32_t c = d.sizes[1], padded = paddedChannels(c);
        if (c % kFragmentChannels == 0 || c <= kFragmentChannels || 2 * padded > 3 * c) continue;

        // The filters' own dims are checked too: this runs before any node is validated, and the
        // rewrite below indexes the constants by the value's channel count.
        PlannedNode& writer = plan.nodes[size_t(producer[v])];
        if (!plainConv(writer) || writer.node.outputs.size() != 1 || !ownConstant(inputs(writer, 1))) continue;
        if (plan.values[inputs(writer, 1)].desc.rank != 4 || plan.values[inputs(writer, 1)].desc.sizes[0] != c) continue;
        const ValueId writerBias = inputs(writer, 2);
        if (writerBias != kNoValue && (!ownConstant(writerBias) || plan.values[writerBias].desc.elementCount() != c)) continue;
        bool ok = true;
        for (size_t r : readers[v]) {
            const PlannedNode& reader = plan.nodes[r];
            ok = ok && plainConv(reader) && inputs(reader, 0) == ValueId(v) && std::count(reader.node.inputs.begin(), reader.node.inputs.end(), ValueId(v)) == 1 &&
                 ownConstant(inputs(reader, 1)) && plan.values[inputs(reader, 1)].desc.rank == 4 && plan.values[inputs(reader, 1)].desc.sizes[1] == c;
        }
        if (!ok) continue;

        // The convolutions as they would be, asked first: nothing changes unless every one of
        // them runs on the tensor cores with the wider tensor.
        ConvolutionDesc writes = std::get<ConvolutionDesc>(writer.node.op);
        writes.output.sizes[1] = padded;
        writes.filter.sizes[0] = padded;
        if (writes.bias) writes.bias->sizes[writes.bias->rank == 1 ? 0 : 1] = padded;
        ok = writes.bias ? writes.bias->elementCount() == padded : true;
        ok = ok && onTensorCores(writes);
        std::vector<ConvolutionDesc> reads;
        for (size_t r : readers[v]) {
            ConvolutionDesc rd = std::get<ConvolutionDesc>(plan.nodes[r].node.op);
            rd.input.sizes[1] = padded;
            rd.filter.sizes[1] = padded;
            ok = ok && onTensorCores(rd);
            reads.push_back(rd);
        }
        if (!ok) continue;

        GraphValue& wf = plan.values[inputs(writer, 1)];
        const uint32_t inC = wf.desc.sizes[1], taps = wf.desc.sizes[2] * wf.desc.sizes[3];
        wf.constantData = widened(wf.constantData, c, inC, taps, padded, inC);
        wf.desc.sizes[0] = padded;
        if (writerBias != kNoValue) {
            GraphValue& b = plan.values[writerBias];
            b.constantData.resize(padded, 0.0f);
            b.desc = *writes.bias;
        }
        writer.node.op = writes;
        for (size_t k = 0; k < reads.size(); ++k) {
            PlannedNode& reader = plan.nodes[readers[v][k]];
            GraphValue& rf = plan.values[inputs(reader, 1)];
            const uint32_t outC = rf.desc.sizes[0], rtaps = rf.desc.sizes[2] * rf.desc.sizes[3];
            rf.constantData = widened(rf.constantData, outC, c, rtaps, outC, padded);
            rf.desc.sizes[1] = padded;
            reader.node.op = reads[k];
        }
        value.desc.sizes[1] = padded;
        plan.report.fusions.push_back(writer.label + " -> '" + value.name + "' padded from " + std::to_string(c) + " to " + std::to_string(padded) +
                                      " channels (zero filter rows and columns) for the tensor cores' 16-channel fragments");
        ++plan.report.paddedValues;
    }
}

}  // namespace mlplugin::detail
