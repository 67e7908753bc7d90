#pragma once
/// \file
/// MlPass: a compiled network recorded inside the engine's frame, as frame-graph passes.
///
///   bridge::MlPass upscaler(ctx, *device, {
///       .name = "ml_upscale", .onnxPath = "assets/upscaler_x2.onnx",
///       .inputs = {{.name = "color", .channels = {{.image = FrameImage::Color, .encoding = Encoding::Srgb}}}},
///       .output = {.encoding = Encoding::Srgb}});
///   renderer.setUpscaler(upscaler.upscaler());   // render resolution in, output resolution out
///   (or renderer.setDenoiser(denoiser.denoiser()) for a network at render resolution)
///
/// Per addPasses() it adds three compute passes, each declaring what it touches so the frame
/// graph places every barrier and layout transition:
///   `<name>.to_tensor`  samples the source images, writes every graph input (one dispatch)
///   `<name>.network`    the compiled graph (inter-dispatch barriers are the recorder's)
///   `<name>.to_image`   graph output -> the output image (storage write)
/// Graph inputs, output and the plugin's temporary resource are frame-graph transient buffers
/// (aliased with other transients when lifetimes allow); the persistent resource (weights) is
/// an imported buffer owned by the MlPass.
///
/// Resolution: the network is compiled at the first extent addPasses() sees (ONNX models with free
/// dims heightDim/widthDim set to the input extent, or buildGraph(width, height)) and its weights
/// initialized (OperatorInitializer, one submission at build time), never per frame. A new extent
/// is a reshape (mlplugin::reshapeGraph): the model, parsed once at construction, is converted
/// at the new extent (or buildGraph called again; its inputs' H and W are the free dims) and the
/// shapes, kernels and temporary sizes recomputed, while the weights stay as they are: no file
/// read, no upload, no submission (stats().reshapes). Only when the plugin reports that a kernel
/// at the new extents lays the weights out differently are they initialized again; a buildGraph
/// that returns another network at the new size is compiled afresh. Rebuilding a frame graph at
/// unchanged extents reuses everything.
/// Objects of an older compilation stay alive while a frame graph that records them exists,
/// and are released through `retire` (e.g. Frames::deletion()) when given.
///
/// Descriptors: each frame-in-flight slot (PassContext::frameIndex()) has its own descriptor
/// range and binding table, written only when the frame graph's physical buffers/views behind
/// it change (a re-bake), so a frame in flight is never overwritten and steady state writes none.
///
/// Errors throw engine::Error naming the pass, the tensor and the numbers, from the constructor
/// or addPasses() (i.e. Renderer::build()), with the code saying what kind: IoError (model file
/// unreadable), InvalidModel (graph inputs/outputs that do not fit the bindings or extents, a
/// malformed ONNX file), InvalidArgument (bad MlPassDesc/images), Unsupported (fp16 on a device
/// without it), OutOfMemory, DeviceLost (plugin errors keep their code: bridge/errors.h).
///
/// The MlPass must outlive the frame graphs and renderer builds that use its passes.
#include "bridge/export.h"
#include "bridge/tensor_binding.h"
#include "engine/context.h"
#include "engine/deferred_deletion.h"
#include "engine/frame_graph.h"
#include "engine/renderer.h"
#include "mlplugin/graph.h"
#include "mlplugin/mlplugin.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

BRIDGE_API_BEGIN
namespace mlplugin {
struct ParsedOnnx;  // mlplugin/onnx.h
}

