// compileGraph, GPU half: every planned node becomes an operator plan whose launches record
// with a descriptor set of their own. The node's descriptors point at sub-ranges of the graph's
// bindings (intermediates in the temporary resource, weights in the persistent resource), so
// operator shaders know nothing about graphs. Weights of convolutions and GEMMs are owned: the
// node's own initialize launches re-lay them out from the constants blob; other constants are
// copied into the persistent resource by an identity launch at initialization.
#include "compiled_operator.h"
#include "device_impl.h"
#include "graph/graph_plan.h"
#include "graph/graph_reshape.h"
#include "graph/node_tensors.h"

#include <cstring>
#include <map>

namespace mlplugin {
namespace detail {
namespace {

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// Inputs that the node's own plan may take as owned (re-laid out at initialization).
bool ownsConstantInput(const OperatorDesc& op, size_t input) {
    if (std::holds_alternative<ConvolutionDesc>(op)) return input == 1 || input == 2;
    if (std::holds_alternative<GemmDesc>(op)) return input == 1 || input == 2;
    return false;
}

struct NodeBuild {
    Plan plan;
    uint32_t set = 0;              // execution set
    uint32_t initSet = kNoSet;     // initialization set (nodes with initialize launches)
    uint64_t persistentOffset = 0;
    uint64_t temporaryOffset = 0;
};

struct GraphBuilder {
    PlanContext pc;          // the device's, for the graph's execution flags
    PipelineCache* cache;    // nullptr: compileGraphOnCpu, pipelines stay VK_NULL_HANDLE
    GraphPlan& plan;

    std::vector<NodeBuild> nodes;
    std::map<ValueId, uint64_t> blobOffset;        // every constant
    std::map<ValueId, uint64_t> persistentCopy;    // constants read at execution
    std::vector<uint8_t> blob;
    uint64_t persistentBytes = 0;
    uint64_t temporaryBytes = 0;
    uint32_t initSets = 0;
    std::vector<RecordedLaunch> initLaunches;

    CompiledOperatorImpl* op = nullptr;
    // Targets collected per binding of the graph operator.
    std::vector<std::vector<SubBinding>> inputTargets, outputTargets;
    std::vector<SubBinding> temporaryTargets, persistentTargets;
    std::vector<SubBinding> blobInitTargets, persistentInitTargets;

    std::string nodeLabel(size_t i) const { return "graph node " + std::to_string(i) + " (" + plan.nodes[i].label + ")"; }

    uint64_t addToBlob(ValueId v) {
        auto it = blobOffset.find(v);
        if (it != blobOffset.end()) return it->second;
        const GraphValue& c = plan.values[v];
        uint64_t offset = blob.size();
        blob.resize(alignUp(offset + c.constantData.size() * sizeof(float), kGraphAlignment));
        std::memcpy(blob.data() + offset, c.constantData.data(), c.constantData.size() * sizeof(float));
        blobOffset[v] = offset;
        return offset;
    }

    TensorDesc blobDesc(ValueId v) const {
        TensorDesc d = plan.values[v].desc;
        d.dataType = DataType::Float32;
        d.hasStrides = false;
        d.flags = TensorFlagNone;
        return d;
    }

    Result<VkPipeline> pipeline(const Plan& p, uint32_t index) {
        if (!cache) return VkPipeline(VK_NULL_HANDLE);
        return cache->get(p.pipelines[index]);
    }

    Status appendLaunches(const Plan& p, const std::vector<Launch>& launches, uint32_t set, bool barrierFirst,
                          std::vector<RecordedLaunch>& out) {
        for (size_t i = 0; i < launches.size(); ++i) {
            const Launch& l = launches[i];
            auto pl = pipeline(p, l.pipeline);
            if (!pl) return pl.error();
            out.push_back({*pl, set, i == 0 ? barrierFirst : l.barrierBefore, l.groups, l.pushWords, l.push});
        }
        return {};
    }

    // Plans node i with owned weights and packed constants; places its persistent/temporary.
    // A fused element-wise chain: its tensors as its steps see them (constants packed).
    Result<Plan> planChain(const PlannedNode& pn) {
        ElementWiseChain chain{pn.label, pn.chain, {}, pn.chain.back().output};
        std::vector<TensorDesc> descs(kMaxChainSteps + 1);
        for (size_t k = 0; k < descs.size(); ++k) {
            ValueId v = k < pn.node.inputs.size() ? pn.node.inputs[k] : kNoValue;
            if (v == kNoValue) { chain.inputs.push_back(nullptr); continue; }
            const ElementWiseDesc& step = pn.chain[k == 0 ? 0 : k - 1];
            descs[k] = k == 0 ? step.a : *step.b;
            if (plan.values[v].kind == GraphValue::Kind::Constant) descs[k].hasStrides = false;
            chain.inputs.push_back(&descs[k]);
        }
        return planElementWiseChain(pc, chain);
    }

