// reshapeGraph: the same network at other graph-input extents. The new desc is checked against
// the compiled graph's structure, compiled (shapes, kernel choices, temporary resource and
// descriptor sets follow the new extents), and its persistent resource compared with the one
// the application already initialized: when they are the same bytes the new dispatchable uses
// that one as it is.
#include "graph/graph_reshape.h"

#include "compiled_operator.h"
#include "device_impl.h"

#include <algorithm>

namespace mlplugin {
namespace detail {
namespace {

std::string n(uint64_t v) { return std::to_string(v); }

std::string dimList(uint32_t mask, uint32_t rank) {
    std::string s;
    for (uint32_t d = 0; d < rank; ++d)
        if (mask & (1u << d)) s += (s.empty() ? "" : ", ") + n(d);
    return s.empty() ? "none" : "{" + s + "}";
}

bool sameLaunch(const RecordedLaunch& a, const RecordedLaunch& b) {
    return a.pipeline == b.pipeline && a.set == b.set && a.barrierBefore == b.barrierBefore && a.groups == b.groups && a.pushWords == b.pushWords &&
           std::equal(a.push.begin(), a.push.begin() + a.pushWords, b.push.begin());
}

bool sameTargets(const std::vector<SubBinding>& a, const std::vector<SubBinding>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const SubBinding& x, const SubBinding& y) {
        return x.set == y.set && x.slot == y.slot && x.offset == y.offset && x.size == y.size;
    });
}

Status checkInput(const GraphIdentity::Value& was, const GraphValue& now, uint32_t index, const Capabilities& caps) {
    const std::string what = "reshapeGraph: input " + n(index) + " '" + was.name + "'";
    if (now.name != was.name) return invalidArgument(what + " is named '" + now.name + "' in the new graph");
    if (now.desc.rank != was.rank) return invalidArgument(what + " has rank " + n(now.desc.rank) + ", the compiled graph's has rank " + n(was.rank));
    if (now.desc.dataType != was.dataType)
        return invalidArgument(what + " is " + toString(now.desc.dataType) + ", the compiled graph's is " + toString(was.dataType));
    for (uint32_t d = 0; d < was.rank && d < kMaxTensorRank; ++d) {
        const uint32_t size = now.desc.sizes[d];
        if (size == 0) return invalidArgument(what + " dim " + n(d) + " is 0 (" + now.desc.toString() + ")");
        if (size != was.sizes[d] && !(was.freeDimMask & (1u << d)))
            return invalidArgument(what + " dim " + n(d) + " changed from " + n(was.sizes[d]) + " to " + n(size) + ", but it is not a free dim (free: " +
                                   dimList(was.freeDimMask, was.rank) + ", GraphValue::freeDimMask)");
    }
    if (caps.maxStorageBufferRange && now.desc.requiredBytes() > caps.maxStorageBufferRange)
        return invalidArgument(what + " " + now.desc.toString() + " needs " + n(now.desc.requiredBytes()) + " bytes, more than the device's maxStorageBufferRange " +
                               n(caps.maxStorageBufferRange));
    return {};
}

}  // namespace

GraphIdentity identityOf(const GraphDesc& desc, uint32_t flags) {
    GraphIdentity id;
    id.flags = flags;
    for (const GraphValue& v : desc.values) {
        GraphIdentity::Value iv{v.kind, v.name, v.desc.dataType, v.desc.rank, {}, v.freeDimMask};
        if (v.kind != GraphValue::Kind::Intermediate) iv.sizes = v.desc.sizes;
        id.values.push_back(std::move(iv));
    }
    for (const GraphNode& node : desc.nodes) id.nodes.push_back({node.op.index(), operatorLabel(node.op), node.inputs, node.outputs});
    id.inputs = desc.inputs;
    id.outputs = desc.outputs;
    return id;
}

