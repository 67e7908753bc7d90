#pragma once
// Internal state of FrameGraph shared by its translation units:
//   frame_graph.cpp          declaration API, Access table, introspection
//   frame_graph_bake.cpp     bake phases: flatten hooks, validate, order, lifetimes
//   frame_graph_memory.cpp   transient VkImage/VkBuffer creation and memory aliasing
//   frame_graph_barriers.cpp barrier and layout-transition derivation
//   frame_graph_execute.cpp  recording
//   frame_graph_describe.cpp text dump for debugging
#include "engine/frame_graph.h"

#include <string>
#include <vector>

namespace engine {

// What one Access means to Vulkan inside a pass of a given type.
struct AccessInfo {
    VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  // images only
    VkImageUsageFlags imageUsage = 0;                  // 0: not an image access
    VkBufferUsageFlags bufferUsage = 0;                // 0: not a buffer access
    bool write = false;
};

AccessInfo accessInfo(Access access, PassType type);
// All uses of `resource` in `pass` merged into one (several reads may share a resource when
// their layouts agree; validateUses() rejects every other repetition).
AccessInfo passAccess(const PassDesc& pass, ResourceHandle resource, bool isImage);
// The layout two reads of one image in one pass can share, if any.
bool unifyLayouts(VkImageLayout a, VkImageLayout b, VkImageLayout& out);
// Null when `access` may appear in a pass of `type`, otherwise why not.
const char* accessNotAllowedIn(Access access, PassType type);
const char* toString(PassType type);
// Access bits that write memory (the availability half of a barrier needs only these).
VkAccessFlags2 writeAccessBits(VkAccessFlags2 access);
// Aspect of a transient's view, and the aspects a layout transition must name.
VkImageAspectFlags imageAspect(VkFormat format);
VkImageAspectFlags barrierAspect(VkFormat format);

struct Resource {
    std::string name;
    bool isImage = false;
    bool imported = false;
    ImageDesc imageDesc;
    BufferDesc bufferDesc;
    ExternalState before, after;  // imported only

    // Physical objects (imported: given by the caller; transient: created by bake()).
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;

    // Derived by bake().
    VkImageUsageFlags imageUsage = 0;
    VkBufferUsageFlags bufferUsage = 0;
    uint32_t firstUse = UINT32_MAX;  // baked pass index of first and last use
    uint32_t lastUse = 0;
    bool used() const { return firstUse != UINT32_MAX; }
    // Transient placement: which heap, where, how many bytes (aligned requirement size).
    int32_t heap = -1;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
};

// One VkDeviceMemory that transients of one memory type and kind (image or buffer) share.
struct Heap {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint32_t memoryType = 0;
    bool forImages = false;
    VkDeviceSize size = 0;
};

// A barrier batch plus which resource each barrier is about, so execute() can patch the
// handles of imported resources that were rebound after bake().
struct BatchOwners {
    std::vector<ResourceHandle> images;
    std::vector<ResourceHandle> buffers;
};

struct ColorTarget {
    ResourceHandle resource;
};

struct BakedPass {
    uint32_t pass = 0;        // index into Impl::passes
    int32_t batch = -1;       // index into Impl::batches recorded before this pass, or -1
    // Dynamic rendering (graphics passes with attachments).
    bool rendering = false;
    VkExtent2D extent{0, 0};
    std::vector<ResourceHandle> colorTargets;
    std::vector<VkRenderingAttachmentInfo> colorInfos;
    ResourceHandle depthTarget = kInvalidResource;
    VkRenderingAttachmentInfo depthInfo{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
};

struct FrameGraph::Impl {
    explicit Impl(Context& c) : ctx(c) {}

    Context& ctx;
    std::vector<Resource> resources;
    // Every pass, declared or hooked; addPass() returns an index into this.
    std::vector<PassDesc> passes;
    // Declaration sequence: a pass (index into passes) or a hook (index into hookNames).
    struct Slot {
        bool isHook = false;
        uint32_t index = 0;
    };
    std::vector<Slot> slots;
    std::vector<std::string> hookNames;
    struct HookedPass {
        std::string hook;
        uint32_t pass = 0;
    };
    std::vector<HookedPass> hooked;

    // Baked state.
    bool baked = false;
    std::vector<BakedPass> order;
    std::vector<BarrierBatch> batches;
    std::vector<BatchOwners> owners;
    int32_t finalBatch = -1;  // transitions of imported resources to their after-state
    std::vector<Heap> heaps;
    BakeStats stats;

    // Bake phases (see docs/FRAME_GRAPH.md).
    std::vector<uint32_t> flattenHooks() const;
    void validateUses(const std::vector<uint32_t>& sequence) const;
    std::vector<uint32_t> orderPasses(const std::vector<uint32_t>& sequence) const;
    void computeLifetimesAndUsage();
    void checkImageSupport(const Resource& r) const;
    void createTransients();
    void placeTransients();
    void deriveBarriers();
    void prepareRendering();
    // Destroys (or, with `retire`, hands over for later destruction) what bake() created.
    void releasePhysical(DeferredDeletion* retire = nullptr);

    const Resource& resource(ResourceHandle h) const;
    Resource& resource(ResourceHandle h);
    void patchHandles(BarrierBatch& batch, const BatchOwners& owners) const;
    void patchAllBatches() {
        for (size_t b = 0; b < batches.size(); ++b) patchHandles(batches[b], owners[b]);
    }
};

}  // namespace engine
