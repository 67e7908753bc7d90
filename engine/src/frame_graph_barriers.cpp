// Barrier derivation: walk the baked pass order, track per resource the last write, the reads
// since it and the current image layout, and emit a synchronization2 barrier exactly where a
// hazard or a layout change needs one:
//   RAW  read after write: src = the write's stages/access, dst = the read. Reads whose stage and
//        access were already made visible after that write (read-after-read) need nothing.
//   WAR  write after read: execution dependency from the reads' stages (no access to flush).
//   WAW  write after write: src = the previous write's stages/access.
//   layout change: always a barrier (old -> new layout); UNDEFINED as old layout when the pass
//        overwrites everything (cleared attachment, StorageImageWrite) or for a transient's
//        first use, whose bytes may have belonged to an aliased resource.
// A transient's first use waits on the final accesses of every transient sharing its bytes
// (including itself in the previous frame): submissions on one queue execute in order, so a
// barrier's first scope reaches back into the previous frame's commands.
#include "frame_graph_internal.h"

#include <algorithm>

namespace engine {

namespace {

struct Visibility {
    VkPipelineStageFlags2 stages;
    VkAccessFlags2 access;
};

struct Track {
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkPipelineStageFlags2 writeStages = VK_PIPELINE_STAGE_2_NONE;  // last write or layout transition
    VkAccessFlags2 writeAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 readStages = VK_PIPELINE_STAGE_2_NONE;  // reads since the last write
    std::vector<Visibility> visible;                              // reads already synchronized with it
};

struct Dependency {
    VkPipelineStageFlags2 srcStages, dstStages;
    VkAccessFlags2 srcAccess, dstAccess;
    VkImageLayout oldLayout, newLayout;
};

bool alreadyVisible(const Track& t, const AccessInfo& a) {
    return std::any_of(t.visible.begin(), t.visible.end(), [&](const Visibility& v) {
        return (a.stages & ~v.stages) == 0 && (a.access & ~v.access) == 0;
    });
}

// Applies one use to the track; returns true and fills `dep` when it needs a barrier first.
bool applyUse(Track& t, bool isImage, const AccessInfo& a, bool discard, Dependency& dep) {
    const bool layoutChange = isImage && t.layout != a.layout;
    if (!a.write && !layoutChange) {
        t.readStages |= a.stages;
        if (t.writeAccess == VK_ACCESS_2_NONE || alreadyVisible(t, a)) return false;
        dep = {t.writeStages, a.stages, t.writeAccess, a.access, t.layout, t.layout};
        t.visible.push_back({a.stages, a.access});
        return true;
    }
    dep = {t.writeStages | t.readStages, a.stages, t.writeAccess, a.access,
           discard ? VK_IMAGE_LAYOUT_UNDEFINED : t.layout, isImage ? a.layout : VK_IMAGE_LAYOUT_UNDEFINED};
    const bool needed = layoutChange || dep.srcStages != VK_PIPELINE_STAGE_2_NONE;
    t.layout = dep.newLayout;
    if (a.write) {
        t.writeStages = a.stages;
        t.writeAccess = writeAccessBits(a.access);
        t.readStages = VK_PIPELINE_STAGE_2_NONE;
        t.visible.clear();
    } else {
        // A read that changed the layout: the transition is a write ordered before a.stages,
        // so later accesses must chain through those stages too.
        t.writeStages |= a.stages;
        t.readStages = a.stages;
        t.visible.push_back({a.stages, a.access});
    }
    return needed;
}

bool discardsContents(const ResourceUse& use, const PassDesc& pass) {
    switch (use.access) {
    case Access::ColorAttachmentWrite: return !pass.loadColor;
    case Access::DepthAttachmentWrite: return !pass.loadDepth;
    case Access::StorageImageWrite: return true;
    default: return false;
    }
}

Track initialTrack(const Resource& r) {
    Track t;
    if (!r.imported) return t;
    t.layout = r.isImage ? r.before.layout : VK_IMAGE_LAYOUT_UNDEFINED;
    if (writeAccessBits(r.before.access)) {
        t.writeStages = r.before.stages;
        t.writeAccess = writeAccessBits(r.before.access);
    } else {
        t.readStages = r.before.stages;
    }
    return t;
}

void addBarrier(BarrierBatch& batch, BatchOwners& owners, const Resource& r, ResourceHandle h, const Dependency& d) {
    if (r.isImage) {
        VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        b.srcStageMask = d.srcStages;
        b.srcAccessMask = d.srcAccess;
        b.dstStageMask = d.dstStages;
        b.dstAccessMask = d.dstAccess;
        b.oldLayout = d.oldLayout;
        b.newLayout = d.newLayout;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = r.image;
        b.subresourceRange = {barrierAspect(r.imageDesc.format), 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
        batch.images.push_back(b);
        owners.images.push_back(h);
    } else {
        VkBufferMemoryBarrier2 b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
        b.srcStageMask = d.srcStages;
        b.srcAccessMask = d.srcAccess;
        b.dstStageMask = d.dstStages;
        b.dstAccessMask = d.dstAccess;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.buffer = r.buffer;
        b.offset = 0;
        b.size = VK_WHOLE_SIZE;
        batch.buffers.push_back(b);
        owners.buffers.push_back(h);
    }
}

// Where walkFrame() puts the batches it emits (null: a dry run that only tracks state).
struct BatchSink {
    std::vector<BakedPass>& order;
    std::vector<BarrierBatch>& batches;
    std::vector<BatchOwners>& owners;
};

// Applies every pass's uses in baked order to `tracks` (one per resource), emitting one batch
// per pass that needs barriers. Several reads of one resource in a pass are merged.
std::vector<Track> walkFrame(const std::vector<BakedPass>& order, const std::vector<PassDesc>& passes,
                             const std::vector<Resource>& resources, std::vector<Track> tracks, BatchSink* sink) {
    for (uint32_t i = 0; i < order.size(); ++i) {
        const PassDesc& pass = passes[order[i].pass];
        BarrierBatch batch;
        batch.beforePass = i;
        BatchOwners batchOwners;
        for (size_t u = 0; u < pass.uses.size(); ++u) {
            const ResourceUse& use = pass.uses[u];
            const auto sameResource = [&](const ResourceUse& v) { return v.resource == use.resource; };
            if (std::any_of(pass.uses.begin(), pass.uses.begin() + long(u), sameResource)) continue;  // merged
            const Resource& r = resources[use.resource];
            // A transient's first use discards: its bytes held something else (or last frame).
            const bool discard = (!r.imported && r.firstUse == i) || discardsContents(use, pass);
            Dependency dep{};
            if (applyUse(tracks[use.resource], r.isImage, passAccess(pass, use.resource, r.isImage), discard, dep) && sink)
                addBarrier(batch, batchOwners, r, use.resource, dep);
        }
        if (!sink || (batch.images.empty() && batch.buffers.empty())) continue;
        sink->order[i].batch = int32_t(sink->batches.size());
        sink->batches.push_back(std::move(batch));
        sink->owners.push_back(std::move(batchOwners));
    }
    return tracks;
}

// Each transient starts the frame waiting for the final accesses of every transient that
// shares its bytes, itself included (previous frame on the same queue).
void startTransientsAfterTenants(const std::vector<Resource>& resources, const std::vector<Track>& finals,
                                 std::vector<Track>& initial) {
    for (ResourceHandle h = 0; h < resources.size(); ++h) {
        const Resource& r = resources[h];
        if (r.heap < 0) continue;
        for (ResourceHandle q = 0; q < resources.size(); ++q) {
            const Resource& o = resources[q];
            const bool overlap = o.heap == r.heap && o.offset < r.offset + r.size && r.offset < o.offset + o.size;
            if (!overlap) continue;
            initial[h].writeStages |= finals[q].writeStages | finals[q].readStages;
            initial[h].writeAccess |= finals[q].writeAccess;
        }
    }
}

// The batch after the last pass that leaves imported resources in their `after` state.
void transitionImportsToAfterState(const std::vector<Resource>& resources, const std::vector<Track>& tracks,
                                   BarrierBatch& batch, BatchOwners& owners) {
    for (ResourceHandle h = 0; h < resources.size(); ++h) {
        const Resource& r = resources[h];
        if (!r.imported) continue;
        const Track& t = tracks[h];
        const bool layoutChange = r.isImage && r.after.layout != VK_IMAGE_LAYOUT_UNDEFINED && r.after.layout != t.layout;
        const VkPipelineStageFlags2 src = t.writeStages | t.readStages;
        if (!layoutChange && (src == VK_PIPELINE_STAGE_2_NONE || r.after.stages == VK_PIPELINE_STAGE_2_NONE)) continue;
        const Dependency dep{src, r.after.stages, t.writeAccess, r.after.access, t.layout,
                             layoutChange ? r.after.layout : t.layout};
        addBarrier(batch, owners, r, h, dep);
    }
}

}  // namespace

void FrameGraph::Impl::deriveBarriers() {
    // Walk the frame once (emitting nothing) to learn every resource's final accesses, then
    // once more with each transient starting from the accesses of its bytes' tenants.
    std::vector<Track> initial;
    for (const Resource& r : resources) initial.push_back(initialTrack(r));
    const std::vector<Track> finals = walkFrame(order, passes, resources, initial, nullptr);
    startTransientsAfterTenants(resources, finals, initial);
    BatchSink sink{order, batches, owners};
    const std::vector<Track> tracks = walkFrame(order, passes, resources, initial, &sink);

    BarrierBatch last;
    last.beforePass = uint32_t(order.size());
    BatchOwners lastOwners;
    transitionImportsToAfterState(resources, tracks, last, lastOwners);
    if (!last.images.empty() || !last.buffers.empty()) {
        finalBatch = int32_t(batches.size());
        batches.push_back(std::move(last));
        owners.push_back(std::move(lastOwners));
    }
}

void FrameGraph::Impl::patchHandles(BarrierBatch& batch, const BatchOwners& o) const {
    for (size_t i = 0; i < batch.images.size(); ++i) batch.images[i].image = resources[o.images[i]].image;
    for (size_t i = 0; i < batch.buffers.size(); ++i) batch.buffers[i].buffer = resources[o.buffers[i]].buffer;
}

}  // namespace engine
