// Graph fusion and folding passes (planGraph runs them between ordering and memory planning).
// Each rule that fires is logged in GraphCompileReport::fusions and has a test in
// tests/mlplugin/graph_plan_test.cpp.
#include "graph/graph_plan.h"

#include "graph/node_tensors.h"
#include "kernel.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace mlplugin::detail {
namespace {

Activation* fusableActivation(OperatorDesc& op) {
    return std::visit([](auto& o) -> Activation* {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, ConvolutionDesc> || std::is_same_v<T, GemmDesc> || std::is_same_v<T, BatchNormalizationDesc> ||
                      std::is_same_v<T, InstanceNormalizationDesc> || std::is_same_v<T, MeanVarianceNormalizationDesc>)
            return &o.activation;
        else if constexpr (std::is_same_v<T, ElementWiseDesc>)
            return o.op == ElementWiseOp::Activation ? nullptr : &o.activation;
        else return nullptr;
    }, op);
}

const ElementWiseDesc* pureActivation(const OperatorDesc& op) {
    auto* e = std::get_if<ElementWiseDesc>(&op);
    if (!e || e->op != ElementWiseOp::Activation || e->inputScaleBias || e->b) return nullptr;
    return e;
}

struct FusionState {
    std::vector<GraphValue>& values;
    std::vector<PlannedNode>& nodes;
    const std::vector<ValueId>& outputs;
    std::vector<std::string>& log;

    uint32_t uses(ValueId v) const {
        uint32_t n = uint32_t(std::count(outputs.begin(), outputs.end(), v));
        for (const auto& pn : nodes) n += uint32_t(std::count(pn.node.inputs.begin(), pn.node.inputs.end(), v));
        return n;
    }
    int consumerOf(ValueId v) const {
        for (size_t i = 0; i < nodes.size(); ++i)
            if (std::count(nodes[i].node.inputs.begin(), nodes[i].node.inputs.end(), v)) return int(i);
        return -1;
    }
    bool singleUse(ValueId v) const {
        return uses(v) == 1 && std::count(outputs.begin(), outputs.end(), v) == 0;
    }
    const GraphValue* constant(ValueId v) const {
        return v != kNoValue && values[v].kind == GraphValue::Kind::Constant ? &values[v] : nullptr;
    }
};

// producer -> activation node: the activation moves into the producer.
bool fuseActivations(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        auto& producer = s.nodes[i];
        if (producer.node.outputs.size() != 1) continue;
        Activation* act = fusableActivation(producer.node.op);
        if (!act || act->type != ActivationType::None) continue;
        ValueId out = producer.node.outputs[0];
        if (!s.singleUse(out)) continue;
        int c = s.consumerOf(out);
        if (c < 0) continue;
        const ElementWiseDesc* e = pureActivation(s.nodes[c].node.op);
        if (!e || e->output.dataType != s.values[out].desc.dataType) continue;
        *act = e->activation;
        s.log.push_back(producer.label + " + " + s.nodes[c].label + " -> fused " + toString(act->type));
        ValueId fusedOut = s.nodes[c].node.outputs[0];
        producer.node.outputs[0] = fusedOut;
        // The producer now writes the activation's output: its type and its layout (a graph output
        // may be strided, GraphDesc::setLayout).
        TensorDesc& written = *mutableOperatorOutputs(producer.node.op)[0];
        written.dataType = e->output.dataType;
        written.hasStrides = e->output.hasStrides;
        written.strides = e->output.strides;
        s.nodes.erase(s.nodes.begin() + c);
        return true;
    }
    return false;
}

// conv (constant weights) -> batch_normalization (constant statistics): fold into the weights.
bool foldBatchNorm(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        auto* conv = std::get_if<ConvolutionDesc>(&s.nodes[i].node.op);
        if (!conv || conv->transposed || conv->activation.type != ActivationType::None) continue;
        const auto& in = s.nodes[i].node.inputs;
        const GraphValue* w = s.constant(in[1]);
        const GraphValue* b = in.size() > 2 ? s.constant(in[2]) : nullptr;
        if (!w || (in.size() > 2 && in[2] != kNoValue && !b)) continue;
        ValueId out = s.nodes[i].node.outputs[0];
        if (!s.singleUse(out)) continue;
        int c = s.consumerOf(out);
        auto* bn = c >= 0 ? std::get_if<BatchNormalizationDesc>(&s.nodes[c].node.op) : nullptr;
        if (!bn || s.nodes[c].node.inputs[0] != out) continue;
        const auto& bi = s.nodes[c].node.inputs;
        const GraphValue *mean = s.constant(bi[1]), *var = s.constant(bi[2]), *scale = s.constant(bi[3]), *shift = s.constant(bi[4]);
        if (!mean || !var || !scale || !shift) continue;
        uint32_t outC = conv->filter.sizes[0];
        if (mean->constantData.size() != outC || var->constantData.size() != outC || scale->constantData.size() != outC ||
            shift->constantData.size() != outC)
            continue;
        std::vector<float> weights = w->constantData, bias(outC, 0.0f);
        if (b) bias = b->constantData;
        size_t perOut = weights.size() / outC;
        for (uint32_t o = 0; o < outC; ++o) {
            double k = scale->constantData[o] / std::sqrt(double(var->constantData[o]) + bn->epsilon);
            for (size_t j = 0; j < perOut; ++j) weights[o * perOut + j] = float(weights[o * perOut + j] * k);
            bias[o] = float((bias[o] - mean->constantData[o]) * k + shift->constantData[o]);
        }
        std::string base = s.nodes[i].label;
        TensorDesc wd = w->desc, bd = TensorDesc::make(DataType::Float32, {outC});
        // Names first: pushing values may move them (w and b point into s.values).
        std::string weightName = w->name + "+bn", biasName = (b ? b->name : std::string("bias")) + "+bn";
        s.values.push_back({weightName, wd, GraphValue::Kind::Constant, std::move(weights)});
        ValueId newW = ValueId(s.values.size() - 1);
        s.values.push_back({biasName, bd, GraphValue::Kind::Constant, std::move(bias)});
        ValueId newB = ValueId(s.values.size() - 1);
        conv->activation = bn->activation;
        conv->bias = bd;
        conv->filter = wd;
        auto& node = s.nodes[i].node;
        node.inputs = {node.inputs[0], newW, newB};
        ValueId bnOut = s.nodes[c].node.outputs[0];
        node.outputs[0] = bnOut;
        conv->output.dataType = s.values[bnOut].desc.dataType;
        s.log.push_back(base + " + " + s.nodes[c].label + " -> batch normalization folded into the weights");
        s.nodes.erase(s.nodes.begin() + c);
        return true;
    }
    return false;
}

