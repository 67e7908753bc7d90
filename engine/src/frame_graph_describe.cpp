// FrameGraph::describe(): the baked graph as text, for logs and debugging.
#include "frame_graph_internal.h"

#include <sstream>

namespace engine {

namespace {
const char* layoutName(VkImageLayout layout) {
    switch (layout) {
    case VK_IMAGE_LAYOUT_UNDEFINED: return "UNDEFINED";
    case VK_IMAGE_LAYOUT_GENERAL: return "GENERAL";
    case VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL: return "COLOR_ATTACHMENT";
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL: return "DEPTH_STENCIL_ATTACHMENT";
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL: return "DEPTH_STENCIL_READ_ONLY";
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL: return "SHADER_READ_ONLY";
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL: return "TRANSFER_SRC";
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL: return "TRANSFER_DST";
    case VK_IMAGE_LAYOUT_PRESENT_SRC_KHR: return "PRESENT_SRC";
    default: return "other";
    }
}

void describeBatch(std::ostringstream& out, const BarrierBatch& batch, const BatchOwners& owners,
                   const std::vector<Resource>& resources) {
    for (size_t i = 0; i < batch.images.size(); ++i) {
        const VkImageMemoryBarrier2& b = batch.images[i];
        out << "    barrier image '" << resources[owners.images[i]].name << "' " << layoutName(b.oldLayout) << " -> "
            << layoutName(b.newLayout) << " stages 0x" << std::hex << b.srcStageMask << " -> 0x" << b.dstStageMask
            << " access 0x" << b.srcAccessMask << " -> 0x" << b.dstAccessMask << std::dec << "\n";
    }
    for (size_t i = 0; i < batch.buffers.size(); ++i) {
        const VkBufferMemoryBarrier2& b = batch.buffers[i];
        out << "    barrier buffer '" << resources[owners.buffers[i]].name << "' stages 0x" << std::hex << b.srcStageMask
            << " -> 0x" << b.dstStageMask << " access 0x" << b.srcAccessMask << " -> 0x" << b.dstAccessMask << std::dec
            << "\n";
    }
}
}  // namespace

std::string FrameGraph::describe() const {
    const Impl& g = *impl_;
    std::ostringstream out;
    if (!g.baked) return "frame graph (not baked)\n";
    out << "frame graph: " << g.order.size() << " passes, " << g.stats.transientResources << " transients, "
        << g.stats.transientBytes << " bytes (" << g.stats.transientBytesUnaliased << " unaliased)\n";
    for (size_t i = 0; i < g.order.size(); ++i) {
        const BakedPass& bp = g.order[i];
        const PassDesc& pass = g.passes[bp.pass];
        out << "  [" << i << "] " << toString(pass.type) << " '" << pass.name << "'";
        for (const ResourceUse& use : pass.uses) out << " " << g.resources[use.resource].name << ":" << toString(use.access);
        out << "\n";
        if (bp.batch >= 0) describeBatch(out, g.batches[size_t(bp.batch)], g.owners[size_t(bp.batch)], g.resources);
    }
    if (g.finalBatch >= 0) {
        out << "  [end]\n";
        describeBatch(out, g.batches[size_t(g.finalBatch)], g.owners[size_t(g.finalBatch)], g.resources);
    }
    for (const Resource& r : g.resources) {
        if (r.heap < 0) continue;
        out << "  transient '" << r.name << "' heap " << r.heap << " [" << r.offset << ", " << r.offset + r.size
            << ") passes " << r.firstUse << ".." << r.lastUse << "\n";
    }
    return out.str();
}

}  // namespace engine