namespace bridge {

/// Builds the network for an input extent (MlPassDesc::buildGraph).
using GraphFn = std::function<mlplugin::GraphDesc(uint32_t width, uint32_t height)>;

/// What an MlPass runs and how its tensors meet the frame's images.
struct MlPassDesc {
    std::string name = "ml";  ///< pass names "<name>.network" etc. (GPU timer scopes)
    /// The model: exactly one of an ONNX file, ONNX bytes, or a graph built per input extent.
    std::string onnxPath;
    std::vector<uint8_t> onnxBytes;  ///< an ONNX model in memory
    GraphFn buildGraph;  ///< a graph built in code per input extent
    std::string heightDim = "H";  ///< ONNX free dim set to the input height
    std::string widthDim = "W";   ///< ONNX free dim set to the input width
    /// ONNX tensors (buildGraph: its own descs). Unset: fp16 where the device has fp16 storage and
    /// arithmetic, compiled with ExecutionFlagAllowHalfPrecisionComputation (what ml_bench
    /// measures as fastest and docs/QUALITY.md shows loses no PSNR on the shipped networks);
    /// fp32 elsewhere.
    std::optional<mlplugin::DataType> dataType;
    uint32_t compileFlags = 0;  ///< mlplugin::ExecutionFlags | GraphCompileFlags
    std::vector<TensorInput> inputs;  ///< one per graph input
    TensorOutput output;  ///< how the graph output becomes the output image
    engine::DeferredDeletion* retire = nullptr;  ///< where objects of an old compilation go
};

/// The frame-graph images of one addPasses() call. Sources the bindings do not read may be
/// kInvalidResource.
struct MlPassImages {
    engine::ResourceHandle color = engine::kInvalidResource;   ///< sampled (any float/unorm format)
    engine::ResourceHandle albedo = engine::kInvalidResource;  ///< sampled
    engine::ResourceHandle normal = engine::kInvalidResource;  ///< sampled
    engine::ResourceHandle depth = engine::kInvalidResource;  ///< sampled
    engine::ResourceHandle motion = engine::kInvalidResource;  ///< sampled
    engine::ResourceHandle output = engine::kInvalidResource;  ///< RGBA16F, storage, fully written
    VkExtent2D inputExtent{};   ///< of every source image
    VkExtent2D outputExtent{};  ///< of `output`
    /// The handle of `image`.
    engine::ResourceHandle source(FrameImage image) const;
};

/// The frame-graph resources one addPasses() call created (for introspection, e.g. aliasing).
struct MlPassResources {
    engine::ResourceHandle input = engine::kInvalidResource;      ///< transient: every graph input
    engine::ResourceHandle output = engine::kInvalidResource;     ///< transient: the graph output
    engine::ResourceHandle temporary = engine::kInvalidResource;  ///< transient: the plugin's temporary (if any)
    engine::ResourceHandle weights = engine::kInvalidResource;    ///< imported: the persistent resource (if any)
};

/// What an MlPass has done so far (tests check that steady state does nothing).
struct MlPassStats {
    uint32_t compilations = 0;           ///< compileGraph: the first extent (or another network from buildGraph)
    uint32_t reshapes = 0;               ///< reshapeGraph: each later extent (weights kept)
    uint32_t weightInitializations = 0;  ///< OperatorInitializer submissions
    uint32_t bindingUpdates = 0;         ///< per-slot descriptor (re)writes at record time
};

/// A network as frame-graph passes; see the file description.
class MlPass {
public:
    /// Loads or builds the model (compiled at the first addPasses()); throws engine::Error naming
    /// the problem (IoError: a missing file; InvalidArgument: a bad binding).
    MlPass(engine::Context& ctx, mlplugin::Device& device, MlPassDesc desc);
    ~MlPass();
    MlPass(const MlPass&) = delete;
    MlPass& operator=(const MlPass&) = delete;

    /// Adds the pass's passes to `graph` (before bake()), compiling for new extents first.
    MlPassResources addPasses(engine::FrameGraph& graph, const MlPassImages& images);
    /// For Renderer::setUpscaler: stage.color etc. at render resolution -> stage.output.
    engine::UpscalerFn upscaler();
    /// For Renderer::setDenoiser: noisy stage.color, albedo, normal, depth -> stage.output, all
    /// at render resolution.
    engine::DenoiserFn denoiser();

    /// Compilations, reshapes, weight initializations and binding updates so far.
    const MlPassStats& stats() const;
    /// The graph and compilation of the latest addPasses() (nullptr before the first).
    const mlplugin::GraphDesc* graph() const;
    /// The compilation of the latest addPasses() (nullptr before the first).
    const mlplugin::CompiledGraph* compiled() const;

    struct Network;
    struct Conversions;

    /// The ONNX tensors' type: desc.dataType, else fp16 where the device has it.
    mlplugin::DataType computeType() const;

private:
    void prepareNetwork(const MlPassImages& images, const std::string& who);  // compile or reshape for new extents

    engine::Context& ctx_;
    mlplugin::Device& device_;
    MlPassDesc desc_;
    std::shared_ptr<Conversions> conversions_;
    std::shared_ptr<Network> network_;
    std::shared_ptr<MlPassStats> stats_;
    std::shared_ptr<const mlplugin::ParsedOnnx> parsed_;  // ONNX models, parsed at construction
};

}  // namespace bridge
BRIDGE_API_END
