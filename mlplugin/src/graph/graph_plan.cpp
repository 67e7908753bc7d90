#include "graph/graph_plan.h"

#include "graph/node_tensors.h"
#include "kernel.h"

#include <algorithm>
#include <cmath>

namespace mlplugin::detail {
namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

std::string valueName(const std::vector<GraphValue>& values, ValueId v) {
    return v < values.size() ? "'" + values[v].name + "'" : "#" + std::to_string(v);
}

// Checks ids, single producers, constant sizes; returns the producer node of every value.
Result<std::vector<int>> validateStructure(const GraphDesc& g) {
    std::vector<int> producer(g.values.size(), -1);
    for (size_t n = 0; n < g.nodes.size(); ++n) {
        const GraphNode& node = g.nodes[n];
        std::string label = "node " + std::to_string(n) + " (" + operatorLabel(node.op) + ")";
        for (ValueId v : node.inputs)
            if (v != kNoValue && v >= g.values.size()) return invalidArgument(label + " reads value " + std::to_string(v) + ", which does not exist");
        for (ValueId v : node.outputs) {
            if (v >= g.values.size()) return invalidArgument(label + " writes value " + std::to_string(v) + ", which does not exist");
            if (g.values[v].kind != GraphValue::Kind::Intermediate)
                return invalidArgument(label + " writes " + valueName(g.values, v) + ", which is a graph input or constant");
            if (producer[v] >= 0)
                return invalidArgument(label + " writes " + valueName(g.values, v) + ", already written by node " + std::to_string(producer[v]));
            producer[v] = int(n);
        }
    }
    for (size_t v = 0; v < g.values.size(); ++v) {
        const GraphValue& val = g.values[v];
        if (val.kind == GraphValue::Kind::Constant && val.constantData.size() != val.desc.elementCount())
            return invalidArgument("constant " + valueName(g.values, ValueId(v)) + " has " + std::to_string(val.constantData.size()) +
                                   " values, its desc " + val.desc.toString() + " needs " + std::to_string(val.desc.elementCount()));
        if (val.kind == GraphValue::Kind::Intermediate && producer[v] < 0) {
            bool used = false;
            for (const GraphNode& node : g.nodes) used |= std::count(node.inputs.begin(), node.inputs.end(), ValueId(v)) > 0;
            used |= std::count(g.outputs.begin(), g.outputs.end(), ValueId(v)) > 0;
            if (used) return invalidArgument("value " + valueName(g.values, ValueId(v)) + " is read but never written by any node");
        }
    }
    if (g.outputs.empty()) return invalidArgument("graph has no outputs");
    for (ValueId v : g.outputs) {
        if (v >= g.values.size()) return invalidArgument("graph output refers to value " + std::to_string(v) + ", which does not exist");
        if (g.values[v].kind != GraphValue::Kind::Intermediate)
            return invalidArgument("graph output " + valueName(g.values, v) + " is a graph input or constant; add an identity node");
        if (std::count(g.outputs.begin(), g.outputs.end(), v) > 1)
            return invalidArgument("graph output " + valueName(g.values, v) + " is listed twice");
    }
    return producer;
}

// Kahn's algorithm over the nodes that contribute to an output (others are culled).
Result<std::vector<uint32_t>> orderNodes(const GraphDesc& g, const std::vector<int>& producer) {
    size_t n = g.nodes.size();
    std::vector<bool> live(n, false);
    std::vector<ValueId> stack(g.outputs.begin(), g.outputs.end());
    std::vector<bool> seenValue(g.values.size(), false);
    while (!stack.empty()) {
        ValueId v = stack.back();
        stack.pop_back();
        if (seenValue[v]) continue;
        seenValue[v] = true;
        int p = producer[v];
        if (p < 0 || live[p]) continue;
        live[p] = true;
        for (ValueId in : g.nodes[p].inputs)
            if (in != kNoValue) stack.push_back(in);
    }
    std::vector<uint32_t> pending(n, 0);
    std::vector<std::vector<uint32_t>> consumers(n);
    for (size_t i = 0; i < n; ++i) {
        if (!live[i]) continue;
        for (ValueId in : g.nodes[i].inputs) {
            if (in == kNoValue || producer[in] < 0) continue;
            ++pending[i];
            consumers[producer[in]].push_back(uint32_t(i));
        }
    }
    std::vector<uint32_t> order, ready;
    for (size_t i = n; i-- > 0;)
        if (live[i] && pending[i] == 0) ready.push_back(uint32_t(i));
    while (!ready.empty()) {
        // Lowest index first keeps declaration order where dependencies allow.
        auto it = std::min_element(ready.begin(), ready.end());
        uint32_t i = *it;
        ready.erase(it);
        order.push_back(i);
        for (uint32_t c : consumers[i])
            if (--pending[c] == 0) ready.push_back(c);
    }
    size_t liveCount = size_t(std::count(live.begin(), live.end(), true));
    if (order.size() != liveCount) {
        for (size_t i = 0; i < n; ++i)
            if (live[i] && pending[i] > 0)
                return invalidArgument("graph has a cycle through node " + std::to_string(i) + " (" + operatorLabel(g.nodes[i].op) + ")");
    }
    return order;
}

struct Interval {
    uint64_t begin, end;  // bytes [begin, end)
    uint32_t first, last; // node steps
};

void placeIntermediates(GraphPlan& plan, bool alias) {
    size_t steps = plan.nodes.size();
    std::vector<int> firstStep(plan.values.size(), -1), lastStep(plan.values.size(), -1);
    for (size_t s = 0; s < steps; ++s) {
        for (ValueId v : plan.nodes[s].node.outputs) if (firstStep[v] < 0) firstStep[v] = int(s);
        for (ValueId v : plan.nodes[s].node.inputs) if (v != kNoValue) lastStep[v] = int(s);
    }
    // A view's producer and readers keep its base alive.
    for (size_t v = 0; v < plan.values.size(); ++v) {
        ValueId b = plan.views[v].base;
        if (b == kNoValue || firstStep[v] < 0) continue;
        firstStep[b] = firstStep[b] < 0 ? firstStep[v] : std::min(firstStep[b], firstStep[v]);
        lastStep[b] = std::max({lastStep[b], lastStep[v], firstStep[v]});
    }
    // Values that need memory of their own, in the order they come alive.
    std::vector<ValueId> order;
    for (size_t v = 0; v < plan.values.size(); ++v)
        if (firstStep[v] >= 0 && plan.views[v].base == kNoValue && plan.placement[v].where == ValuePlacement::Where::Unused)
            order.push_back(ValueId(v));
    std::stable_sort(order.begin(), order.end(), [&](ValueId a, ValueId b) { return firstStep[a] < firstStep[b]; });

    std::vector<Interval> live;
    uint64_t naive = 0, peak = 0;
    for (ValueId v : order) {
        uint32_t first = uint32_t(firstStep[v]);
        uint32_t last = uint32_t(std::max(lastStep[v], firstStep[v]));  // a value never read still gets written
        uint64_t bytes = alignUp(plan.values[v].desc.requiredBytes(), kGraphAlignment);
        naive += bytes;
        uint64_t offset = 0;
        if (!alias) {
            offset = naive - bytes;
        } else {
            // First fit among intervals alive at any step of [first, last].
            std::vector<Interval> overlapping;
            for (const Interval& iv : live)
                if (!(iv.last < first || iv.first > last)) overlapping.push_back(iv);
            std::sort(overlapping.begin(), overlapping.end(), [](const Interval& a, const Interval& b) { return a.begin < b.begin; });
            for (const Interval& iv : overlapping) {
                if (offset + bytes <= iv.begin) break;
                offset = std::max(offset, iv.end);
            }
        }
        live.push_back({offset, offset + bytes, first, last});
        plan.placement[v] = {ValuePlacement::Where::Temporary, 0, offset, bytes};
        peak = std::max(peak, offset + bytes);
    }
    // Views sit inside their base.
    for (size_t v = 0; v < plan.values.size(); ++v) {
        const ValueView& view = plan.views[v];
        if (view.base == kNoValue) continue;
        const ValuePlacement& base = plan.placement[view.base];
        uint64_t bytes = plan.values[v].desc.requiredBytes();
        if (base.where == ValuePlacement::Where::Temporary)
            plan.placement[v] = {ValuePlacement::Where::Temporary, 0, base.offset + view.offset, bytes};
        else
            plan.placement[v] = {ValuePlacement::Where::GraphOutput, base.index, view.offset, bytes};
    }
    plan.report.temporaryBytes = alias ? peak : naive;
    plan.report.temporaryBytesNaive = naive;
}

// A node needs a barrier when it reads memory an unsynchronized earlier node wrote, or writes
// memory an unsynchronized earlier node read or wrote (aliasing makes the latter real).
void placeBarriers(GraphPlan& plan) {
    struct Access { int resource; uint64_t begin, end; bool write; };
    auto region = [&](ValueId v, Access& a) {
        const ValuePlacement& p = plan.placement[v];
        switch (p.where) {
        case ValuePlacement::Where::Temporary: a.resource = -1; a.begin = p.offset; a.end = p.offset + p.bytes; return true;
        case ValuePlacement::Where::GraphOutput:
            a.resource = int(1000 + p.index);
            a.begin = p.offset;
            a.end = p.bytes ? p.offset + p.bytes : UINT64_MAX;
            return true;
        default: return false;  // graph inputs and constants are read-only during execution
        }
    };
    std::vector<Access> pending;
    uint32_t barriers = 0;
    for (PlannedNode& pn : plan.nodes) {
        std::vector<Access> mine;
        for (ValueId v : pn.node.inputs) { Access a{}; if (v != kNoValue && region(v, a)) { a.write = false; mine.push_back(a); } }
        for (ValueId v : pn.node.outputs) { Access a{}; if (region(v, a)) { a.write = true; mine.push_back(a); } }
        bool hazard = false;
        for (const Access& m : mine)
            for (const Access& p : pending)
                hazard |= m.resource == p.resource && m.begin < p.end && p.begin < m.end && (m.write || p.write);
        if (hazard) {
            pn.barrierBefore = true;
            ++barriers;
            pending.clear();
        }
        pending.insert(pending.end(), mine.begin(), mine.end());
    }
    plan.report.barriers = barriers;
}

// Stores fp16 intermediates that one plain convolution writes (possibly through a fused max pool)
// and only convolutions read (as their input, input source, concat part or residual)
// channels-last, when `onTensorCores` says all of them run on a tensor-core kernel with that
// layout (convolutions with fusions past the depth-to-space always do): it then moves 8 channels per 16-byte access at both ends (the portable
// kernels would store NHWC one strided element at a time: ESPCN's first layer, on the tiled
// kernel, made the network 0.9 ms slower on the H100). Every kernel takes strided tensors, so
// this changes speed only. Graph inputs and outputs, views and concat bases keep their layouts.
void chooseChannelsLast(GraphPlan& plan, const std::function<bool(const ConvolutionDesc&)>& onTensorCores) {
    std::vector<int> producer(plan.values.size(), -1);
    std::vector<std::vector<std::pair<size_t, size_t>>> readers(plan.values.size());  // (node, input index)
    for (size_t i = 0; i < plan.nodes.size(); ++i) {
        for (size_t k = 0; k < plan.nodes[i].node.inputs.size(); ++k)
            if (ValueId v = plan.nodes[i].node.inputs[k]; v != kNoValue) readers[v].push_back({i, k});
        for (ValueId v : plan.nodes[i].node.outputs) producer[v] = int(i);
    }
    auto plainConv = [&](size_t i) -> ConvolutionDesc* {
        PlannedNode& pn = plan.nodes[i];
        return pn.chain.empty() && pn.convChain.empty() ? std::get_if<ConvolutionDesc>(&pn.node.op) : nullptr;
    };
    // A convolution with a fusion past the depth-to-space runs on the implicit GEMM whatever the
    // layouts (graph_fusion.cpp asked); the others must still qualify with the new layout.
    auto fusedKernel = [&](size_t i) {
        const ConvolutionFusion& f = plan.nodes[i].fusion;
        return f.preluSlope || f.residual || f.needsImplicitGemm();
    };
    // The desc through which node i sees its input k (a tensor read by a convolution), or null.
    auto readDesc = [&](size_t i, size_t k) -> TensorDesc* {
        ConvolutionDesc* c = plainConv(i);
        ConvolutionFusion& f = plan.nodes[i].fusion;
        if (!c) return nullptr;
        if (k == 0) return f.source ? &*f.source : &c->input;
        if (k == 4 && f.residual) return &*f.residual;
        if (k == 5 && f.concat) return &*f.concat;
        return nullptr;
    };
    std::vector<bool> viewBase(plan.values.size(), false);
    for (const ValueView& view : plan.views)
        if (view.base != kNoValue) viewBase[view.base] = true;
    std::vector<bool> boundary(plan.values.size(), false);
    for (ValueId v : plan.inputs) boundary[v] = true;
    for (ValueId v : plan.outputs) boundary[v] = true;
    for (size_t v = 0; v < plan.values.size(); ++v) {
        TensorDesc& d = plan.values[v].desc;
        if (boundary[v] || viewBase[v] || plan.views[v].base != kNoValue || producer[v] < 0 || readers[v].empty()) continue;
        if (plan.values[v].kind != GraphValue::Kind::Intermediate || d.dataType != DataType::Float16 || d.rank != 4 || d.sizes[1] % 8)
            continue;
        const size_t w = size_t(producer[v]);
        ConvolutionDesc* writer = plainConv(w);
        const PlannedNode& writerNode = plan.nodes[w];
        bool ok = writer && !writer->transposed && writerNode.node.outputs.size() == 1 && !writerNode.fusion.depthToSpace;
        for (auto [i, k] : readers[v]) ok = ok && readDesc(i, k);
        if (!ok) continue;
        const TensorDesc nhwc = d.channelsLast();
        ConvolutionFusion& wf = plan.nodes[w].fusion;
        TensorDesc& written = wf.projection ? wf.projection->output : wf.pooledOutput ? *wf.pooledOutput : writer->output;
        if (!fusedKernel(w)) {
            ConvolutionDesc writes = *writer;
            writes.output = nhwc;
            ok = onTensorCores(writes);
        }
        for (auto [i, k] : readers[v]) {
            if (fusedKernel(i)) continue;
            ConvolutionDesc reads = *plainConv(i);
            reads.input = nhwc;
            ok = ok && onTensorCores(reads);
        }
        if (!ok) continue;
        d = nhwc;
        written = nhwc;
        for (auto [i, k] : readers[v]) *readDesc(i, k) = nhwc;
        ++plan.report.channelsLastValues;
    }
}

}  // namespace