    // A fused convolution chain: its layers with owned weights (re-laid out from the blob).
    Result<Plan> planConvChainNode(const PlannedNode& pn) {
        ConvChain chain{pn.label, pn.convChain, std::nullopt};
        if (const auto* d2s = std::get_if<DepthToSpaceDesc>(&pn.node.op)) chain.depthToSpace = *d2s;
        for (size_t l = 0; l < chain.layers.size(); ++l) {
            ConvolutionDesc& d = chain.layers[l];
            d.filter = blobDesc(pn.node.inputs[1 + 2 * l]);
            d.filter.flags = TensorFlagOwnedByPlugin;
            ValueId b = pn.node.inputs[2 + 2 * l];
            if (b != kNoValue) {
                d.bias = blobDesc(b);
                d.bias->flags = TensorFlagOwnedByPlugin;
            }
        }
        return planConvChain(pc, chain);
    }

    // The node's fusion as its plan sees it: the PReLU slopes owned (packed from the blob).
    ConvolutionFusion fusionFor(const PlannedNode& pn) const {
        ConvolutionFusion f = pn.fusion;
        if (f.preluSlope) {
            f.preluSlope = blobDesc(pn.node.inputs[3]);
            f.preluSlope->flags = TensorFlagOwnedByPlugin;
        }
        if (f.projection) {  // its filter and bias: inputs 6 and 7
            f.projection->filter = blobDesc(pn.node.inputs[6]);
            f.projection->filter.flags = TensorFlagOwnedByPlugin;
            f.projection->bias.reset();
            if (ValueId b = pn.node.inputs[7]; b != kNoValue) {
                f.projection->bias = blobDesc(b);
                f.projection->bias->flags = TensorFlagOwnedByPlugin;
            }
        }
        return f;
    }

    Status planNode(size_t i) {
        PlannedNode& pn = plan.nodes[i];
        if (!pn.convChain.empty()) {
            Result<Plan> p = planConvChainNode(pn);
            if (!p) return Error{p.error().code, nodeLabel(i) + ": " + p.error().message};
            return addNodeBuild(i, std::move(*p));
        }
        if (!pn.chain.empty()) {
            Result<Plan> p = planChain(pn);
            if (!p) return Error{p.error().code, nodeLabel(i) + ": " + p.error().message};
            return addNodeBuild(i, std::move(*p));
        }
        OperatorDesc desc = pn.node.op;
        std::vector<const TensorDesc*> ins = operatorInputs(desc);
        std::vector<TensorDesc> patched;
        patched.reserve(ins.size());
        for (size_t k = 0; k < ins.size(); ++k) {
            patched.push_back(ins[k] ? *ins[k] : TensorDesc{});
            ValueId v = k < pn.node.inputs.size() ? pn.node.inputs[k] : kNoValue;
            if (v == kNoValue || plan.values[v].kind != GraphValue::Kind::Constant) continue;
            patched.back().hasStrides = false;  // constants are stored packed
            if (ownsConstantInput(desc, k)) {
                patched.back() = blobDesc(v);
                patched.back().flags = TensorFlagOwnedByPlugin;
            }
        }
        std::vector<const TensorDesc*> ptrs;
        for (auto& t : patched) ptrs.push_back(t.rank ? &t : nullptr);
        setOperatorInputs(desc, ptrs);
        size_t slots = ins.size() + operatorOutputs(desc).size();
        if (slots > kMaxTensorSlots) return invalidArgument(nodeLabel(i) + ": too many tensors for one descriptor set");

        Result<Plan> p = pn.fusion.any() ? planConvolution(pc, std::get<ConvolutionDesc>(desc), fusionFor(pn))
                                         : planOperator(pc, desc);
        if (!p) return Error{p.error().code, nodeLabel(i) + ": " + p.error().message};
        if (const auto* conv = std::get_if<ConvolutionDesc>(&desc)) {
            ConvolutionTuning t = convolutionTuning(pc, *conv, fusionFor(pn));
            if (t.candidates.size() > 1) plan.report.tuning.push_back({pn.label, t.key, t.candidates, t.chosen});
        }
        pn.node.op = desc;
        return addNodeBuild(i, std::move(*p));
    }

