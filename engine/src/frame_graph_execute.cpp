// execute(): records the baked frame. Per pass: [timestamp] barriers, [begin rendering],
// the pass's record callback, [end rendering] [timestamp]; then the transitions that leave
// imported resources in their after-state. Nothing here allocates in steady state.
#include "frame_graph_internal.h"

#include "engine/error.h"
#include "engine/gpu_timer.h"

namespace engine {

namespace {

class RecordContext final : public PassContext {
public:
    RecordContext(const std::vector<Resource>& resources, VkCommandBuffer cmd, uint32_t frame, GpuTimer* timer)
        : resources_(resources), cmd_(cmd), frame_(frame), timer_(timer) {}
    void setPass(const BakedPass& p) { pass_ = &p; }

    VkCommandBuffer commandBuffer() const override { return cmd_; }
    VkImage image(ResourceHandle h) const override { return image_(h).image; }
    VkImageView imageView(ResourceHandle h) const override { return image_(h).view; }
    const ImageDesc& imageDesc(ResourceHandle h) const override { return image_(h).imageDesc; }
    VkBuffer buffer(ResourceHandle h) const override { return buffer_(h).buffer; }
    VkDeviceSize bufferSize(ResourceHandle h) const override { return buffer_(h).bufferDesc.size; }
    uint32_t frameIndex() const override { return frame_; }
    VkExtent2D renderExtent() const override { return pass_ ? pass_->extent : VkExtent2D{0, 0}; }
    GpuTimer* timer() const override { return timer_; }

private:
    const Resource& resource(ResourceHandle h) const {
        if (h >= resources_.size()) throw Error("frame graph: a pass asked for resource handle " + std::to_string(h) + ", which is not from this graph");
        return resources_[h];
    }
    const Resource& image_(ResourceHandle h) const {
        const Resource& r = resource(h);
        if (!r.isImage) throw Error("frame graph: pass asked for the image of buffer '" + r.name + "'");
        return r;
    }
    const Resource& buffer_(ResourceHandle h) const {
        const Resource& r = resource(h);
        if (r.isImage) throw Error("frame graph: pass asked for the buffer of image '" + r.name + "'");
        return r;
    }
    const std::vector<Resource>& resources_;
    VkCommandBuffer cmd_;
    uint32_t frame_;
    GpuTimer* timer_;
    const BakedPass* pass_ = nullptr;
};

void recordBatch(VkCommandBuffer cmd, const BarrierBatch& batch) {
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = uint32_t(batch.images.size());
    dep.pImageMemoryBarriers = batch.images.data();
    dep.bufferMemoryBarrierCount = uint32_t(batch.buffers.size());
    dep.pBufferMemoryBarriers = batch.buffers.data();
    dep.memoryBarrierCount = uint32_t(batch.memory.size());
    dep.pMemoryBarriers = batch.memory.data();
    vkCmdPipelineBarrier2(cmd, &dep);
}

}  // namespace

void FrameGraph::Impl::prepareRendering() {
    for (BakedPass& bp : order) {
        const PassDesc& pass = passes[bp.pass];
        if (pass.type != PassType::Graphics) continue;
        const Resource* first = nullptr;
        for (const ResourceUse& use : pass.uses) {
            const bool color = use.access == Access::ColorAttachmentWrite;
            const bool depth = use.access == Access::DepthAttachmentWrite || use.access == Access::DepthAttachmentRead;
            if (!color && !depth) continue;
            const Resource& r = resources[use.resource];
            if (!first) {
                first = &r;
                bp.extent = {r.imageDesc.width, r.imageDesc.height};
            } else if (r.imageDesc.width != first->imageDesc.width || r.imageDesc.height != first->imageDesc.height) {
                throw Error("frame graph: pass '" + pass.name + "' renders to '" + first->name + "' (" +
                            std::to_string(first->imageDesc.width) + "x" + std::to_string(first->imageDesc.height) +
                            ") and '" + r.name + "' (" + std::to_string(r.imageDesc.width) + "x" +
                            std::to_string(r.imageDesc.height) + "); attachments of one pass must have one size");
            }
            VkRenderingAttachmentInfo info{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
            info.imageLayout = passAccess(pass, use.resource, true).layout;
            info.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
            if (color) {
                info.loadOp = pass.loadColor     ? VK_ATTACHMENT_LOAD_OP_LOAD
                              : pass.coversColor ? VK_ATTACHMENT_LOAD_OP_DONT_CARE
                                                 : VK_ATTACHMENT_LOAD_OP_CLEAR;
                for (int c = 0; c < 4; ++c) info.clearValue.color.float32[c] = pass.clearColor[c];
                bp.colorTargets.push_back(use.resource);
                bp.colorInfos.push_back(info);
                continue;
            }
            if (bp.depthTarget != kInvalidResource)
                throw Error("frame graph: pass '" + pass.name + "' declares two depth attachments ('" +
                            resources[bp.depthTarget].name + "' and '" + r.name + "')");
            const bool readOnly = use.access == Access::DepthAttachmentRead;
            info.loadOp = readOnly || pass.loadDepth ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
            info.storeOp = readOnly ? VK_ATTACHMENT_STORE_OP_NONE : VK_ATTACHMENT_STORE_OP_STORE;
            info.clearValue.depthStencil = {pass.clearDepth, 0};
            bp.depthTarget = use.resource;
            bp.depthInfo = info;
        }
        bp.rendering = first != nullptr;
    }
}

void FrameGraph::execute(VkCommandBuffer cmd, uint32_t frameIndex, GpuTimer* timer) {
    Impl& g = *impl_;
    if (!g.baked) throw Error("frame graph: execute() before bake() (or the graph changed since the last bake)");
    RecordContext context(g.resources, cmd, frameIndex, timer);
    for (BakedPass& bp : g.order) {
        const PassDesc& pass = g.passes[bp.pass];
        context.setPass(bp);
        if (timer) timer->beginScope(cmd, pass.name);
        if (bp.batch >= 0) recordBatch(cmd, g.batches[size_t(bp.batch)]);
        if (bp.rendering) {
            for (size_t i = 0; i < bp.colorTargets.size(); ++i) bp.colorInfos[i].imageView = g.resources[bp.colorTargets[i]].view;
            if (bp.depthTarget != kInvalidResource) bp.depthInfo.imageView = g.resources[bp.depthTarget].view;
            bool missingView = bp.depthTarget != kInvalidResource && bp.depthInfo.imageView == VK_NULL_HANDLE;
            for (const VkRenderingAttachmentInfo& info : bp.colorInfos) missingView |= info.imageView == VK_NULL_HANDLE;
            if (missingView)
                throw Error("frame graph: pass '" + pass.name + "' renders to an image imported without an image view");
            VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
            ri.renderArea = {{0, 0}, bp.extent};
            ri.layerCount = 1;
            ri.colorAttachmentCount = uint32_t(bp.colorInfos.size());
            ri.pColorAttachments = bp.colorInfos.data();
            ri.pDepthAttachment = bp.depthTarget != kInvalidResource ? &bp.depthInfo : nullptr;
            vkCmdBeginRendering(cmd, &ri);
        }
        if (pass.record) pass.record(context);
        if (bp.rendering) vkCmdEndRendering(cmd);
        if (timer) timer->endScope(cmd);
    }
    if (g.finalBatch >= 0) recordBatch(cmd, g.batches[size_t(g.finalBatch)]);
}

}  // namespace engine
