#pragma once
// Internal: what a compiled graph keeps for reshapeGraph. The structure of the GraphDesc it was
// compiled from (so a new desc can be checked to be the same network at other extents, with
// errors naming the input, dim or node), and a description of its persistent resource complete
// enough to decide that another compilation's persistent resource would hold exactly the same
// bytes: size, the constants blob (length and 64-bit hash), and every initialization launch with
// its pipeline and the sub-ranges it reads and writes. Equal descriptions mean equal contents,
// whatever kernels the execution launches chose.
#include "dispatchable_impl.h"
#include "mlplugin/graph.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mlplugin::detail {

struct GraphIdentity {
    struct Value {
        GraphValue::Kind kind = GraphValue::Kind::Intermediate;
        std::string name;
        DataType dataType = DataType::Float32;
        uint32_t rank = 0;
        std::array<uint32_t, kMaxTensorRank> sizes{};  // inputs and constants
        uint32_t freeDimMask = 0;
    };
    struct Node {
        size_t kind = 0;  // OperatorDesc variant index
        std::string label;
        std::vector<ValueId> inputs, outputs;
    };
    uint32_t flags = 0;  // compileGraph's
    std::vector<Value> values;
    std::vector<Node> nodes;
    std::vector<ValueId> inputs, outputs;
};

struct PersistentLayout {
    uint64_t bytes = 0;
    uint64_t blobBytes = 0;
    uint64_t blobHash = 0;
    uint32_t setCount = 0;
    std::vector<RecordedLaunch> launches;
    std::vector<std::vector<SubBinding>> inputTargets;
    std::vector<SubBinding> persistentTargets;
};

struct GraphReshapeInfo {
    GraphIdentity identity;
    PersistentLayout persistent;
};

GraphIdentity identityOf(const GraphDesc& desc, uint32_t flags);

// Checks that `desc` is the network `compiled` describes with only free input dims changed, and
// that every input fits the device (no zero dim, at most maxStorageBufferRange bytes).
Status checkReshape(const GraphIdentity& compiled, const GraphDesc& desc, const Capabilities& caps);

// Empty when `a` and `b` hold the same bytes, else what differs (for persistentChange).
std::string persistentDifference(const PersistentLayout& a, const PersistentLayout& b);

}  // namespace mlplugin::detail