    // Places node i's own persistent and temporary needs and gives it its descriptor sets.
    Status addNodeBuild(size_t i, Plan p) {
        NodeBuild nb;
        nb.plan = std::move(p);
        nb.set = uint32_t(i);
        nb.persistentOffset = persistentBytes;
        persistentBytes = alignUp(persistentBytes + nb.plan.persistentBytes, kGraphAlignment);
        nb.temporaryOffset = temporaryBytes;
        temporaryBytes = alignUp(temporaryBytes + nb.plan.temporaryBytes, kGraphAlignment);
        if (!nb.plan.initialize.empty()) nb.initSet = initSets++;
        nodes.push_back(std::move(nb));
        return {};
    }

    // Where node i's slot k points at execution (and at initialization for owned inputs).
    void targetValue(size_t i, uint32_t slot, ValueId v, bool owned) {
        const NodeBuild& nb = nodes[i];
        const ValuePlacement& p = plan.placement[v];
        switch (p.where) {
        case ValuePlacement::Where::GraphInput: inputTargets[p.index].push_back({nb.set, slot, 0, 0}); break;
        case ValuePlacement::Where::GraphOutput: outputTargets[p.index].push_back({nb.set, slot, p.offset, p.bytes}); break;
        case ValuePlacement::Where::Temporary: temporaryTargets.push_back({nb.set, slot, p.offset, p.bytes}); break;
        case ValuePlacement::Where::Constant: {
            uint64_t bytes = alignUp(blobDesc(v).requiredBytes(), 4);
            if (owned) {
                blobInitTargets.push_back({nb.initSet, slot, addToBlob(v), bytes});
            } else {
                addToBlob(v);
                if (!persistentCopy.count(v)) {
                    persistentCopy[v] = persistentBytes;
                    persistentBytes = alignUp(persistentBytes + plan.values[v].desc.requiredBytes(), kGraphAlignment);
                }
                persistentTargets.push_back({nb.set, slot, persistentCopy[v], alignUp(plan.values[v].desc.requiredBytes(), 4)});
            }
            break;
        }
        case ValuePlacement::Where::Unused: break;
        }
    }

    // Identity launches that copy (and convert) a constant from the blob into the persistent resource.
    Status planConstantCopy(ValueId v, uint64_t persistentOffset) {
        ElementWiseDesc copy{.name = "constant '" + plan.values[v].name + "'", .op = ElementWiseOp::Identity};
        copy.a = blobDesc(v);
        copy.output = plan.values[v].desc;
        copy.output.hasStrides = false;
        copy.output.flags = TensorFlagNone;
        Result<Plan> p = planOperator(pc, copy);
        if (!p) return p.error();
        uint32_t set = initSets++;
        blobInitTargets.push_back({set, 0, blobOffset[v], alignUp(copy.a.requiredBytes(), 4)});
        uint32_t outputSlot = uint32_t(operatorInputs(copy).size());  // absent optional inputs keep their slots
        persistentInitTargets.push_back({set, outputSlot, persistentOffset, alignUp(copy.output.requiredBytes(), 4)});
        return appendLaunches(*p, p->execute, set, false, initLaunches);
    }

