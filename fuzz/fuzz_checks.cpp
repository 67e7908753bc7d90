#include "fuzz_checks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace vkml_fuzz {

using namespace mlplugin;
using namespace mlplugin::detail;

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& label) {
    std::fprintf(stderr, "fuzz check failed for %s: %s\n", label.c_str(), what.c_str());
    std::abort();
}

void checkLaunches(const std::vector<RecordedLaunch>& launches, uint32_t sets, const std::string& label, const char* which) {
    for (size_t i = 0; i < launches.size(); ++i) {
        const RecordedLaunch& l = launches[i];
        std::string where = std::string(which) + " launch " + std::to_string(i);
        for (uint32_t g : l.groups)
            if (g == 0 || g > 65535) fail(where + " has a workgroup count of " + std::to_string(g), label);
        if (l.pushWords > kMaxPushWords) fail(where + " pushes " + std::to_string(l.pushWords) + " words", label);
        if (l.set >= sets) fail(where + " uses set " + std::to_string(l.set) + " of " + std::to_string(sets), label);
    }
}

// A descriptor written from a binding of at least `minBytes` (what checkBinding proves).
void checkTarget(const SubBinding& t, uint64_t minBytes, uint32_t sets, uint64_t alignment, const std::string& label, const std::string& rule) {
    std::string where = rule + " -> set " + std::to_string(t.set) + " slot " + std::to_string(t.slot);
    if (t.set >= sets) fail(where + ": set out of range (" + std::to_string(sets) + ")", label);
    if (t.slot >= kDescriptorsPerSet) fail(where + ": slot out of range", label);
    if (t.size ? t.offset + t.size > minBytes : t.offset >= std::max<uint64_t>(minBytes, 1))
        fail(where + ": range " + std::to_string(t.offset) + "+" + std::to_string(t.size) + " outside the binding's " +
                 std::to_string(minBytes) + " bytes",
             label);
    if (t.offset % alignment) fail(where + ": offset " + std::to_string(t.offset) + " not aligned to " + std::to_string(alignment), label);
}

void checkRule(const SlotRule& r, uint32_t sets, uint64_t alignment, const std::string& label) {
    if (r.set != kNoSet && r.set >= sets) fail(r.name + " uses set " + std::to_string(r.set) + " of " + std::to_string(sets), label);
    if (r.set != kNoSet && r.slot >= kDescriptorsPerSet) fail(r.name + " uses slot " + std::to_string(r.slot), label);
    for (const SubBinding& t : r.alsoWrites) checkTarget(t, r.minBytes, sets, alignment, label, r.name);
}

}  // namespace

const std::vector<Capabilities>& capabilitySets() {
    static const std::vector<Capabilities> sets = [] {
        Capabilities lavapipe;
        lavapipe.deviceName = "lavapipe-like";
        lavapipe.fp16Storage = lavapipe.fp16Arithmetic = true;
        lavapipe.subgroupSize = 8;
        lavapipe.maxComputeSharedMemoryBytes = 32768;
        lavapipe.maxStorageBufferRange = 134217728;
        lavapipe.minStorageBufferOffsetAlignment = 16;
        Capabilities nvidia;
        nvidia.deviceName = "nvidia-like";
        nvidia.fp16Storage = nvidia.fp16Arithmetic = true;
        nvidia.cooperativeMatrixNV = true;
        nvidia.cooperativeMatrixShapes = {{16, 16, 16, DataType::Float16, DataType::Float32},
                                          {16, 16, 16, DataType::Float16, DataType::Float16},
                                          {16, 8, 16, DataType::Float16, DataType::Float32}};
        nvidia.subgroupSize = 32;
        nvidia.maxComputeSharedMemoryBytes = 49152;
        nvidia.maxStorageBufferRange = 0xFFFFFFFFu;
        nvidia.minStorageBufferOffsetAlignment = 16;
        return std::vector<Capabilities>{lavapipe, nvidia};
    }();
    return sets;
}

void checkCompiled(const CompiledOperatorImpl& op, const Capabilities& caps) {
    const std::string& label = op.label;
    uint64_t alignment = std::max<uint64_t>(caps.minStorageBufferOffsetAlignment, 1);
    if (op.launches.empty()) fail("no launches", label);
    checkLaunches(op.launches, op.setCount, label, "execute");
    checkLaunches(op.initializeLaunches, op.initializeSetCount, label, "initialize");
    if (op.inputs.size() != op.inputDescs.size() || op.inputs.size() != op.inputOwned.size() || op.inputs.size() != op.inputNames.size() ||
        op.inputs.size() != op.initializeInputTargets.size())
        fail("input bookkeeping of different lengths", label);
    for (const SlotRule& r : op.inputs) checkRule(r, op.setCount, alignment, label);
    for (const SlotRule& r : op.outputs) checkRule(r, op.setCount, alignment, label);
    checkRule(op.temporary, op.setCount, alignment, label);
    checkRule(op.persistent, op.setCount, alignment, label);
    if (op.temporary.minBytes != op.temporaryBytes || op.persistent.minBytes != op.persistentBytes)
        fail("resource rules disagree with the binding properties", label);
    // Initialization: owned inputs and the persistent resource fan out into initializer sets.
    for (size_t i = 0; i < op.initializeInputTargets.size(); ++i)
        for (const SubBinding& t : op.initializeInputTargets[i])
            checkTarget(t, op.inputs[i].minBytes, op.initializeSetCount, alignment, label, "initializer " + op.inputNames[i]);
    for (const SubBinding& t : op.initializePersistentTargets)
        checkTarget(t, op.persistentBytes, op.initializeSetCount, alignment, label, "initializer persistent resource");
}

void checkCompiled(const CompiledGraph& graph, const Capabilities& caps) {
    const auto* op = dynamic_cast<const CompiledOperatorImpl*>(graph.op.get());
    if (!op) fail("a compiled graph that is not a CompiledOperatorImpl", "graph");
    checkCompiled(*op, caps);
    if (graph.constantData.size() % 4) fail("constant data is not whole floats", op->label);
    // The constants blob input is owned: its initializer targets must lie inside the blob.
    const SlotRule& blob = op->inputs.back();
    if (!graph.constantData.empty() && blob.minBytes < graph.constantData.size())
        fail("the constants binding is smaller than the constants", op->label);
}

void checkError(const Error& e, std::initializer_list<ErrorCode> allowed) {
    if (e.message.empty()) fail("an error without a message", toString(e.code));
    if (std::find(allowed.begin(), allowed.end(), e.code) == allowed.end())
        fail("unexpected error code " + std::string(toString(e.code)) + ": " + e.message, "error");
}

}  // namespace vkml_fuzz