// conv without bias -> add of a per-channel constant: the constant becomes the bias.
bool foldBiasAdd(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        auto* conv = std::get_if<ConvolutionDesc>(&s.nodes[i].node.op);
        if (!conv || conv->bias || conv->activation.type != ActivationType::None) continue;
        ValueId out = s.nodes[i].node.outputs[0];
        if (!s.singleUse(out)) continue;
        int c = s.consumerOf(out);
        auto* add = c >= 0 ? std::get_if<ElementWiseDesc>(&s.nodes[c].node.op) : nullptr;
        if (!add || add->op != ElementWiseOp::Add || add->inputScaleBias) continue;
        const auto& ai = s.nodes[c].node.inputs;
        ValueId other = ai[0] == out ? ai[1] : ai[0];
        const GraphValue* k = s.constant(other);
        uint32_t outC = conv->output.sizes[1];
        if (!k || k->constantData.size() != outC) continue;
        // The constant must vary along the channel dim only: [C], [C,1,1] or [1,C,1,1].
        const TensorDesc& kd = k->desc;
        bool perChannel = (kd.rank == 1) || (kd.rank == 3 && kd.sizes[1] == 1 && kd.sizes[2] == 1) ||
                          (kd.rank == 4 && kd.sizes[0] == 1 && kd.sizes[2] == 1 && kd.sizes[3] == 1);
        if (!perChannel || add->output.rank != 4) continue;
        TensorDesc bd = TensorDesc::make(DataType::Float32, {outC});
        s.values.push_back({k->name, bd, GraphValue::Kind::Constant, k->constantData});
        ValueId newB = ValueId(s.values.size() - 1);
        conv->bias = bd;
        conv->activation = add->activation;
        auto& node = s.nodes[i].node;
        node.inputs.resize(3);
        node.inputs[2] = newB;
        ValueId addOut = s.nodes[c].node.outputs[0];
        node.outputs[0] = addOut;
        conv->output.dataType = s.values[addOut].desc.dataType;
        s.log.push_back(s.nodes[i].label + " + " + s.nodes[c].label + " -> bias");
        s.nodes.erase(s.nodes.begin() + c);
        return true;
    }
    return false;
}

// gemm without C -> add of a constant that broadcasts to [M, N]: the constant becomes C.
bool foldGemmBias(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        auto* gemm = std::get_if<GemmDesc>(&s.nodes[i].node.op);
        if (!gemm || gemm->c || gemm->activation.type != ActivationType::None) continue;
        ValueId out = s.nodes[i].node.outputs[0];
        if (!s.singleUse(out)) continue;
        int c = s.consumerOf(out);
        auto* add = c >= 0 ? std::get_if<ElementWiseDesc>(&s.nodes[c].node.op) : nullptr;
        if (!add || add->op != ElementWiseOp::Add || add->inputScaleBias || !add->b) continue;
        const auto& ai = s.nodes[c].node.inputs;
        bool outIsA = ai[0] == out;
        ValueId other = outIsA ? ai[1] : ai[0];
        const GraphValue* k = s.constant(other);
        const TensorDesc& kd = outIsA ? *add->b : add->a;  // the constant as the add sees it
        const TensorDesc& gd = outIsA ? add->a : *add->b;
        if (!k || kd.rank > 2 || gd.rank != gemm->output.rank || !(add->output == gemm->output)) continue;
        // C must broadcast to [M, N] (the last two dims) on its own.
        uint32_t r = gemm->output.rank;
        bool fits = true;
        for (uint32_t d = 0; d < kd.rank; ++d) {
            uint32_t target = gemm->output.sizes[r - kd.rank + d];
            fits &= kd.sizes[d] == 1 || kd.sizes[d] == target;
        }
        if (!fits) continue;
        gemm->c = kd;
        gemm->c->hasStrides = false;
        gemm->beta = 1.0f;
        gemm->activation = add->activation;
        auto& node = s.nodes[i].node;
        node.inputs.resize(3, kNoValue);
        node.inputs[2] = other;
        node.outputs[0] = s.nodes[c].node.outputs[0];
        s.log.push_back(s.nodes[i].label + " + " + s.nodes[c].label + " -> C (bias)");
        s.nodes.erase(s.nodes.begin() + c);
        return true;
    }
    return false;
}

// A node whose inputs are all constants is evaluated now; its outputs become constants.
bool foldConstants(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        auto& node = s.nodes[i].node;
        bool allConstant = !node.inputs.empty();
        for (ValueId v : node.inputs) allConstant &= v == kNoValue || s.constant(v) != nullptr;
        if (!allConstant) continue;
        std::vector<HostTensor> in;
        for (ValueId v : node.inputs) {
            if (v == kNoValue) { in.push_back({}); continue; }
            const GraphValue& c = s.values[v];
            // Constants are packed row-major; present them with packed strides.
            TensorDesc d = c.desc;
            d.hasStrides = false;
            in.push_back({d, std::vector<double>(c.constantData.begin(), c.constantData.end())});
        }
        in.resize(operatorInputs(node.op).size());  // absent trailing optional inputs
        OperatorDesc op = node.op;
        std::vector<const TensorDesc*> descs;
        for (auto& t : in) descs.push_back(t.desc.rank ? &t.desc : nullptr);
        setOperatorInputs(op, descs);
        for (TensorDesc* t : mutableOperatorOutputs(op)) t->hasStrides = false;
        auto r = referenceEvaluate(op, in);
        if (!r) continue;  // leave it to the GPU (e.g. no reference for this op)
        for (size_t o = 0; o < node.outputs.size(); ++o) {
            GraphValue& v = s.values[node.outputs[o]];
            v.kind = GraphValue::Kind::Constant;
            v.constantData.assign((*r)[o].data.begin(), (*r)[o].data.end());
            v.desc.hasStrides = false;
            v.constantData.resize(v.desc.elementCount());
        }
        s.log.push_back(s.nodes[i].label + " -> constant folded");
        s.nodes.erase(s.nodes.begin() + i);
        return true;
    }
    return false;
}