    Status build() {
        for (size_t i = 0; i < plan.nodes.size(); ++i) MLP_TRY(planNode(i));
        uint64_t intermediates = plan.report.temporaryBytes;
        for (auto& nb : nodes) nb.temporaryOffset += intermediates;
        temporaryBytes += intermediates;

        inputTargets.resize(plan.inputs.size());
        outputTargets.resize(plan.outputs.size());
        for (size_t i = 0; i < plan.nodes.size(); ++i) {
            const PlannedNode& pn = plan.nodes[i];
            NodeBuild& nb = nodes[i];
            // Element-wise chains: inputs in slots 0..3, output in kChainOutputSlot, nothing owned.
            // Convolution chains: input 0, owned weights 1.., output kConvChainOutputSlot.
            bool fused = !pn.chain.empty() || !pn.convChain.empty();
            std::vector<const TensorDesc*> ins = fused ? std::vector<const TensorDesc*>{} : operatorInputs(pn.node.op);
            uint32_t firstOutputSlot = !pn.chain.empty() ? kChainOutputSlot : !pn.convChain.empty() ? kConvChainOutputSlot : uint32_t(ins.size());
            for (size_t k = 0; k < pn.node.inputs.size(); ++k) {
                bool owned = (k < ins.size() && ins[k] && ins[k]->ownedByPlugin()) || (!pn.convChain.empty() && k > 0);
                // Fused convolution tensors (slopes, residual, concat part, projection filter and
                // bias) sit after the output slot; the slopes and the projection's are owned.
                bool fusedTensor = pn.fusion.any() && k >= 3;
                owned = owned || (fusedTensor && (k == 3 || k == 6 || k == 7));
                uint32_t slot = uint32_t(fusedTensor ? k + 1 : k);
                if (pn.node.inputs[k] != kNoValue) targetValue(i, slot, pn.node.inputs[k], owned);
            }
            for (size_t k = 0; k < pn.node.outputs.size(); ++k) targetValue(i, firstOutputSlot + uint32_t(k), pn.node.outputs[k], false);
            if (nb.plan.temporaryBytes) temporaryTargets.push_back({nb.set, kTemporarySlot, nb.temporaryOffset, nb.plan.temporaryBytes});
            if (nb.plan.persistentBytes) {
                persistentTargets.push_back({nb.set, kPersistentSlot, nb.persistentOffset, nb.plan.persistentBytes});
                if (nb.initSet != kNoSet)
                    persistentInitTargets.push_back({nb.initSet, kPersistentSlot, nb.persistentOffset, nb.plan.persistentBytes});
            }
            MLP_TRY(appendLaunches(nb.plan, nb.plan.execute, nb.set, pn.barrierBefore && i > 0, op->launches));
            if (nb.initSet != kNoSet) MLP_TRY(appendLaunches(nb.plan, nb.plan.initialize, nb.initSet, false, initLaunches));
        }
        for (auto [v, offset] : persistentCopy) MLP_TRY(planConstantCopy(v, offset));
        return {};
    }
};

SlotRule graphRule(std::string name, const TensorDesc& desc, std::vector<SubBinding> targets) {
    SlotRule r{std::move(name), kNoSet, 0, SlotUse::Required, desc.requiredBytes()};
    r.tensor = desc.toString();
    r.alsoWrites = std::move(targets);
    return r;
}

// Channels-last intermediates where the tensor-core convolution takes them (graph_plan.cpp).
std::function<bool(const ConvolutionDesc&)> channelsLastRule(const PlanContext& pc, uint32_t flags) {
    if (!pc.cooperativeMatrix || (flags & GraphCompileFlagDisableChannelsLast)) return {};
    return [pc](const ConvolutionDesc& d) { return convolutionUsesTensorCores(pc, d); };
}
// Intermediates padded to whole 16-channel fragments where the tensor-core convolution reads and
// writes them (graph_pad.cpp); on any device when a test forces it.
std::function<bool(const ConvolutionDesc&)> paddingRule(const PlanContext& pc, uint32_t flags) {
    if (flags & GraphCompileFlagForceChannelPadding) return [](const ConvolutionDesc&) { return true; };
    if (!pc.cooperativeMatrix || (flags & GraphCompileFlagDisableChannelPadding)) return {};
    return [pc](const ConvolutionDesc& d) { return d.output.dataType == DataType::Float16 && convolutionUsesTensorCores(pc, d); };
}
// Epilogue and input fusions where the convolution's kernel takes them (graph_fusion.cpp).
std::function<bool(const ConvolutionDesc&, const ConvolutionFusion&)> fusionRule(const PlanContext& pc) {
    if (!pc.cooperativeMatrix) return {};
    return [pc](const ConvolutionDesc& d, const ConvolutionFusion& f) { return convolutionTakesFusion(pc, d, f); };
}

// compileGraph for a device with `caps`; `cache` and `dev` are null for compileGraphOnCpu.
Result<CompiledGraph> buildGraph(const Capabilities& caps, PipelineCache* cache, const DeviceImpl* dev, const GraphDesc& desc, uint32_t flags) {
    // The device's tuning table where there is a device (compileGraphOnCpu plans untuned).
    const PlanContext pc = planContextFor(caps, flags & 0xFFFFu, dev ? dev->tuningTable() : nullptr);
    auto planned = planGraph(desc, {.fuse = !(flags & GraphCompileFlagDisableFusion),
                                    .alias = !(flags & GraphCompileFlagDisableAliasing),
                                    .convChains = !(flags & GraphCompileFlagDisableConvChains),
                                    .forceConvChains = (flags & GraphCompileFlagForceConvChains) != 0,
                                    .sharedMemoryBytes = caps.maxComputeSharedMemoryBytes,
                                    .channelsLastConv = channelsLastRule(pc, flags),
                                    .convFusion = fusionRule(pc),
                                    .padChannels = paddingRule(pc, flags)});
    if (!planned) return planned.error();
    GraphPlan& plan = *planned;

    auto op = std::make_unique<CompiledOperatorImpl>();
    op->device = dev;
    op->label = "graph (" + std::to_string(plan.nodes.size()) + " dispatches)";
    GraphBuilder b{pc, cache, plan};
    b.op = op.get();
    MLP_TRY(b.build());

    for (size_t i = 0; i < plan.inputs.size(); ++i) {
        const GraphValue& v = plan.values[plan.inputs[i]];
        std::string name = "input " + std::to_string(i) + " '" + v.name + "'";
        op->inputs.push_back(graphRule(name, v.desc, b.inputTargets[i]));
        op->inputDescs.push_back(v.desc);
        op->inputOwned.push_back(false);
        op->inputNames.push_back(name);
        op->initializeInputTargets.push_back({});
    }
    // The constants blob: owned, bound to the initializer only.
    TensorDesc blobDesc = TensorDesc::make(DataType::Float32, {uint32_t(std::max<size_t>(b.blob.size() / 4, 1))}, TensorFlagOwnedByPlugin);
    std::string blobName = "input " + std::to_string(plan.inputs.size()) + " 'constants'";
    SlotRule blobRule{blobName, kNoSet, 0, SlotUse::Forbidden, blobDesc.requiredBytes()};
    blobRule.whyForbidden = "it is owned by the plugin: bind CompiledGraph::constantData to the OperatorInitializer, not at execution";
    op->inputs.push_back(blobRule);
    op->inputDescs.push_back(b.blob.empty() ? TensorDesc{} : blobDesc);
    op->inputOwned.push_back(!b.blob.empty());
    op->inputNames.push_back(blobName);
    op->initializeInputTargets.push_back(b.blobInitTargets);

    for (size_t i = 0; i < plan.outputs.size(); ++i) {
        const GraphValue& v = plan.values[plan.outputs[i]];
        op->outputs.push_back(graphRule("output " + std::to_string(i) + " '" + v.name + "'", v.desc, b.outputTargets[i]));
    }
    auto resource = [](const char* name, uint64_t bytes, uint64_t alignment, std::vector<SubBinding> targets) {
        SlotRule r{name, kNoSet, 0, bytes ? SlotUse::Required : SlotUse::Forbidden, bytes, alignment};
        if (!bytes) r.whyForbidden = std::string("the graph needs no ") + name + " (BindingProperties says 0 bytes)";
        r.alsoWrites = std::move(targets);
        return r;
    };
    op->temporaryBytes = b.temporaryBytes;
    op->persistentBytes = b.persistentBytes;
    op->temporary = resource("temporary resource", b.temporaryBytes, kTemporaryAlignment, b.temporaryTargets);
    op->persistent = resource("persistent resource", b.persistentBytes, kPersistentAlignment, b.persistentTargets);
    op->setCount = uint32_t(plan.nodes.size());
    op->initializeLaunches = std::move(b.initLaunches);
    op->initializeSetCount = b.initSets;
    op->initializePersistentTargets = std::move(b.persistentInitTargets);

    auto info = std::make_shared<GraphReshapeInfo>();
    info->identity = identityOf(desc, flags);
    info->persistent = {op->persistentBytes, b.blob.size(), fnv1a64(b.blob), op->initializeSetCount, op->initializeLaunches,
                        op->initializeInputTargets, op->initializePersistentTargets};
    op->reshapeInfo = std::move(info);

    plan.report.temporaryBytesNaive += b.temporaryBytes - plan.report.temporaryBytes;  // operators' own scratch
    plan.report.temporaryBytes = b.temporaryBytes;
    plan.report.persistentBytes = b.persistentBytes;
    CompiledGraph out;
    out.op = std::move(op);
    out.constantData = std::move(b.blob);
    out.report = std::move(plan.report);
    return out;
}

}  // namespace

Result<CompiledGraph> compileGraphOnCpu(const Capabilities& caps, const GraphDesc& desc, uint32_t flags) {
    return buildGraph(caps, nullptr, nullptr, desc, flags);
}

}  // namespace detail

Result<CompiledGraph> compileGraph(Device& device, const GraphDesc& desc, uint32_t flags) {
    auto* dev = dynamic_cast<detail::DeviceImpl*>(&device);
    if (!dev) return invalidArgument("compileGraph: the device was not created by createDevice");
    return detail::buildGraph(dev->capabilities(), &dev->pipelines(), dev, desc, flags);
}

}  // namespace mlplugin
