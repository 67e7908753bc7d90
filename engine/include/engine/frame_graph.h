#pragma once
/// \file
/// FrameGraph: passes declare which images and buffers they read and write, and how; bake()
/// orders them, derives every barrier and image layout transition (synchronization2), places
/// transient resources in memory (aliasing those whose lifetimes do not overlap) and reports
/// graph errors; execute() records all passes into one command buffer.
///
/// Hooks are named points in the pass list where external code (the ML bridge, a debug view)
/// inserts passes that declare their resource use like any other: they get the same barriers,
/// timing and aliasing.
///
/// Lifecycle: build (declare resources, passes, hooks) -> bake() once -> execute() every frame.
/// Rebuild and re-bake when the resolution or the set of passes changes.
///
/// Contract (details and rationale: docs/FRAME_GRAPH.md):
///  - Ordering: a read sees the latest write declared before it; a read of a transient with no
///    earlier writer sees the first later writer (the reader moves after it). Writes stay after
///    earlier reads (WAR) and writes (WAW). Otherwise declaration order is kept.
///  - Record callbacks record only their work: no barriers on graph resources, no render pass
///    begin/end (the graph does both), no submission. They may bind anything, push constants,
///    allocate descriptor sets from the frame's DescriptorArena, and barrier their own
///    internal resources (e.g. between dispatches of an ML graph).
///  - A resource appears once in a pass's uses, except several reads that can share a layout
///    (a depth image both depth-tested read-only and sampled: DEPTH_STENCIL_READ_ONLY_OPTIMAL).
///  - Images are single-mip, single-layer 2D (transients); barriers on imported images cover
///    all mips and layers. Transient contents are undefined at the start of every frame.
///  - An imported resource is in `before` when the command buffer starts executing and is left
///    in `after` (after.layout UNDEFINED: keep the last layout; after.stages NONE with no
///    layout change: no trailing barrier, the caller synchronizes, e.g. with a semaphore).
///  - execute() may record the same baked graph for consecutive frames in flight on ONE queue:
///    a transient's first barrier waits for the previous frame's last accesses of its memory.
///  - Destroying the graph destroys its transients: only once the GPU finished every frame
///    that executed it (Frames::waitIdle, or retire the graph through DeferredDeletion).
///    Re-baking while frames are in flight: pass Frames::deletion() to bake().
///  - Errors: graph errors throw engine::Error from bake() naming pass and resource; handles
///    not from this graph throw too. Not thread-safe.
#include "engine/export.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