// Gives value `v` a new desc (a strided view) in every node that reads or writes it.
void retarget(std::vector<PlannedNode>& nodes, ValueId v, const TensorDesc& desc) {
    for (PlannedNode& pn : nodes) {
        GraphNode& node = pn.node;
        if (!pn.convChain.empty()) {  // reads node.inputs[0] as its first layer's input
            if (node.inputs[0] == v) pn.convChain[0].input = desc;
            if (node.outputs[0] == v) {
                *mutableOperatorOutputs(node.op)[0] = desc;
                if (std::holds_alternative<ConvolutionDesc>(node.op)) pn.convChain.back().output = desc;
            }
            continue;
        }
        std::vector<const TensorDesc*> current = operatorInputs(node.op);
        std::vector<TensorDesc> ins;
        for (const TensorDesc* t : current) ins.push_back(t ? *t : TensorDesc{});
        bool changed = false;
        for (size_t k = 0; k < node.inputs.size() && k < ins.size(); ++k)
            if (node.inputs[k] == v) { ins[k] = desc; changed = true; }
        if (changed) {
            std::vector<const TensorDesc*> ptrs;
            for (const TensorDesc& t : ins) ptrs.push_back(t.rank ? &t : nullptr);
            setOperatorInputs(node.op, ptrs);
        }
        auto outs = mutableOperatorOutputs(node.op);
        for (size_t k = 0; k < outs.size() && k < node.outputs.size(); ++k)
            if (node.outputs[k] == v) *outs[k] = desc;
    }
}

// True when every node touching `v` sees it with the value's own sizes (no reshape alias in
// between, as the ONNX loader creates), so its desc can be swapped for a view.
bool seenAsIs(const std::vector<PlannedNode>& nodes, ValueId v, const TensorDesc& valueDesc) {
    auto same = [&](const TensorDesc* t) {
        if (!t || t->rank != valueDesc.rank) return false;
        for (uint32_t i = 0; i < t->rank && i < kMaxTensorRank; ++i)
            if (t->sizes[i] != valueDesc.sizes[i]) return false;
        return true;
    };
    for (const PlannedNode& pn : nodes) {
        // A fused projection's output is not its convolution's output desc.
        if (pn.fusion.projection && std::count(pn.node.outputs.begin(), pn.node.outputs.end(), v)) return false;
        std::vector<const TensorDesc*> ins = operatorInputs(pn.node.op);
        if (!pn.convChain.empty()) ins = {&pn.convChain[0].input};  // the rest are its constants
        for (size_t k = 0; k < pn.node.inputs.size(); ++k)
            if (pn.node.inputs[k] == v && (!pn.chain.empty() || k >= ins.size() || !same(ins[k]))) return false;
        std::vector<const TensorDesc*> outs = operatorOutputs(pn.node.op);
        for (size_t k = 0; k < pn.node.outputs.size(); ++k)
            if (pn.node.outputs[k] == v && (!pn.chain.empty() || k >= outs.size() || !same(outs[k]))) return false;
    }
    return true;
}

// concat whose inputs are all single-output intermediates: each producer writes straight into
// its slice of the concat's output (a strided view), and the concat disappears.
bool eliminateConcat(GraphPlan& plan, std::vector<bool>& isBase) {
    std::vector<GraphValue>& values = plan.values;
    for (size_t c = 0; c < plan.nodes.size(); ++c) {
        const auto* concat = std::get_if<ConcatDesc>(&plan.nodes[c].node.op);
        if (!concat) continue;
        const GraphNode& node = plan.nodes[c].node;
        ValueId out = node.outputs[0];
        const TensorDesc& od = values[out].desc;
        if (!od.isPacked() || plan.views[out].base != kNoValue || concat->axis >= od.rank) continue;
        std::vector<ValueId> ins = node.inputs;
        bool ok = true;
        for (size_t i = 0; i < ins.size() && ok; ++i) {
            ValueId v = ins[i];
            const GraphValue& val = values[v];
            int producer = -1;
            for (size_t p = 0; p < plan.nodes.size(); ++p)
                if (std::count(plan.nodes[p].node.outputs.begin(), plan.nodes[p].node.outputs.end(), v)) producer = int(p);
            ok = val.kind == GraphValue::Kind::Intermediate && producer >= 0 && plan.nodes[producer].node.outputs.size() == 1 &&
                 !std::get_if<ConcatDesc>(&plan.nodes[producer].node.op) && std::count(ins.begin(), ins.end(), v) == 1 &&
                 std::count(plan.outputs.begin(), plan.outputs.end(), v) == 0 && plan.views[v].base == kNoValue && !isBase[v] &&
                 val.desc.isPacked() && val.desc.dataType == od.dataType && seenAsIs(plan.nodes, v, val.desc);
        }
        ok = ok && seenAsIs(plan.nodes, out, od);
        if (!ok) continue;
        auto strides = od.effectiveStrides();
        std::vector<uint64_t> offsets;
        uint64_t along = 0;
        for (ValueId v : ins) {
            offsets.push_back(along * strides[concat->axis] * byteSize(od.dataType));
            along += values[v].desc.sizes[concat->axis];
        }
        // Every slice must start where a descriptor may point.
        if (std::any_of(offsets.begin(), offsets.end(), [](uint64_t o) { return o % kGraphAlignment != 0; })) continue;
        for (size_t i = 0; i < ins.size(); ++i) {
            TensorDesc& d = values[ins[i]].desc;
            d.hasStrides = true;
            d.strides = strides;
            plan.views[ins[i]] = {out, offsets[i]};
        }
        plan.report.fusions.push_back(plan.nodes[c].label + " -> removed: " + std::to_string(ins.size()) +
                                      " producers write into its output");
        plan.nodes.erase(plan.nodes.begin() + c);  // before retargeting: the concat reads the old descs
        for (ValueId v : ins) retarget(plan.nodes, v, values[v].desc);
        isBase[out] = true;
        return true;
    }
    return false;
}

bool sameSizes(const TensorDesc& a, const TensorDesc& b) {
    if (a.rank != b.rank) return false;
    for (uint32_t i = 0; i < a.rank && i < kMaxTensorRank; ++i)
        if (a.sizes[i] != b.sizes[i]) return false;
    return true;
}

