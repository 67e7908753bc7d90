// Transient resources: one VkImage/VkBuffer each, placed into shared VkDeviceMemory heaps.
//
// Aliasing policy: one heap per (memory type, images-or-buffers). Images and buffers never
// share a heap, which sidesteps bufferImageGranularity between linear and optimal resources.
// Within a heap, transients are placed largest first at the lowest aligned offset that does
// not overlap (in bytes) any already placed transient whose lifetime [firstUse, lastUse]
// overlaps its own. Transients with disjoint lifetimes may therefore share bytes; the barrier
// phase gives each first use an UNDEFINED-layout transition that waits for the previous
// occupants of those bytes.
#include "frame_graph_internal.h"

#include <vkutil/create_info.h>

#include "engine/context.h"
#include "engine/deferred_deletion.h"
#include "engine/error.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace engine {

namespace {
VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a) { return a ? (v + a - 1) / a * a : v; }

std::string hex(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%x", v);
    return buf;
}

bool hasDepth(VkFormat f) {
    switch (f) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return true;
    default: return false;
    }
}

struct Placement {
    ResourceHandle resource;
    VkDeviceSize size, alignment;
    uint32_t memoryType;
};
}  // namespace

VkImageAspectFlags imageAspect(VkFormat format) {
    return hasDepth(format) ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
}

VkImageAspectFlags barrierAspect(VkFormat format) {
    switch (format) {
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
    default: return imageAspect(format);
    }
}

// A format that cannot be used the way the passes declare is bad input: say so by name
// instead of letting vkCreateImage fail validation.
void FrameGraph::Impl::checkImageSupport(const Resource& r) const {
    VkImageFormatProperties props{};
    const VkResult result = vkGetPhysicalDeviceImageFormatProperties(
        ctx.physicalDevice(), r.imageDesc.format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, r.imageUsage, 0, &props);
    const std::string what = "frame graph: transient image '" + r.name + "' (VkFormat " +
                             std::to_string(int(r.imageDesc.format)) + ", usage 0x" + hex(r.imageUsage) + ")";
    if (result == VK_ERROR_FORMAT_NOT_SUPPORTED)
        throw Error(ErrorCode::Unsupported, what + " is not supported by the device for the accesses its passes declare", result);
    if (result != VK_SUCCESS) throw Error(what + ": vkGetPhysicalDeviceImageFormatProperties failed: " + toString(result), result);
    if (r.imageDesc.width > props.maxExtent.width || r.imageDesc.height > props.maxExtent.height)
        throw Error(ErrorCode::Unsupported, what + " is " + std::to_string(r.imageDesc.width) + "x" + std::to_string(r.imageDesc.height) +
                    ", larger than the device allows (" + std::to_string(props.maxExtent.width) + "x" +
                    std::to_string(props.maxExtent.height) + ")");
}

void FrameGraph::Impl::createTransients() {
    const VkDevice device = ctx.device();
    for (Resource& r : resources) {
        if (r.imported || !r.used()) continue;
        if (r.isImage) {
            checkImageSupport(r);
            const VkImageCreateInfo ici = vkutil::image2DInfo(r.imageDesc.format, {r.imageDesc.width, r.imageDesc.height}, r.imageUsage);
            VkResult result = vkCreateImage(device, &ici, nullptr, &r.image);
            if (result != VK_SUCCESS)
                throw Error("frame graph: creating transient image '" + r.name + "' failed: " + toString(result), result);
        } else {
            VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
            bci.size = r.bufferDesc.size;
            bci.usage = r.bufferUsage;
            bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
            VkResult result = vkCreateBuffer(device, &bci, nullptr, &r.buffer);
            if (result != VK_SUCCESS)
                throw Error("frame graph: creating transient buffer '" + r.name + "' failed: " + toString(result), result);
        }
    }
}

