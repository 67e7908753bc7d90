// bake(): the phases that turn declared passes into an executable frame.
//   1. flatten hooks    hooked passes take the place of their hook in the declaration sequence
//   2. validate uses    handles, access kinds, pass types, one access per resource per pass
//   3. order            dependencies from reads/writes; stable topological sort; cycles reported
//   4. lifetimes        first/last baked pass per resource; usage flags from the accesses
//   5. transients       VkImage/VkBuffer per transient, placed in shared memory (aliasing)
//   6. barriers         per-pass barrier batches and layout transitions (frame_graph_barriers.cpp)
//   7. rendering        dynamic-rendering attachment infos for graphics passes
#include "frame_graph_internal.h"

#include "engine/error.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace engine {

namespace {
std::string quoted(const std::string& s) { return "'" + s + "'"; }
}  // namespace

void FrameGraph::bake(DeferredDeletion* retire) {
    Impl& g = *impl_;
    g.releasePhysical(retire);
    g.baked = false;
    const std::vector<uint32_t> sequence = g.flattenHooks();
    g.validateUses(sequence);
    const std::vector<uint32_t> ordered = g.orderPasses(sequence);
    g.order.clear();
    for (uint32_t p : ordered) g.order.push_back(BakedPass{.pass = p});
    g.computeLifetimesAndUsage();
    try {
        g.createTransients();
        g.placeTransients();
    } catch (...) {
        // Out of memory (or an unsupported format): nothing of this bake reached the GPU, so
        // its images, buffers and heaps go now and the graph is left unbaked, holding nothing.
        g.releasePhysical(nullptr);
        throw;
    }
    g.deriveBarriers();
    g.prepareRendering();
    g.stats.passCount = uint32_t(g.order.size());
    g.baked = true;
}

std::vector<uint32_t> FrameGraph::Impl::flattenHooks() const {
    for (const HookedPass& h : hooked) {
        if (std::find(hookNames.begin(), hookNames.end(), h.hook) != hookNames.end()) continue;
        std::string declared;
        for (const std::string& n : hookNames) declared += (declared.empty() ? "" : ", ") + quoted(n);
        throw Error("frame graph: pass " + quoted(passes[h.pass].name) + " was inserted at hook " + quoted(h.hook) +
                    ", but no such hook was declared (declared hooks: " + (declared.empty() ? "none" : declared) + ")");
    }
    std::vector<uint32_t> sequence;
    for (const Slot& s : slots) {
        if (!s.isHook) {
            sequence.push_back(s.index);
            continue;
        }
        for (const HookedPass& h : hooked)
            if (h.hook == hookNames[s.index]) sequence.push_back(h.pass);
    }
    return sequence;
}

