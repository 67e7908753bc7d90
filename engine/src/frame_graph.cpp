// FrameGraph declaration API, the Access -> (stage, access, layout) table, introspection.
#include "frame_graph_internal.h"

#include "engine/context.h"
#include "engine/error.h"

#include <algorithm>
#include <utility>

namespace engine {

namespace {
constexpr VkPipelineStageFlags2 kFragmentTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
constexpr VkAccessFlags2 kAllWrites = VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT |
                                      VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
}  // namespace

VkAccessFlags2 writeAccessBits(VkAccessFlags2 access) { return access & kAllWrites; }

AccessInfo accessInfo(Access access, PassType type) {
    // Shader stages that run a "storage" or "sampled" access depend on the pass type: compute
    // passes run compute shaders, graphics passes vertex + fragment shaders.
    const VkPipelineStageFlags2 shader = type == PassType::Compute
                                             ? VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
                                             : VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    constexpr VkAccessFlags2 storageRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
    constexpr VkAccessFlags2 storageWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    switch (access) {
    case Access::ColorAttachmentWrite:
        // READ too: loadOp LOAD and blending read the attachment.
        return {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, true};
    case Access::DepthAttachmentWrite:
        return {kFragmentTests,
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, true};
    case Access::DepthAttachmentRead:
        return {kFragmentTests, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
                VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, false};
    case Access::SampledFragment:
        return {VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, 0, false};
    case Access::SampledCompute:
        return {VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_USAGE_SAMPLED_BIT, 0, false};
    case Access::StorageImageRead:
        return {shader, storageRead, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_USAGE_STORAGE_BIT, 0, false};
    case Access::StorageImageWrite:
        return {shader, storageWrite, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_USAGE_STORAGE_BIT, 0, true};
    case Access::StorageImageReadWrite:
        return {shader, storageRead | storageWrite, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_USAGE_STORAGE_BIT, 0, true};
    case Access::StorageBufferRead:
        return {shader, storageRead, VK_IMAGE_LAYOUT_UNDEFINED, 0, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, false};
    case Access::StorageBufferWrite:
        return {shader, storageWrite, VK_IMAGE_LAYOUT_UNDEFINED, 0, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, true};
    case Access::StorageBufferReadWrite:
        return {shader, storageRead | storageWrite, VK_IMAGE_LAYOUT_UNDEFINED, 0, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                true};
    case Access::TransferRead:
        return {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false};
    case Access::TransferWrite:
        return {VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                VK_BUFFER_USAGE_TRANSFER_DST_BIT, true};
    case Access::IndirectRead:
        return {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
                VK_IMAGE_LAYOUT_UNDEFINED, 0, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, false};
    case Access::VertexBufferRead:
        return {VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT,
                VK_IMAGE_LAYOUT_UNDEFINED, 0, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, false};
    case Access::UniformBufferRead:
        return {shader, VK_ACCESS_2_UNIFORM_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED, 0, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, false};
    }
    return {};
}

const char* accessNotAllowedIn(Access access, PassType type) {
    switch (access) {
    case Access::ColorAttachmentWrite:
    case Access::DepthAttachmentWrite:
    case Access::DepthAttachmentRead:
    case Access::SampledFragment:
    case Access::VertexBufferRead:
        return type == PassType::Graphics ? nullptr : "it is only valid in a Graphics pass";
    case Access::SampledCompute:
        return type == PassType::Compute ? nullptr : "it is only valid in a Compute pass (use SampledFragment in a Graphics pass)";
    case Access::StorageImageRead:
    case Access::StorageImageWrite:
    case Access::StorageImageReadWrite:
    case Access::StorageBufferRead:
    case Access::StorageBufferWrite:
    case Access::StorageBufferReadWrite:
        return type != PassType::Transfer ? nullptr : "a Transfer pass runs no shaders";
    case Access::UniformBufferRead:
        return type != PassType::Transfer ? nullptr : "a Transfer pass runs no shaders";
    case Access::IndirectRead:
        return type != PassType::Transfer ? nullptr : "a Transfer pass draws and dispatches nothing";
    case Access::TransferRead:
    case Access::TransferWrite:
        return nullptr;  // graphics passes with attachments are checked separately
    }
    return "it is not a known Access value";
}

// Two reads of one image in one pass share a layout: equal layouts trivially, and a depth
// image that is both depth-tested (read-only) and sampled lives in DEPTH_STENCIL_READ_ONLY.
bool unifyLayouts(VkImageLayout a, VkImageLayout b, VkImageLayout& out) {
    if (a == b) {
        out = a;
        return true;
    }
    const auto depthRead = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
    const auto sampled = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    if ((a == depthRead && b == sampled) || (a == sampled && b == depthRead)) {
        out = depthRead;
        return true;
    }
    return false;
}

AccessInfo passAccess(const PassDesc& pass, ResourceHandle resource, bool isImage) {
    AccessInfo merged;
    bool first = true;
    for (const ResourceUse& use : pass.uses) {
        if (use.resource != resource) continue;
        const AccessInfo info = accessInfo(use.access, pass.type);
        if (first) {
            merged = info;
            first = false;
            continue;
        }
        if (merged.write || info.write || (isImage && !unifyLayouts(merged.layout, info.layout, merged.layout)))
            throw Error("frame graph: pass '" + pass.name + "' uses a resource in conflicting ways");  // validateUses() said which
        merged.stages |= info.stages;
        merged.access |= info.access;
        merged.imageUsage |= info.imageUsage;
        merged.bufferUsage |= info.bufferUsage;
    }
    return merged;
}

bool isWrite(Access access) { return accessInfo(access, PassType::Compute).write; }

const char* toString(Access access) {
    switch (access) {
    case Access::ColorAttachmentWrite: return "ColorAttachmentWrite";
    case Access::DepthAttachmentWrite: return "DepthAttachmentWrite";
    case Access::DepthAttachmentRead: return "DepthAttachmentRead";
    case Access::SampledFragment: return "SampledFragment";
    case Access::SampledCompute: return "SampledCompute";
    case Access::StorageImageRead: return "StorageImageRead";
    case Access::StorageImageWrite: return "StorageImageWrite";
    case Access::StorageImageReadWrite: return "StorageImageReadWrite";
    case Access::StorageBufferRead: return "StorageBufferRead";
    case Access::StorageBufferWrite: return "StorageBufferWrite";
    case Access::StorageBufferReadWrite: return "StorageBufferReadWrite";
    case Access::TransferRead: return "TransferRead";
    case Access::TransferWrite: return "TransferWrite";
    case Access::IndirectRead: return "IndirectRead";
    case Access::VertexBufferRead: return "VertexBufferRead";
    case Access::UniformBufferRead: return "UniformBufferRead";
    }
    return "Access(?)";
}

const char* toString(PassType type) {
    switch (type) {
    case PassType::Graphics: return "Graphics";
    case PassType::Compute: return "Compute";
    case PassType::Transfer: return "Transfer";
    }
    return "PassType(?)";
}

const Resource& FrameGraph::Impl::resource(ResourceHandle h) const {
    if (h >= resources.size()) throw Error("frame graph: resource handle " + std::to_string(h) + " is not from this graph");
    return resources[h];
}

Resource& FrameGraph::Impl::resource(ResourceHandle h) {
    return const_cast<Resource&>(static_cast<const Impl*>(this)->resource(h));
}

FrameGraph::FrameGraph(Context& ctx) : impl_(std::make_unique<Impl>(ctx)) {}

FrameGraph::~FrameGraph() { impl_->releasePhysical(); }

ResourceHandle FrameGraph::createImage(std::string name, const ImageDesc& desc) {
    if (desc.width == 0 || desc.height == 0 || desc.format == VK_FORMAT_UNDEFINED)
        throw Error("frame graph: image '" + name + "' needs a format and a non-zero size");
    Resource r;
    r.name = std::move(name);
    r.isImage = true;
    r.imageDesc = desc;
    impl_->resources.push_back(std::move(r));
    impl_->baked = false;
    return ResourceHandle(impl_->resources.size() - 1);
}

ResourceHandle FrameGraph::createBuffer(std::string name, const BufferDesc& desc) {
    if (desc.size == 0) throw Error("frame graph: buffer '" + name + "' has size 0");
    Resource r;
    r.name = std::move(name);
    r.bufferDesc = desc;
    impl_->resources.push_back(std::move(r));
    impl_->baked = false;
    return ResourceHandle(impl_->resources.size() - 1);
}

ResourceHandle FrameGraph::importImage(std::string name, VkImage image, VkImageView view, const ImageDesc& desc,
                                       const ExternalState& before, const ExternalState& after) {
    if (desc.width == 0 || desc.height == 0 || desc.format == VK_FORMAT_UNDEFINED)
        throw Error("frame graph: imported image '" + name + "' needs its format and size in the ImageDesc");
    Resource r;
    r.name = std::move(name);
    r.isImage = true;
    r.imported = true;
    r.imageDesc = desc;
    r.before = before;
    r.after = after;
    r.image = image;
    r.view = view;
    impl_->resources.push_back(std::move(r));
    impl_->baked = false;
    return ResourceHandle(impl_->resources.size() - 1);
}

ResourceHandle FrameGraph::importBuffer(std::string name, VkBuffer buffer, VkDeviceSize size,
                                        const ExternalState& before, const ExternalState& after) {
    if (size == 0) throw Error("frame graph: imported buffer '" + name + "' has size 0");
    Resource r;
    r.name = std::move(name);
    r.imported = true;
    r.bufferDesc.size = size;
    r.before = before;
    r.after = after;
    r.buffer = buffer;
    impl_->resources.push_back(std::move(r));
    impl_->baked = false;
    return ResourceHandle(impl_->resources.size() - 1);
}

void FrameGraph::rebindImportedImage(ResourceHandle h, VkImage image, VkImageView view) {
    Resource& r = impl_->resource(h);
    if (!r.imported || !r.isImage) throw Error("frame graph: rebindImportedImage: '" + r.name + "' is not an imported image");
    r.image = image;
    r.view = view;
    impl_->patchAllBatches();
}

void FrameGraph::rebindImportedBuffer(ResourceHandle h, VkBuffer buffer) {
    Resource& r = impl_->resource(h);
    if (!r.imported || r.isImage) throw Error("frame graph: rebindImportedBuffer: '" + r.name + "' is not an imported buffer");
    r.buffer = buffer;
    impl_->patchAllBatches();
}

uint32_t FrameGraph::addPass(PassDesc pass) {
    impl_->passes.push_back(std::move(pass));
    const auto index = uint32_t(impl_->passes.size() - 1);
    impl_->slots.push_back({false, index});
    impl_->baked = false;
    return index;
}

void FrameGraph::addHook(std::string name) {
    auto& names = impl_->hookNames;
    if (std::find(names.begin(), names.end(), name) != names.end())
        throw Error("frame graph: hook '" + name + "' is declared twice");
    names.push_back(std::move(name));
    impl_->slots.push_back({true, uint32_t(names.size() - 1)});
    impl_->baked = false;
}

void FrameGraph::insertAtHook(std::string_view hook, PassDesc pass) {
    impl_->passes.push_back(std::move(pass));
    impl_->hooked.push_back({std::string(hook), uint32_t(impl_->passes.size() - 1)});
    impl_->baked = false;
}

std::vector<std::string> FrameGraph::hooks() const { return impl_->hookNames; }

const std::vector<BarrierBatch>& FrameGraph::barriers() const { return impl_->batches; }

std::vector<std::string> FrameGraph::passOrder() const {
    std::vector<std::string> names;
    names.reserve(impl_->order.size());
    for (const BakedPass& p : impl_->order) names.push_back(impl_->passes[p.pass].name);
    return names;
}

const BakeStats& FrameGraph::stats() const { return impl_->stats; }

VkImage FrameGraph::physicalImage(ResourceHandle h) const { return impl_->resource(h).image; }

VkBuffer FrameGraph::physicalBuffer(ResourceHandle h) const { return impl_->resource(h).buffer; }

bool FrameGraph::aliased(ResourceHandle a, ResourceHandle b) const {
    const Resource& ra = impl_->resource(a);
    const Resource& rb = impl_->resource(b);
    if (a == b || ra.heap < 0 || ra.heap != rb.heap) return false;
    return ra.offset < rb.offset + rb.size && rb.offset < ra.offset + ra.size;
}

}  // namespace engine