// element-wise -> element-wise reading it as its `a`: one dispatch keeps the running value in a
// register (up to kMaxChainSteps steps; the intermediate never touches memory).
bool fuseElementWiseChains(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& first = s.nodes[i];
        const auto* e = std::get_if<ElementWiseDesc>(&first.node.op);
        if (!e || first.node.outputs.size() != 1 || first.chain.size() >= kMaxChainSteps) continue;
        ValueId mid = first.node.outputs[0];
        if (!s.singleUse(mid)) continue;
        int c = s.consumerOf(mid);
        if (c < 0) continue;
        PlannedNode& next = s.nodes[c];
        const auto* f = std::get_if<ElementWiseDesc>(&next.node.op);
        if (!f || !next.chain.empty() || next.node.inputs.empty() || next.node.inputs[0] != mid) continue;
        if (next.node.inputs.size() > 1 && next.node.inputs[1] == mid) continue;
        // The running value is handed over as is: no reshape alias between the two (the ONNX
        // loader's free reshapes change a node's view of a value), and no broadcast of it.
        const TensorDesc& produced = first.chain.empty() ? e->output : first.chain.back().output;
        if (!sameSizes(produced, f->a) || !sameSizes(f->a, f->output) || produced.dataType != f->a.dataType) continue;
        // The fused node takes the consumer's place: the consumer's b may be computed by a node
        // between the two, and everything the producer reads is ready earlier still.
        PlannedNode fused = first;
        if (fused.chain.empty()) {
            fused.chain.push_back(*e);
            fused.node.inputs.resize(2, kNoValue);
        }
        fused.chain.push_back(*f);
        fused.node.inputs.push_back(next.node.inputs.size() > 1 ? next.node.inputs[1] : kNoValue);
        fused.node.outputs = next.node.outputs;
        fused.node.op = next.node.op;
        fused.label += " + " + next.label;
        s.log.push_back(fused.label + " -> one element-wise dispatch (" + std::to_string(fused.chain.size()) + " steps)");
        s.nodes[c] = std::move(fused);
        s.nodes.erase(s.nodes.begin() + i);
        return true;
    }
    return false;
}

// A convolution the chain kernel can take: constant weights; the shape rules are convChainFits'.
const ConvolutionDesc* chainableConv(const FusionState& s, const PlannedNode& pn) {
    const auto* c = std::get_if<ConvolutionDesc>(&pn.node.op);
    if (!c || !pn.convChain.empty() || pn.node.outputs.size() != 1 || pn.node.inputs.size() < 2 || !s.constant(pn.node.inputs[1])) return nullptr;
    if (pn.node.inputs.size() > 2 && pn.node.inputs[2] != kNoValue && !s.constant(pn.node.inputs[2])) return nullptr;
    return c;
}

// conv -> conv [-> conv] [-> depth_to_space], each intermediate read only by the next: one
// dispatch over spatial tiles whose intermediates stay in shared memory (conv_chain.comp). The
// longest chain convChainFits accepts wins (opt-in: `force`); the fused node takes the first
// convolution's place (everything else it reads is a constant).
bool fuseConvChains(FusionState& s, uint32_t sharedBytes, bool force) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        const ConvolutionDesc* first = chainableConv(s, s.nodes[i]);
        if (!first) continue;
        std::vector<size_t> members{i};
        ConvChain chain{s.nodes[i].label, {*first}, std::nullopt};
        while (members.size() < kMaxConvChainLayers) {
            ValueId mid = s.nodes[members.back()].node.outputs[0];
            if (!s.singleUse(mid)) break;
            int c = s.consumerOf(mid);
            const ConvolutionDesc* next = c >= 0 ? chainableConv(s, s.nodes[c]) : nullptr;
            if (!next || s.nodes[c].node.inputs[0] != mid) break;
            members.push_back(size_t(c));
            chain.layers.push_back(*next);
        }
        // Longest first: a third layer may not fit where two do.
        for (; chain.layers.size() >= 2; chain.layers.pop_back(), members.pop_back()) {
            chain.depthToSpace.reset();
            ValueId last = s.nodes[members.back()].node.outputs[0];
            int c = s.singleUse(last) ? s.consumerOf(last) : -1;
            const auto* d2s = c >= 0 ? std::get_if<DepthToSpaceDesc>(&s.nodes[c].node.op) : nullptr;
            if (d2s && d2s->input.dataType == chain.layers.back().output.dataType) {
                chain.depthToSpace = *d2s;
                if (!convChainFits(chain, sharedBytes, force)) chain.depthToSpace.reset();
                else members.push_back(size_t(c));
            }
            if (convChainFits(chain, sharedBytes, force)) break;
        }
        if (chain.layers.size() < 2) continue;
        PlannedNode fused = s.nodes[i];
        fused.node.inputs = {s.nodes[i].node.inputs[0]};
        for (size_t l = 0; l < chain.layers.size(); ++l) {
            const auto& in = s.nodes[members[l]].node.inputs;
            fused.node.inputs.push_back(in[1]);
            fused.node.inputs.push_back(in.size() > 2 ? in[2] : kNoValue);
            if (l > 0) fused.label += " + " + s.nodes[members[l]].label;
        }
        const PlannedNode& tail = s.nodes[members.back()];
        if (chain.depthToSpace) fused.label += " + " + tail.label;
        fused.node.op = tail.node.op;
        fused.node.outputs = tail.node.outputs;
        fused.convChain = chain.layers;
        s.log.push_back(fused.label + " -> one convolution-chain dispatch (" + std::to_string(chain.layers.size()) + " layers" +
                        (chain.depthToSpace ? ", depth-to-space in the store)" : ")"));
        s.nodes[i] = std::move(fused);
        std::sort(members.begin() + 1, members.end(), std::greater<>());  // all after i
        for (size_t m = 1; m < members.size(); ++m) s.nodes.erase(s.nodes.begin() + members[m]);
        return true;
    }
    return false;
}