Result<GraphPlan> planGraph(const GraphDesc& desc, const GraphPlanOptions& options) {
    auto producer = validateStructure(desc);
    if (!producer) return producer.error();
    auto order = orderNodes(desc, *producer);
    if (!order) return order.error();

    GraphPlan plan;
    plan.values = desc.values;
    plan.inputs = desc.inputs;
    plan.outputs = desc.outputs;
    plan.report.nodesIn = uint32_t(desc.nodes.size());
    for (uint32_t i : *order) plan.nodes.push_back({desc.nodes[i], operatorLabel(desc.nodes[i].op), false});

    plan.views.assign(plan.values.size(), {});
    if (options.fuse) fuseGraph(plan, options);
    if (options.channelsLastConv) chooseChannelsLast(plan, options.channelsLastConv);

    plan.placement.assign(plan.values.size(), {});
    for (size_t i = 0; i < plan.inputs.size(); ++i) plan.placement[plan.inputs[i]] = {ValuePlacement::Where::GraphInput, uint32_t(i), 0, 0};
    for (size_t i = 0; i < plan.outputs.size(); ++i) {
        if (plan.values[plan.outputs[i]].kind == GraphValue::Kind::Constant)
            return unsupported("graph output " + valueName(plan.values, plan.outputs[i]) + " is a constant (it depends on no graph input)");
        plan.placement[plan.outputs[i]] = {ValuePlacement::Where::GraphOutput, uint32_t(i), 0, 0};
    }
    for (size_t v = 0; v < plan.values.size(); ++v)
        if (plan.values[v].kind == GraphValue::Kind::Constant) plan.placement[v].where = ValuePlacement::Where::Constant;
    placeIntermediates(plan, options.alias);
    placeBarriers(plan);
    plan.report.dispatchablesOut = uint32_t(plan.nodes.size());
    return plan;
}

}  // namespace mlplugin::detail