ENGINE_API_BEGIN
namespace engine {

class Context;
class DeferredDeletion;
class GpuTimer;

/// A resource of one FrameGraph (image or buffer, transient or imported).
using ResourceHandle = uint32_t;
/// No resource.
inline constexpr ResourceHandle kInvalidResource = UINT32_MAX;

/// How a pass uses a resource. Each maps to a (stage, access, layout) triple in the graph.
enum class Access : uint32_t {
    ColorAttachmentWrite,   ///< image: rendered into (contents loaded or cleared, see PassDesc)
    DepthAttachmentWrite,   ///< image: depth test + write
    DepthAttachmentRead,    ///< image: depth test only
    SampledFragment,        ///< image: texture() in a fragment shader
    SampledCompute,         ///< image: texture() in a compute shader
    StorageImageRead,       ///< image: imageLoad in compute
    StorageImageWrite,      ///< image: imageStore in compute (contents not preserved)
    StorageImageReadWrite,  ///< image: both
    StorageBufferRead,      ///< buffer: compute shader reads
    StorageBufferWrite,     ///< buffer: compute shader writes (contents not preserved)
    StorageBufferReadWrite, ///< buffer: both
    TransferRead,           ///< image or buffer: copy/blit source
    TransferWrite,          ///< image or buffer: copy/blit/clear destination
    IndirectRead,           ///< buffer: indirect draw/dispatch arguments
    VertexBufferRead,       ///< buffer: vertex input
    UniformBufferRead,      ///< buffer: uniform block in the pass's shaders (compute, or vertex+fragment)
};
/// True for the accesses that write.
bool isWrite(Access access);
/// "StorageBufferRead", ... (for messages).
const char* toString(Access access);

/// Which stages a pass runs on (graphics passes with attachments get dynamic rendering).
enum class PassType { Graphics, Compute, Transfer };

/// A 2-D image: format and size.
struct ImageDesc {
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;  ///< texel format
    uint32_t width = 0;  ///< pixels
    uint32_t height = 0;  ///< pixels
    VkImageUsageFlags extraUsage = 0;  ///< usage beyond what the declared accesses imply
};

/// A buffer's size.
struct BufferDesc {
    VkDeviceSize size = 0;  ///< bytes
    VkBufferUsageFlags extraUsage = 0;  ///< usage beyond what the declared accesses imply
};

/// State an imported resource is in before the frame and must be left in after it.
struct ExternalState {
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  ///< images only
    VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;  ///< stages that access it outside the graph
    VkAccessFlags2 access = VK_ACCESS_2_NONE;  ///< accesses made outside the graph
};

/// What a pass's record callback sees: the physical objects behind its handles.
class PassContext {
public:
    virtual ~PassContext() = default;
    /// The command buffer being recorded.
    virtual VkCommandBuffer commandBuffer() const = 0;
    /// The image behind `h`.
    virtual VkImage image(ResourceHandle h) const = 0;
    /// A view of the whole image behind `h`.
    virtual VkImageView imageView(ResourceHandle h) const = 0;
    /// Format and size of the image behind `h`.
    virtual const ImageDesc& imageDesc(ResourceHandle h) const = 0;
    /// The buffer behind `h`.
    virtual VkBuffer buffer(ResourceHandle h) const = 0;
    /// Its size in bytes.
    virtual VkDeviceSize bufferSize(ResourceHandle h) const = 0;
    virtual uint32_t frameIndex() const = 0;  ///< which frame-in-flight slot is recording
    /// Size of the pass's attachments (graphics passes with attachments; {0,0} otherwise). The
    /// graph begins rendering with this render area; the callback sets viewport and scissor.
    virtual VkExtent2D renderExtent() const = 0;
    /// The GPU timer the graph is executed with (nullptr without one). The pass runs inside its
    /// own scope (named after the pass); the callback may open nested scopes, e.g. one per
    /// dispatch, and must close them before it returns.
    virtual GpuTimer* timer() const { return nullptr; }
};

/// Records a pass's work (see the contract above: no barriers on graph resources).
using RecordFn = std::function<void(PassContext&)>;

/// One resource a pass uses, and how.
struct ResourceUse {
    ResourceHandle resource = kInvalidResource;  ///< the resource
    Access access = Access::StorageBufferRead;  ///< how the pass accesses it
};

/// A pass: what it uses and the callback that records it.
struct PassDesc {
    std::string name;  ///< unique; names the pass in errors, timings and describe()
    PassType type = PassType::Graphics;  ///< where it runs
    std::vector<ResourceUse> uses;  ///< every graph resource the pass touches
    /// Graphics passes with attachments: the graph begins/ends dynamic rendering around
    /// `record`, clearing color attachments to clearColor (or loading them when loadColor) and
    /// depth to clearDepth.
    bool loadColor = false;
    /// The pass writes every pixel of its colour attachments (a full-screen draw behind the
    /// geometry, say): they start undefined instead of cleared (loadOp DONT_CARE), which saves a
    /// full-size clear. Ignored when loadColor is set.
    bool coversColor = false;
    float clearColor[4] = {0, 0, 0, 1};  ///< RGBA clear value of the colour attachments
    float clearDepth = 1.0f;  ///< depth clear value
    bool loadDepth = false;  ///< DepthAttachmentWrite: keep the contents instead of clearing
    RecordFn record;  ///< records the work
};

/// One barrier batch recorded before a pass (exposed for tests and debugging). Handles of
/// imported resources follow rebindImported*().
struct BarrierBatch {
    uint32_t beforePass = 0;  ///< index into the baked order; passCount: after the last pass
    std::vector<VkImageMemoryBarrier2> images;  ///< image barriers (layout transitions)
    std::vector<VkBufferMemoryBarrier2> buffers;  ///< buffer barriers
    std::vector<VkMemoryBarrier2> memory;  ///< global memory barriers
};

/// What bake() produced.
struct BakeStats {
    uint32_t passCount = 0;  ///< passes in the baked order
    uint32_t transientResources = 0;  ///< transient images and buffers
    VkDeviceSize transientBytes = 0;         ///< memory actually allocated for transients
    VkDeviceSize transientBytesUnaliased = 0;  ///< what it would take without aliasing
};

/// A frame's passes and resources; see the file description for the contract.
class FrameGraph {
public:
    /// An empty graph on `ctx`.
    explicit FrameGraph(Context& ctx);
    ~FrameGraph();
    FrameGraph(const FrameGraph&) = delete;
    FrameGraph& operator=(const FrameGraph&) = delete;