// A transposed convolution with stride s (groups 1, no dilation, constant weights) is s x s
// ordinary convolutions on its input, one per output phase (the sub-pixel form): output row
// s*u + v takes phase r = (v + p) % s of the kernel, w[s*j + r] against in[u + (v + p) / s - j],
// p = padBegin. It becomes one convolution with outC x s x s channels (sub-position v of channel
// c at c*s*s + v_y*s + v_x: the CRD order) of ceil(k / s) taps, one more when p % s != 0 (the
// phases then straddle two input rows), and a depth-to-space, which the next pass folds into the
// convolution's store. Then it runs on the fast kernels instead of the generic one (FSRCNN's 9x9
// stride-2 56 -> 1 at 1080p: the generic kernel spent ~9 ms of the network's 11). Taken when the
// kernel is larger than the stride and the output a whole number of s x s blocks.
bool rewriteTransposedConvolution(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& pn = s.nodes[i];
        const auto* d = std::get_if<ConvolutionDesc>(&pn.node.op);
        if (!d || !d->transposed || d->groups != 1 || !pn.convChain.empty() || !pn.chain.empty() || pn.fusion.any()) continue;
        const uint32_t st = d->strides[0];
        if (st < 2 || d->strides[1] != st || d->dilations[0] != 1 || d->dilations[1] != 1 || d->input.rank != 4) continue;
        const auto& in = pn.node.inputs;
        const GraphValue* w = s.constant(in[1]);
        const GraphValue* b = in.size() > 2 ? s.constant(in[2]) : nullptr;
        if (!w || (in.size() > 2 && in[2] != kNoValue && !b)) continue;
        const uint32_t inC = d->filter.sizes[0], outC = d->filter.sizes[1], kH = d->filter.sizes[2], kW = d->filter.sizes[3];
        const uint32_t k[2] = {kH, kW};
        // Per axis: taps of the sub-pixel kernel, its pads, output blocks, and the phase offset.
        uint32_t taps[2] = {}, padB[2] = {}, padE[2] = {}, q[2] = {}, off[2] = {}, kSub[2] = {};
        // Kernels no larger than the stride (U-Net's 2x2 stride 2) give each output one tap: the
        // generic kernel is cheap there, and its output can still be written into a concat's slice.
        bool ok = w->constantData.size() == size_t(inC) * outC * kH * kW && (kH > st || kW > st);
        for (int a = 0; a < 2 && ok; ++a) {
            const uint32_t inSize = d->input.sizes[2 + a], outSize = d->output.sizes[2 + a], p = d->padBegin[a];
            kSub[a] = (k[a] + st - 1) / st;
            off[a] = p % st;
            taps[a] = kSub[a] + (off[a] ? 1 : 0);
            ok = outSize % st == 0 && p / st <= kSub[a] - 1;
            if (!ok) break;
            padB[a] = kSub[a] - 1 - p / st;
            q[a] = outSize / st;
            int64_t e = int64_t(q[a]) - inSize - padB[a] + taps[a] - 1;
            ok = e >= 0;
            padE[a] = uint32_t(std::max<int64_t>(e, 0));
        }
        if (!ok) continue;

        // The kernel row of tap t for sub-position v along an axis, or -1 where it has none.
        auto kernelIndex = [&](int a, uint32_t v, uint32_t t) -> int64_t {
            uint32_t r = (v + off[a]) % st, delta = (v + off[a]) / st;
            int64_t j = int64_t(kSub[a]) - 1 + delta - t;
            int64_t kk = j * st + r;
            return j < 0 || kk >= int64_t(k[a]) ? -1 : kk;
        };
        const uint32_t phases = st * st, subOut = outC * phases;
        std::vector<float> weights(size_t(subOut) * inC * taps[0] * taps[1], 0.0f);
        for (uint32_t oc = 0; oc < outC; ++oc)
            for (uint32_t vy = 0; vy < st; ++vy)
                for (uint32_t vx = 0; vx < st; ++vx)
                    for (uint32_t ic = 0; ic < inC; ++ic)
                        for (uint32_t ty = 0; ty < taps[0]; ++ty)
                            for (uint32_t tx = 0; tx < taps[1]; ++tx) {
                                int64_t ky = kernelIndex(0, vy, ty), kx = kernelIndex(1, vx, tx);
                                if (ky < 0 || kx < 0) continue;  // a tap this phase does not have
                                uint32_t o = oc * phases + vy * st + vx;
                                weights[((size_t(o) * inC + ic) * taps[0] + ty) * taps[1] + tx] =
                                    w->constantData[((size_t(ic) * outC + oc) * kH + size_t(ky)) * kW + size_t(kx)];
                            }
        std::vector<float> bias;
        if (b)
            for (uint32_t o = 0; o < subOut; ++o) bias.push_back(b->constantData.at(o / phases));

        ConvolutionDesc sub;
        sub.name = d->name + " (sub-pixel)";
        sub.input = d->input;
        sub.filter = TensorDesc::make(w->desc.dataType, {subOut, inC, taps[0], taps[1]});
        if (b) sub.bias = TensorDesc::make(b->desc.dataType, {subOut});
        sub.output = TensorDesc::make(d->output.dataType, {d->output.sizes[0], subOut, q[0], q[1]});
        sub.padBegin = {padB[0], padB[1]};
        sub.padEnd = {padE[0], padE[1]};
        sub.activation = d->activation;
        DepthToSpaceDesc d2s{.name = d->name + " (phases)", .input = sub.output, .output = d->output, .blockSize = st,
                             .order = DepthSpaceOrder::CRD};

        // Names first: pushing values may move them (w and b point into s.values).
        std::string weightName = w->name + " (sub-pixel)", biasName = b ? b->name + " (sub-pixel)" : std::string();
        s.values.push_back({weightName, sub.filter, GraphValue::Kind::Constant, std::move(weights)});
        ValueId newW = ValueId(s.values.size() - 1);
        ValueId newB = kNoValue;
        if (b) {
            s.values.push_back({biasName, *sub.bias, GraphValue::Kind::Constant, std::move(bias)});
            newB = ValueId(s.values.size() - 1);
        }
        s.values.push_back({d->name + " (phases)", sub.output, GraphValue::Kind::Intermediate, {}});
        ValueId mid = ValueId(s.values.size() - 1);

        PlannedNode shuffle;
        shuffle.node = GraphNode{d2s, {mid}, pn.node.outputs};
        shuffle.label = pn.label + " (phases)";
        s.log.push_back(pn.label + " -> " + std::to_string(phases) + "-phase sub-pixel convolution (" + std::to_string(taps[0]) + "x" +
                        std::to_string(taps[1]) + ", " + std::to_string(subOut) + " channels) + depth-to-space");
        pn.node = GraphNode{sub, {in[0], newW, newB}, {mid}};
        s.nodes.insert(s.nodes.begin() + i + 1, std::move(shuffle));
        return true;
    }
    return false;
}