void FrameGraph::Impl::placeTransients() {
    const VkDevice device = ctx.device();
    stats.transientResources = 0;
    stats.transientBytes = 0;
    stats.transientBytesUnaliased = 0;
    std::vector<Placement> todo;
    for (ResourceHandle h = 0; h < resources.size(); ++h) {
        Resource& r = resources[h];
        if (r.imported || !r.used()) continue;
        VkMemoryRequirements req;
        if (r.isImage) vkGetImageMemoryRequirements(device, r.image, &req);
        else vkGetBufferMemoryRequirements(device, r.buffer, &req);
        const uint32_t type = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        todo.push_back({h, alignUp(req.size, req.alignment), req.alignment, type});
        ++stats.transientResources;
        stats.transientBytesUnaliased += alignUp(req.size, req.alignment);
    }
    // Largest first gives the big resources the low offsets and the small ones the gaps.
    std::stable_sort(todo.begin(), todo.end(), [](const Placement& a, const Placement& b) { return a.size > b.size; });

    std::vector<ResourceHandle> placed;
    for (const Placement& p : todo) {
        Resource& r = resources[p.resource];
        auto heapIt = std::find_if(heaps.begin(), heaps.end(), [&](const Heap& h) {
            return h.memoryType == p.memoryType && h.forImages == r.isImage;
        });
        if (heapIt == heaps.end()) heapIt = heaps.insert(heaps.end(), Heap{VK_NULL_HANDLE, p.memoryType, r.isImage, 0});
        const auto heapIndex = int32_t(heapIt - heaps.begin());

        // Byte ranges of placed transients in this heap that are alive at the same time.
        std::vector<const Resource*> conflicts;
        for (ResourceHandle q : placed) {
            const Resource& o = resources[q];
            if (o.heap == heapIndex && o.firstUse <= r.lastUse && r.firstUse <= o.lastUse) conflicts.push_back(&o);
        }
        std::sort(conflicts.begin(), conflicts.end(), [](const Resource* a, const Resource* b) { return a->offset < b->offset; });
        VkDeviceSize offset = 0;
        for (const Resource* c : conflicts) {
            if (offset + p.size <= c->offset) break;
            offset = std::max(offset, alignUp(c->offset + c->size, p.alignment));
        }
        r.heap = heapIndex;
        r.offset = offset;
        r.size = p.size;
        heapIt->size = std::max(heapIt->size, offset + p.size);
        placed.push_back(p.resource);
    }

    VkDeviceSize total = 0;
    for (const Heap& heap : heaps) total += heap.size;
    for (size_t i = 0; i < heaps.size(); ++i) {
        Heap& heap = heaps[i];
        VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        mai.allocationSize = heap.size;
        mai.memoryTypeIndex = heap.memoryType;
        // On failure the caller (bake) releases the heaps already allocated.
        const std::string transients = std::to_string(stats.transientResources) + " transients";
        heap.memory = ctx.allocateMemory(mai, heaps.size() == 1 ? "frame graph transient memory (" + transients + ")"
                                                                : "frame graph transient memory (" + std::string(heap.forImages ? "image" : "buffer") +
                                                                      " heap " + std::to_string(i + 1) + " of " + std::to_string(heaps.size()) +
                                                                      "; " + formatBytes(total) + " for all " + transients + ")");
        stats.transientBytes += heap.size;
    }
    for (Resource& r : resources) {
        if (r.heap < 0) continue;
        const VkDeviceMemory memory = heaps[size_t(r.heap)].memory;
        if (r.isImage) ENGINE_VK(vkBindImageMemory(device, r.image, memory, r.offset));
        else ENGINE_VK(vkBindBufferMemory(device, r.buffer, memory, r.offset));
        if (!r.isImage) continue;
        const VkImageViewCreateInfo vci = vkutil::imageView2DInfo(r.image, r.imageDesc.format, imageAspect(r.imageDesc.format));
        ENGINE_VK(vkCreateImageView(device, &vci, nullptr, &r.view));
    }
}

namespace {
// Vulkan objects of one bake, destroyed together (now, or later by DeferredDeletion).
struct BakedObjects {
    const Context* ctx = nullptr;
    std::vector<VkImageView> views;
    std::vector<VkImage> images;
    std::vector<VkBuffer> buffers;
    std::vector<VkDeviceMemory> memory;
    void destroy() const {
        const VkDevice device = ctx->device();
        for (VkImageView v : views) vkDestroyImageView(device, v, nullptr);
        for (VkImage i : images) vkDestroyImage(device, i, nullptr);
        for (VkBuffer b : buffers) vkDestroyBuffer(device, b, nullptr);
        for (VkDeviceMemory m : memory) ctx->freeMemory(m);
    }
};
}  // namespace

// Without `retire` the caller guarantees the GPU no longer uses the objects (see the
// FrameGraph contract); with it, they live until the frames recorded so far completed.
void FrameGraph::Impl::releasePhysical(DeferredDeletion* retire) {
    BakedObjects objects{&ctx, {}, {}, {}, {}};
    for (Resource& r : resources) {
        if (r.imported) continue;
        if (r.view) objects.views.push_back(r.view);
        if (r.image) objects.images.push_back(r.image);
        if (r.buffer) objects.buffers.push_back(r.buffer);
        r.view = VK_NULL_HANDLE;
        r.image = VK_NULL_HANDLE;
        r.buffer = VK_NULL_HANDLE;
        r.heap = -1;
        r.offset = r.size = 0;
    }
    for (Heap& h : heaps)
        if (h.memory) objects.memory.push_back(h.memory);
    const bool any = !objects.views.empty() || !objects.images.empty() || !objects.buffers.empty() || !objects.memory.empty();
    if (retire && any) retire->defer([objects] { objects.destroy(); });
    else objects.destroy();
    heaps.clear();
    order.clear();
    batches.clear();
    owners.clear();
    finalBatch = -1;
    stats = {};
    baked = false;
}

}  // namespace engine