Status checkReshape(const GraphIdentity& was, const GraphDesc& desc, const Capabilities& caps) {
    auto count = [](const char* what, size_t now, size_t then) {
        return invalidArgument(std::string("reshapeGraph: the graph has ") + n(now) + " " + what + ", the compiled one " + n(then) +
                               " (not the same network)");
    };
    if (desc.values.size() != was.values.size()) return count("values", desc.values.size(), was.values.size());
    if (desc.nodes.size() != was.nodes.size()) return count("nodes", desc.nodes.size(), was.nodes.size());
    if (desc.inputs != was.inputs) return count("inputs (or other input values)", desc.inputs.size(), was.inputs.size());
    if (desc.outputs != was.outputs) return count("outputs (or other output values)", desc.outputs.size(), was.outputs.size());
    for (size_t i = 0; i < was.inputs.size(); ++i) MLP_TRY(checkInput(was.values[was.inputs[i]], desc.values[desc.inputs[i]], uint32_t(i), caps));
    for (size_t v = 0; v < was.values.size(); ++v) {
        const GraphIdentity::Value& w = was.values[v];
        const GraphValue& now = desc.values[v];
        // Constants may follow the extents (ONNX folds shape arithmetic into them): that is a
        // change of the persistent resource, reported by persistentDifference, not an error.
        if (now.kind != w.kind) return invalidArgument("reshapeGraph: value " + n(v) + " '" + now.name + "' is of another kind than in the compiled graph");
    }
    for (size_t i = 0; i < was.nodes.size(); ++i) {
        const GraphNode& node = desc.nodes[i];
        const GraphIdentity::Node& w = was.nodes[i];
        if (node.op.index() != w.kind || node.inputs != w.inputs || node.outputs != w.outputs)
            return invalidArgument("reshapeGraph: node " + n(i) + " is " + operatorLabel(node.op) + " where the compiled graph has " + w.label +
                                   " (or it reads or writes other values)");
    }
    return {};
}

std::string persistentDifference(const PersistentLayout& a, const PersistentLayout& b) {
    if (a.bytes != b.bytes) return "the persistent resource is " + n(b.bytes) + " bytes at these extents, " + n(a.bytes) + " before";
    if (a.blobBytes != b.blobBytes || a.blobHash != b.blobHash) return "constants differ at these extents";
    bool sameLaunches = a.setCount == b.setCount &&
                        std::equal(a.launches.begin(), a.launches.end(), b.launches.begin(), b.launches.end(), sameLaunch) &&
                        std::equal(a.inputTargets.begin(), a.inputTargets.end(), b.inputTargets.begin(), b.inputTargets.end(), sameTargets) &&
                        sameTargets(a.persistentTargets, b.persistentTargets);
    if (!sameLaunches) return "a kernel chosen at these extents lays out its weights differently";
    return {};
}

}  // namespace detail

Result<CompiledGraph> reshapeGraph(Device& device, const CompiledGraph& compiled, const GraphDesc& desc) {
    using namespace detail;
    auto* previous = dynamic_cast<const CompiledOperatorImpl*>(compiled.op.get());
    if (!previous || !previous->reshapeInfo) return invalidArgument("reshapeGraph: `compiled` was not made by compileGraph or reshapeGraph");
    if (previous->device != dynamic_cast<DeviceImpl*>(&device)) return invalidArgument("reshapeGraph: `compiled` belongs to another device");
    MLP_TRY(checkReshape(previous->reshapeInfo->identity, desc, device.capabilities()));
    Result<CompiledGraph> next = compileGraph(device, desc, previous->reshapeInfo->identity.flags);
    if (!next) return next.error();
    auto& op = static_cast<CompiledOperatorImpl&>(*next->op);
    GraphCompileReport& report = next->report;
    report.persistentChange = persistentDifference(previous->reshapeInfo->persistent, op.reshapeInfo->persistent);
    report.persistentReused = report.persistentChange.empty();
    // The persistent resource the application bound is already initialized (Debug layer).
    if (report.persistentReused) op.initialized.store(previous->initialized.load());
    return next;
}

}  // namespace mlplugin