// conv -> depth_to_space, the convolution's output read by nothing else: the convolution stores
// each element where the depth-to-space would move it (conv2d_params.glsl storeFinished), which
// saves a dispatch and a full read and write of the convolution's output.
bool foldDepthToSpaceIntoConvolution(FusionState& s) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& conv = s.nodes[i];
        const auto* c = std::get_if<ConvolutionDesc>(&conv.node.op);
        if (!c || !conv.convChain.empty() || !conv.chain.empty() || conv.node.outputs.size() != 1) continue;
        if (conv.fusion.depthToSpace || conv.fusion.residual || conv.fusion.pooledOutput || conv.fusion.projection) continue;  // the store is taken
        ValueId mid = conv.node.outputs[0];
        int d = s.singleUse(mid) ? s.consumerOf(mid) : -1;
        // A plain depth-to-space node: a fused convolution chain ending in one also has it as its op.
        const bool plain = d >= 0 && s.nodes[d].convChain.empty() && s.nodes[d].chain.empty();
        const auto* d2s = plain ? std::get_if<DepthToSpaceDesc>(&s.nodes[d].node.op) : nullptr;
        if (!d2s || d2s->output.dataType != s.values[mid].desc.dataType) continue;
        s.log.push_back(conv.label + " + " + s.nodes[d].label + " -> depth-to-space in the convolution's store");
        conv.fusion.depthToSpace = *d2s;
        conv.node.outputs = s.nodes[d].node.outputs;
        conv.label += " + " + s.nodes[d].label;
        s.nodes.erase(s.nodes.begin() + d);
        return true;
    }
    return false;
}


// The fused node's input k (slopes 3, residual 4, concat part 5, projection filter 6 and bias 7;
// kernel.h ConvolutionFusion).
void setFusedInput(PlannedNode& conv, size_t k, ValueId v) {
    conv.node.inputs.resize(std::max<size_t>(conv.node.inputs.size(), std::max<size_t>(6, k + 1)), kNoValue);
    conv.node.inputs[k] = v;
}

// A convolution whose output is read by one node only: that node's index, else -1.
int soleConsumer(const FusionState& s, const PlannedNode& conv) {
    if (conv.node.outputs.size() != 1) return -1;
    ValueId out = conv.node.outputs[0];
    return s.singleUse(out) ? s.consumerOf(out) : -1;
}

bool plainConvolution(const PlannedNode& pn) { return pn.convChain.empty() && pn.chain.empty() && std::holds_alternative<ConvolutionDesc>(pn.node.op); }

// The tensor a convolution's output becomes after its fused store (depth-to-space, pool, projection).
const TensorDesc& storedDesc(const PlannedNode& pn) { return pn.fusion.stored(std::get<ConvolutionDesc>(pn.node.op)); }

// conv -> PReLU with constant per-channel slopes: the slopes go into the convolution's epilogue.
bool foldPRelu(FusionState& s, const GraphPlanOptions& o) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& conv = s.nodes[i];
        if (!plainConvolution(conv) || conv.fusion.any()) continue;
        int c = soleConsumer(s, conv);
        const auto* e = c >= 0 ? std::get_if<ElementWiseDesc>(&s.nodes[c].node.op) : nullptr;
        if (!e || !s.nodes[c].chain.empty() || e->op != ElementWiseOp::PRelu || e->inputScaleBias || e->activation.type != ActivationType::None)
            continue;
        const auto& in = s.nodes[c].node.inputs;
        const GraphValue* slope = in.size() > 1 && in[0] == conv.node.outputs[0] ? s.constant(in[1]) : nullptr;
        const auto& d = std::get<ConvolutionDesc>(conv.node.op);
        if (!slope || e->output.dataType != d.output.dataType || slope->constantData.size() != d.output.sizes[1]) continue;
        ConvolutionFusion f;
        f.preluSlope = slope->desc;
        f.preluSlope->hasStrides = false;
        ConvolutionDesc fused = d;
        fused.output = e->output;
        if (!o.convFusion(fused, f)) continue;
        s.log.push_back(conv.label + " + " + s.nodes[c].label + " -> PReLU in the convolution's epilogue");
        conv.fusion = f;
        setFusedInput(conv, 3, in[1]);
        conv.node.op = fused;
        conv.node.outputs = s.nodes[c].node.outputs;
        conv.label += " + " + s.nodes[c].label;
        s.nodes.erase(s.nodes.begin() + c);
        return true;
    }
    return false;
}

// A nearest resize by an integer factor whose output pixel (y, x) is input pixel (y / s, x / s):
// the factor, else 0.
uint32_t nearestFactor(const ResampleDesc& r) {
    if (r.mode != ResampleMode::Nearest || r.input.rank != 4) return 0;
    const uint32_t h = r.input.sizes[2], w = r.input.sizes[3];
    if (h == 0 || w == 0 || r.output.sizes[2] % h || r.output.sizes[3] % w || r.output.sizes[2] / h != r.output.sizes[3] / w) return 0;
    bool floorMap = r.transform == CoordinateTransform::HalfPixel || r.transform == CoordinateTransform::PytorchHalfPixel ||
                    (r.transform == CoordinateTransform::Asymmetric && r.rounding == NearestRounding::Floor);
    return floorMap ? r.output.sizes[2] / h : 0;
}

// A bilinear resize by an integer factor with half-pixel centres (ONNX half_pixel, or
// pytorch_half_pixel, the same for outputs longer than one pixel): the factor, else 0.
uint32_t linearFactor(const ResampleDesc& r) {
    if (r.mode != ResampleMode::Linear || r.input.rank != 4) return 0;
    if (r.transform != CoordinateTransform::HalfPixel && r.transform != CoordinateTransform::PytorchHalfPixel) return 0;
    const uint32_t h = r.input.sizes[2], w = r.input.sizes[3];
    if (h == 0 || w == 0 || r.output.sizes[2] % h || r.output.sizes[3] % w || r.output.sizes[2] / h != r.output.sizes[3] / w) return 0;
    const uint32_t f = r.output.sizes[2] / h;
    for (float scale : r.scales)
        if (scale != 0.0f && scale != float(f)) return 0;
    return f;
}

int producerOf(const FusionState& s, ValueId v) {
    for (size_t i = 0; i < s.nodes.size(); ++i)
        if (std::count(s.nodes[i].node.outputs.begin(), s.nodes[i].node.outputs.end(), v)) return int(i);
    return -1;
}

