#pragma once
// Internal: what binding tables and the recorder know about any dispatchable (compiled operator
// or initializer): which buffer goes to which descriptor, the rules each binding must satisfy,
// and the launches to record. Built once (compile / initializer reset); read every frame.
#include "kernel.h"
#include "mlplugin/dispatchable.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mlplugin::detail {

class DeviceImpl;

inline constexpr uint32_t kNoSet = UINT32_MAX;

// How a binding slot is used.
enum class SlotUse {
    Required,   // must be bound before recording
    Optional,   // may be bound or left empty
    Forbidden,  // must stay empty (owned tensor at execution, unused initializer slot, ...)
};

// A descriptor that a binding is written to: (set, slot), covering a sub-range of the bound
// range (offset from its start; size 0 = the rest of it). Compiled graphs fan one binding out to
// many node sets this way (an intermediate inside the temporary resource, a graph input read by
// three nodes).
struct SubBinding {
    uint32_t set = kNoSet;
    uint32_t slot = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
};

struct SlotRule {
    std::string name;                  // "input 1 'filter'" (for messages)
    uint32_t set = kNoSet;             // index into the binding table's range; kNoSet: never written
    uint32_t slot = 0;                 // descriptor array element
    SlotUse use = SlotUse::Optional;
    uint64_t minBytes = 0;             // the tensor's requiredBytes() or the resource size
    uint64_t alignment = kTensorAlignment;
    std::string tensor;                // "fp32[4,5]" or "" (for messages)
    std::string whyForbidden;          // completes "... must not be bound: <why>"
    std::vector<SubBinding> alsoWrites;  // further descriptors fed from this binding
};

// A launch with its pipeline and descriptor set resolved.
struct RecordedLaunch {
    VkPipeline pipeline = VK_NULL_HANDLE;
    uint32_t set = 0;  // index into the binding table's range
    bool barrierBefore = false;
    std::array<uint32_t, 3> groups{1, 1, 1};
    uint32_t pushWords = 0;
    std::array<uint32_t, kMaxPushWords> push{};
};

class DispatchableImpl {
public:
    virtual ~DispatchableImpl() = default;

    const DeviceImpl* device = nullptr;
    std::string label;  // "element_wise 'add1'" (kind and name) for messages
    uint32_t setCount = 0;
    std::vector<SlotRule> inputs;
    std::vector<SlotRule> outputs;
    SlotRule temporary;
    SlotRule persistent;
    std::vector<RecordedLaunch> launches;
    // Bumped whenever the rules above change (OperatorInitializer::reset): tables created
    // before must be reset, their bookkeeping no longer matches.
    uint32_t generation = 0;

    // Debug layer: an error when the dispatchable cannot run yet (persistent resource never
    // initialized). Called at record time.
    virtual Status readyToRecord() const { return {}; }
    // Called after a successful record (the initializer marks its operators initialized).
    virtual void recorded() const {}
};

// The DispatchableImpl behind a public Dispatchable (null when it is not one of ours).
const DispatchableImpl* implOf(const Dispatchable& d);

}  // namespace mlplugin::detail