void FrameGraph::Impl::validateUses(const std::vector<uint32_t>& sequence) const {
    for (size_t i = 0; i < sequence.size(); ++i) {
        const PassDesc& pass = passes[sequence[i]];
        const std::string where = "frame graph: pass " + quoted(pass.name);
        if (pass.name.empty()) throw Error("frame graph: a pass has no name (every pass needs a unique name)");
        for (size_t j = 0; j < i; ++j)
            if (passes[sequence[j]].name == pass.name)
                throw Error(where + " is declared twice (pass names must be unique; timings are keyed by name)");
        constexpr VkImageUsageFlags kAttachment =
            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
        bool hasAttachments = false;
        for (const ResourceUse& u : pass.uses) hasAttachments |= (accessInfo(u.access, pass.type).imageUsage & kAttachment) != 0;
        for (size_t u = 0; u < pass.uses.size(); ++u) {
            const ResourceUse& use = pass.uses[u];
            if (use.resource >= resources.size())
                throw Error(where + " uses resource handle " + std::to_string(use.resource) + ", which this graph did not create");
            const Resource& r = resources[use.resource];
            const AccessInfo info = accessInfo(use.access, pass.type);
            const char* accessName = toString(use.access);
            if (r.isImage && info.imageUsage == 0)
                throw Error(where + " uses image " + quoted(r.name) + " as " + accessName + ", which is a buffer access");
            if (!r.isImage && info.bufferUsage == 0)
                throw Error(where + " uses buffer " + quoted(r.name) + " as " + accessName + ", which is an image access");
            if (const char* why = accessNotAllowedIn(use.access, pass.type))
                throw Error(where + " (" + toString(pass.type) + ") uses " + quoted(r.name) + " as " + accessName + ", but " + why);
            if (hasAttachments && (use.access == Access::TransferRead || use.access == Access::TransferWrite))
                throw Error(where + " uses " + quoted(r.name) + " as " + accessName +
                            " inside dynamic rendering; put copies in a Transfer or Compute pass");
            for (size_t v = 0; v < u; ++v) {
                if (pass.uses[v].resource != use.resource) continue;
                const Access other = pass.uses[v].access;
                const std::string twice = where + " uses " + quoted(r.name) + " twice (as " + toString(other) + " and " + accessName + ")";
                if (isWrite(other) || isWrite(use.access))
                    throw Error(twice + "; a pass declares one access per resource it writes (use a ReadWrite access to read and write)");
                VkImageLayout shared;
                if (r.isImage && !unifyLayouts(accessInfo(other, pass.type).layout, info.layout, shared))
                    throw Error(twice + ", which need different image layouts");
            }
        }
    }
}

namespace {

struct Edge {
    uint32_t other;            // successor in `succ`, predecessor in `pred`
    ResourceHandle resource;  // what the dependency is about (for error messages)
};

// Dependencies between positions in the declaration sequence.
struct Dependencies {
    explicit Dependencies(size_t n) : succ(n), pred(n) {}
    void add(uint32_t from, uint32_t to, ResourceHandle r) {
        if (from == to) return;
        succ[from].push_back({to, r});
        pred[to].push_back({from, r});
    }
    std::vector<std::vector<Edge>> succ, pred;
};

}  // namespace

// Dependencies, per resource in declaration order:
//  - a read depends on the latest earlier write; a read of a transient with no earlier write
//    depends on the first later write (the reader is moved after it);
//  - a write depends on the previous write (WAW) and on every read of the previous version (WAR).
static Dependencies findDependencies(const std::vector<PassDesc>& passes, const std::vector<Resource>& resources,
                                     const std::vector<uint32_t>& sequence) {
    Dependencies deps(sequence.size());
    std::vector<int64_t> lastWriter(resources.size(), -1);
    std::vector<std::vector<uint32_t>> readers(resources.size()), forwardReaders(resources.size());
    for (uint32_t i = 0; i < sequence.size(); ++i) {
        for (const ResourceUse& use : passes[sequence[i]].uses) {
            const ResourceHandle r = use.resource;
            if (!isWrite(use.access)) {
                if (lastWriter[r] >= 0) deps.add(uint32_t(lastWriter[r]), i, r);
                // An imported resource read before any write reads what it held before the frame.
                if (lastWriter[r] >= 0 || resources[r].imported) readers[r].push_back(i);
                else forwardReaders[r].push_back(i);
                continue;
            }
            if (lastWriter[r] >= 0) deps.add(uint32_t(lastWriter[r]), i, r);
            for (uint32_t q : readers[r]) deps.add(q, i, r);
            for (uint32_t q : forwardReaders[r]) deps.add(i, q, r);
            readers[r] = std::move(forwardReaders[r]);
            forwardReaders[r].clear();
            lastWriter[r] = i;
        }
    }
    for (size_t r = 0; r < resources.size(); ++r) {
        if (forwardReaders[r].empty()) continue;
        const PassDesc& reader = passes[sequence[forwardReaders[r][0]]];
        Access access = Access::StorageBufferRead;
        for (const ResourceUse& u : reader.uses)
            if (u.resource == r) access = u.access;
        throw Error("frame graph: pass " + quoted(reader.name) + " reads " + quoted(resources[r].name) + " (as " +
                    toString(access) + "), but no pass writes it; a transient has no contents until a pass writes it " +
                    "(import the resource if its contents come from outside the graph)");
    }
    return deps;
}