// conv [+ its fused store] -> add of another tensor of the stored shape, or of a nearest or
// bilinear x s upsampling of one (read only by the add) [-> clip]: the add moves into the
// epilogue (the upsampling into its residual read, the clip after it). The fused node takes the
// add's (or the clip's) place: the residual may be computed after the convolution, and
// everything the convolution reads is ready earlier still.
bool foldResidual(FusionState& s, const GraphPlanOptions& o) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& conv = s.nodes[i];
        if (!plainConvolution(conv) || conv.fusion.residual || conv.fusion.pooledOutput || conv.fusion.projection) continue;
        int c = soleConsumer(s, conv);
        const auto* add = c >= 0 ? std::get_if<ElementWiseDesc>(&s.nodes[c].node.op) : nullptr;
        if (!add || !s.nodes[c].chain.empty() || add->op != ElementWiseOp::Add || add->inputScaleBias || add->activation.type != ActivationType::None)
            continue;
        const auto& in = s.nodes[c].node.inputs;
        ValueId out = conv.node.outputs[0];
        if (in.size() < 2 || (in[0] == out) == (in[1] == out)) continue;
        ValueId other = in[0] == out ? in[1] : in[0];
        const TensorDesc& otherDesc = in[0] == out ? *add->b : add->a;
        const TensorDesc& stored = storedDesc(conv);
        if (!(add->output == stored) && !(add->output.dataType == stored.dataType && add->output.rank == 4 && stored.rank == 4 &&
                                           std::equal(stored.sizes.begin(), stored.sizes.begin() + 4, add->output.sizes.begin())))
            continue;
        if (s.values[other].kind == GraphValue::Kind::Constant) continue;  // a bias, not a tensor (foldBiasAdd's case)
        ConvolutionFusion f = conv.fusion;
        ValueId residual = other;
        int resize = -1;
        f.residual = otherDesc;
        f.residualScale = 1;
        if (int p = producerOf(s, other); p >= 0 && s.singleUse(other) && s.nodes[p].chain.empty()) {
            if (const auto* r = std::get_if<ResampleDesc>(&s.nodes[p].node.op); r && (nearestFactor(*r) > 1 || linearFactor(*r) > 1)) {
                resize = p;
                residual = s.nodes[p].node.inputs[0];
                f.residual = r->input;
                f.residualLinear = linearFactor(*r) > 1;
                f.residualScale = f.residualLinear ? linearFactor(*r) : nearestFactor(*r);
            }
        }
        bool sameSizes = true;
        for (uint32_t k = 0; k < 4; ++k) sameSizes &= otherDesc.sizes[k] == stored.sizes[k];
        if (!sameSizes) continue;  // a broadcast add
        // A clip that alone reads the sum joins the epilogue too.
        int clip = -1;
        TensorDesc result = add->output;
        if (ValueId sum = s.nodes[c].node.outputs[0]; s.singleUse(sum)) {
            const int k = s.consumerOf(sum);
            const auto* e = k >= 0 ? std::get_if<ElementWiseDesc>(&s.nodes[k].node.op) : nullptr;
            if (e && s.nodes[k].chain.empty() && e->op == ElementWiseOp::Clip && e->clipMin <= e->clipMax && !e->inputScaleBias &&
                e->activation.type == ActivationType::None &&
                e->output.dataType == add->output.dataType && e->output.rank == 4 &&
                std::equal(e->output.sizes.begin(), e->output.sizes.begin() + 4, add->output.sizes.begin())) {
                clip = k;
                result = e->output;
                f.clampAfterResidual = std::array<float, 2>{e->clipMin, e->clipMax};
            }
        }
        ConvolutionDesc d = std::get<ConvolutionDesc>(conv.node.op);
        if (!f.depthToSpace && !f.pooledOutput) d.output = result;
        if (f.depthToSpace) f.depthToSpace->output = result;
        if (!o.convFusion(d, f)) continue;
        const size_t last = size_t(clip >= 0 ? clip : c);
        PlannedNode fused = conv;
        fused.node.op = d;
        fused.fusion = f;
        setFusedInput(fused, 4, residual);
        fused.node.outputs = s.nodes[last].node.outputs;
        fused.label += " + " + s.nodes[c].label + (clip >= 0 ? " + " + s.nodes[size_t(clip)].label : "");
        s.log.push_back(fused.label + " -> residual add in the convolution's epilogue" +
                        (resize >= 0 ? std::string(f.residualLinear ? " (bilinear x" : " (nearest x") + std::to_string(f.residualScale) + " '" +
                                           s.nodes[resize].label + "' in its read)"
                                     : "") +
                        (clip >= 0 ? ", clipped" : ""));
        s.nodes[last] = std::move(fused);
        std::vector<size_t> gone{i};
        if (clip >= 0) gone.push_back(c);
        if (resize >= 0) gone.push_back(size_t(resize));
        std::sort(gone.begin(), gone.end(), std::greater<>());
        for (size_t g : gone) s.nodes.erase(s.nodes.begin() + g);
        return true;
    }
    return false;
}

// conv -> 2x2 stride-2 max pool (no padding): the epilogue stores the pooled tensor only.
bool foldMaxPool(FusionState& s, const GraphPlanOptions& o) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& conv = s.nodes[i];
        if (!plainConvolution(conv) || conv.fusion.depthToSpace || conv.fusion.residual || conv.fusion.pooledOutput || conv.fusion.projection)
            continue;
        int c = soleConsumer(s, conv);
        const auto* pool = c >= 0 ? std::get_if<PoolingDesc>(&s.nodes[c].node.op) : nullptr;
        if (!pool || pool->type != PoolingType::Max || pool->global || pool->window != std::array<uint32_t, 2>{2, 2} ||
            pool->strides != std::array<uint32_t, 2>{2, 2} || pool->dilations != std::array<uint32_t, 2>{1, 1} ||
            pool->padBegin != std::array<uint32_t, 2>{0, 0} || pool->padEnd != std::array<uint32_t, 2>{0, 0} ||
            s.nodes[c].node.outputs.size() != 1)
            continue;
        const auto& d = std::get<ConvolutionDesc>(conv.node.op);
        if (pool->output.dataType != d.output.dataType) continue;
        ConvolutionFusion f = conv.fusion;
        f.pooledOutput = pool->output;
        if (!o.convFusion(d, f)) continue;
        s.log.push_back(conv.label + " + " + s.nodes[c].label + " -> 2x2 max pool in the convolution's store");
        conv.fusion = f;
        conv.node.outputs = s.nodes[c].node.outputs;
        conv.label += " + " + s.nodes[c].label;
        s.nodes.erase(s.nodes.begin() + c);
        return true;
    }
    return false;
}