    /// Transient resources: created and placed by bake(), contents undefined at frame start.
    ResourceHandle createImage(std::string name, const ImageDesc& desc);
    /// A transient buffer.
    ResourceHandle createBuffer(std::string name, const BufferDesc& desc);
    /// External resources (swapchain image, readback buffer, persistent weights, history).
    ResourceHandle importImage(std::string name, VkImage image, VkImageView view, const ImageDesc& desc,
                               const ExternalState& before, const ExternalState& after);
    /// An external buffer, in `before` at frame start and left in `after`.
    ResourceHandle importBuffer(std::string name, VkBuffer buffer, VkDeviceSize size,
                                const ExternalState& before, const ExternalState& after);
    /// Re-points an imported resource (e.g. next swapchain image) without re-baking.
    void rebindImportedImage(ResourceHandle h, VkImage image, VkImageView view);
    /// Re-points an imported buffer without re-baking.
    void rebindImportedBuffer(ResourceHandle h, VkBuffer buffer);

    /// Passes run in the order added, subject to dependencies (a pass never moves before a
    /// pass it depends on). Returns the pass index.
    uint32_t addPass(PassDesc pass);
    /// A named insertion point at the current position of the pass list.
    void addHook(std::string name);
    /// Passes registered for a hook are inserted where addHook(name) was called (in
    /// registration order). Register before or after the hook is declared, before bake().
    void insertAtHook(std::string_view hook, PassDesc pass);
    /// The declared hook names, in pass-list order.
    std::vector<std::string> hooks() const;

    /// Validates (unknown hook, read of a never-written transient, cycle, conflicting use in
    /// one pass), orders, allocates and aliases transients, computes barriers. Throws
    /// engine::Error with a message naming the pass and resource on a graph error.
    /// Re-baking replaces the transients of the previous bake: they are destroyed at once, or,
    /// with `retire`, handed to it (e.g. Frames::deletion()) so frames still in flight keep
    /// them until they complete. When the transient memory cannot be allocated (the device, or
    /// the context's budget) it throws ErrorCode::OutOfMemory naming the bytes needed, and the
    /// graph is left unbaked holding nothing of that bake.
    void bake(DeferredDeletion* retire = nullptr);
    /// Records every pass (and its barriers) into `cmd`. With a timer, each pass (barriers,
    /// rendering and callback) is wrapped in a scope named after the pass; call
    /// timer->beginFrame(cmd, frameIndex) first. Allocates nothing per frame.
    void execute(VkCommandBuffer cmd, uint32_t frameIndex, GpuTimer* timer = nullptr);

    /// Introspection (valid after bake()).
    const std::vector<BarrierBatch>& barriers() const;
    /// Pass names in the baked order.
    std::vector<std::string> passOrder() const;
    /// Counts and transient memory of the bake.
    const BakeStats& stats() const;
    /// The VkImage behind `h`.
    VkImage physicalImage(ResourceHandle h) const;
    /// The VkBuffer behind `h`.
    VkBuffer physicalBuffer(ResourceHandle h) const;
    /// True when two transients were given overlapping memory.
    bool aliased(ResourceHandle a, ResourceHandle b) const;
    /// Human-readable baked graph: pass order with uses and barriers, transient placement.
    /// For logs and debugging; the format is not an API.
    std::string describe() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace engine
ENGINE_API_END