// Passes left with unmet dependencies after the topological sort contain a cycle: walk
// predecessors among them until one repeats, and name every pass and resource on it.
[[noreturn]] static void reportCycle(const std::vector<PassDesc>& passes, const std::vector<Resource>& resources,
                                     const std::vector<uint32_t>& sequence, const Dependencies& deps,
                                     const std::vector<uint32_t>& unmet) {
    uint32_t at = 0;
    while (unmet[at] == 0) ++at;
    std::vector<uint32_t> path;
    std::vector<ResourceHandle> via;  // path[k] depends on path[k + 1] through via[k]
    std::vector<int64_t> seenAt(sequence.size(), -1);
    while (seenAt[at] < 0) {
        seenAt[at] = int64_t(path.size());
        path.push_back(at);
        for (const Edge& e : deps.pred[at]) {
            if (unmet[e.other] == 0) continue;  // already ordered: not on a cycle
            via.push_back(e.resource);
            at = e.other;
            break;
        }
    }
    std::string chain, reasons;
    for (size_t k = size_t(seenAt[at]); k < path.size(); ++k) {
        const std::string& consumer = passes[sequence[path[k]]].name;
        const std::string& producer = passes[sequence[k + 1 < path.size() ? path[k + 1] : at]].name;
        chain = " -> " + quoted(consumer) + chain;
        reasons += (reasons.empty() ? "" : "; ") + quoted(consumer) + " must run after " + quoted(producer) +
                   " because of " + quoted(resources[via[k]].name);
    }
    chain = quoted(passes[sequence[at]].name) + chain;
    throw Error("frame graph: dependency cycle between passes " + chain + " (" + reasons + ")");
}

// Kahn's algorithm; among ready passes the earliest declared goes first, so the declaration
// order is kept wherever the dependencies allow it.
std::vector<uint32_t> FrameGraph::Impl::orderPasses(const std::vector<uint32_t>& sequence) const {
    const Dependencies deps = findDependencies(passes, resources, sequence);
    std::vector<uint32_t> unmet(sequence.size());
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> ready;
    for (uint32_t i = 0; i < sequence.size(); ++i) {
        unmet[i] = uint32_t(deps.pred[i].size());
        if (unmet[i] == 0) ready.push(i);
    }
    std::vector<uint32_t> ordered;
    while (!ready.empty()) {
        const uint32_t i = ready.top();
        ready.pop();
        ordered.push_back(sequence[i]);
        for (const Edge& e : deps.succ[i])
            if (--unmet[e.other] == 0) ready.push(e.other);
    }
    if (ordered.size() != sequence.size()) reportCycle(passes, resources, sequence, deps, unmet);
    return ordered;
}

void FrameGraph::Impl::computeLifetimesAndUsage() {
    for (Resource& r : resources) {
        r.firstUse = UINT32_MAX;
        r.lastUse = 0;
        r.imageUsage = r.isImage ? r.imageDesc.extraUsage : 0;
        r.bufferUsage = r.isImage ? 0 : r.bufferDesc.extraUsage;
    }
    for (uint32_t i = 0; i < order.size(); ++i) {
        const PassDesc& pass = passes[order[i].pass];
        for (const ResourceUse& use : pass.uses) {
            Resource& r = resources[use.resource];
            const AccessInfo info = accessInfo(use.access, pass.type);
            r.firstUse = std::min(r.firstUse, i);
            r.lastUse = std::max(r.lastUse, i);
            if (r.isImage) r.imageUsage |= info.imageUsage;
            else r.bufferUsage |= info.bufferUsage;
        }
    }
}

}  // namespace engine