// conv [+ PReLU] -> a plain 1x1 convolution (stride 1, ungrouped, no padding, constant filter
// and bias) that alone reads it: the 1x1 runs on each tile's activations in the convolution's
// epilogue and the intermediate is never stored (a network's per-pixel head, e.g. the temporal
// upscaler's 3x3 -> ReLU -> 1x1). Tried last, so the 1x1's own epilogue fusions win.
bool foldProjection(FusionState& s, const GraphPlanOptions& o) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& conv = s.nodes[i];
        if (!plainConvolution(conv) || conv.fusion.depthToSpace || conv.fusion.residual || conv.fusion.pooledOutput || conv.fusion.projection)
            continue;
        int c = soleConsumer(s, conv);
        if (c < 0 || !plainConvolution(s.nodes[c]) || s.nodes[c].fusion.any() || s.nodes[c].node.outputs.size() != 1) continue;
        const auto& p = std::get<ConvolutionDesc>(s.nodes[c].node.op);
        const auto& in = s.nodes[c].node.inputs;
        const bool pointwise = !p.transposed && p.groups == 1 && p.filter.rank == 4 && p.filter.sizes[2] == 1 && p.filter.sizes[3] == 1 &&
                               p.strides == std::array<uint32_t, 2>{1, 1} && p.padBegin == std::array<uint32_t, 2>{0, 0} &&
                               p.padEnd == std::array<uint32_t, 2>{0, 0};
        const bool constantWeights = in.size() >= 2 && in[0] == conv.node.outputs[0] && s.constant(in[1]) &&
                                     (in.size() < 3 || in[2] == kNoValue || s.constant(in[2]));
        if (!pointwise || !constantWeights) continue;
        const auto& d = std::get<ConvolutionDesc>(conv.node.op);
        ConvolutionFusion f = conv.fusion;
        f.projection = p;
        if (!o.convFusion(d, f)) continue;
        s.log.push_back(conv.label + " + " + s.nodes[c].label + " -> 1x1 convolution in the convolution's epilogue");
        conv.fusion = f;
        setFusedInput(conv, 6, in[1]);
        setFusedInput(conv, 7, in.size() > 2 ? in[2] : kNoValue);
        conv.node.outputs = s.nodes[c].node.outputs;
        conv.label += " + " + s.nodes[c].label;
        s.nodes.erase(s.nodes.begin() + c);
        return true;
    }
    return false;
}

// conv reading concat(nearest x s upsampling of a, b) along channels, or a nearest upsampling
// alone, each read by nothing else: the convolution's loads read a at (y / s, x / s) and b
// directly, and the concat and resize disappear (U-Net decoders).
bool foldConcatUpsample(FusionState& s, const GraphPlanOptions& o) {
    for (size_t i = 0; i < s.nodes.size(); ++i) {
        PlannedNode& conv = s.nodes[i];
        if (!plainConvolution(conv) || conv.fusion.source) continue;
        ValueId x = conv.node.inputs[0];
        int p = s.singleUse(x) ? producerOf(s, x) : -1;
        if (p < 0 || !s.nodes[p].chain.empty() || s.nodes[p].node.outputs.size() != 1) continue;
        ConvolutionFusion f = conv.fusion;
        std::vector<size_t> gone;
        ValueId first = kNoValue, second = kNoValue;
        if (const auto* cat = std::get_if<ConcatDesc>(&s.nodes[p].node.op)) {
            if (cat->axis != 1 || cat->inputs.size() != 2 || s.nodes[p].node.inputs.size() != 2) continue;
            first = s.nodes[p].node.inputs[0], second = s.nodes[p].node.inputs[1];
            if (first == second || s.values[first].kind == GraphValue::Kind::Constant || s.values[second].kind == GraphValue::Kind::Constant) continue;
            f.source = cat->inputs[0];
            f.concat = cat->inputs[1];
            gone.push_back(size_t(p));
            int r = s.singleUse(first) ? producerOf(s, first) : -1;
            const auto* up = r >= 0 && s.nodes[r].chain.empty() ? std::get_if<ResampleDesc>(&s.nodes[r].node.op) : nullptr;
            if (up && nearestFactor(*up) > 1) {
                f.source = up->input;
                f.sourceScale = nearestFactor(*up);
                first = s.nodes[r].node.inputs[0];
                gone.push_back(size_t(r));
            }
        } else if (const auto* up = std::get_if<ResampleDesc>(&s.nodes[p].node.op); up && nearestFactor(*up) > 1) {
            first = s.nodes[p].node.inputs[0];
            f.source = up->input;
            f.sourceScale = nearestFactor(*up);
            gone.push_back(size_t(p));
        } else {
            continue;
        }
        const auto& d = std::get<ConvolutionDesc>(conv.node.op);
        if (!o.convFusion(d, f)) continue;
        std::string what;
        for (size_t g : gone) what += " + " + s.nodes[g].label;
        s.log.push_back(conv.label + what + " -> read by the convolution's loads" +
                        (f.sourceScale > 1 ? " (nearest x" + std::to_string(f.sourceScale) + ")" : ""));
        conv.fusion = f;
        conv.node.inputs[0] = first;
        if (second != kNoValue) setFusedInput(conv, 5, second);
        std::sort(gone.begin(), gone.end(), std::greater<>());
        for (size_t g : gone) s.nodes.erase(s.nodes.begin() + g);  // all before i: conv moves down
        return true;
    }
    return false;
}

}  // namespace

void fuseGraph(GraphPlan& plan, const GraphPlanOptions& options) {
    FusionState s{plan.values, plan.nodes, plan.outputs, plan.report.fusions};
    while (foldConstants(s) || foldBatchNorm(s) || foldBiasAdd(s) || foldGemmBias(s) || fuseActivations(s)) {}
    while (rewriteTransposedConvolution(s)) {}
    // Before the epilogue fusions, which need whole fragments (a 1x1 head folds only then).
    if (options.padChannels) padConvChannels(plan, options.padChannels);
    if (options.convChains) while (fuseConvChains(s, options.sharedMemoryBytes, options.forceConvChains)) {}
    while (foldDepthToSpaceIntoConvolution(s)) {}
    if (options.convFusion)
        while (foldPRelu(s, options) || foldDepthToSpaceIntoConvolution(s) || foldResidual(s, options) || foldMaxPool(s, options) ||
               foldConcatUpsample(s, options) || foldProjection(s, options)) {}
    while (fuseElementWiseChains(s)) {}
    plan.views.assign(plan.values.size(), {});
    std::vector<bool> isBase(plan.values.size(), false);
    while (eliminateConcat(plan, isBase)) {}
}

}  // namespace mlplugin::detail
