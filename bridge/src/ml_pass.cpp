#include "bridge/ml_pass.h"

#include "bridge/errors.h"
#include "engine/buffer.h"
#include "engine/error.h"
#include "binding_plan.h"
#include "tensor_conversion.h"

#include <vkutil/barrier.h>
#include <vkutil/descriptors.h>

#ifdef BRIDGE_HAS_ONNX
#include "mlplugin/onnx.h"
#endif

#include <algorithm>
#include <array>
#include <cstring>

namespace bridge {
namespace {

using detail::ConversionPipelines;
using mlplugin::BufferBinding;
using mlplugin::DataType;
using mlplugin::GraphDesc;
using mlplugin::TensorDesc;

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

std::string extent(VkExtent2D e) { return std::to_string(e.width) + "x" + std::to_string(e.height); }

#ifdef BRIDGE_HAS_ONNX
std::vector<uint8_t> readFile(const std::string& path, const std::string& who) {
    auto bytes = mlplugin::readOnnxFile(path);
    if (!bytes) throw toEngineError(bytes.error(), who);
    return std::move(*bytes);
}
#endif

}  // namespace

engine::ResourceHandle MlPassImages::source(FrameImage image) const {
    switch (image) {
    case FrameImage::Color: return color;
    case FrameImage::Albedo: return albedo;
    case FrameImage::Normal: return normal;
    case FrameImage::Depth: return depth;
    case FrameImage::Motion: return motion;
    }
    return engine::kInvalidResource;
}

// Everything that depends on the extents: the compiled graph, its weights, the conversion
// parameters and the per-slot descriptor ranges. Shared by the pass callbacks of every frame
// graph built at these extents, so it lives as long as the last of them.
struct MlPass::Network {
    Network(engine::Context& c, mlplugin::Device& d, std::shared_ptr<ConversionPipelines> p, std::shared_ptr<MlPassStats> s)
        : ctx(c), device(d), pipelines(std::move(p)), stats(std::move(s)) {}

    engine::Context& ctx;
    mlplugin::Device& device;
    std::shared_ptr<ConversionPipelines> pipelines;
    std::shared_ptr<MlPassStats> stats;
    std::string who;  // "MlPass 'name'" for messages
    VkExtent2D inputExtent{}, outputExtent{};

    GraphDesc graph;
    mlplugin::CompiledGraph compiled;
    mlplugin::BindingProperties props;
    std::unique_ptr<mlplugin::CommandRecorder> recorder;
    // The weights: shared with the networks this one was reshaped from (frame graphs of an
    // older extent may still record those while this one is built).
    std::shared_ptr<engine::Buffer> persistent;
    detail::BindingPlan plan;  // how the tensors meet the images (binding_plan.h)
    engine::Buffer toTensorParams;  // plan.toTensor as image_to_tensor.comp's uniform block, written once

    // One descriptor range per frame-in-flight slot, rewritten only when what it points at changes.
    struct Slot {
        vkutil::DescriptorPool pool;
        std::vector<VkDescriptorSet> graphSets;
        VkDescriptorSet toTensorSet = VK_NULL_HANDLE, toImageSet = VK_NULL_HANDLE;
        std::unique_ptr<mlplugin::BindingTable> table;
        // The network recorded once per binding (the frame graph records into primaries):
        // re-recorded when the table is bound again, which happens only once the slot's previous
        // frame has completed, so the old bundle is no longer pending when it is replaced.
        std::unique_ptr<mlplugin::CommandBundle> bundle;
        std::array<VkImageView, detail::kMaxSourceImages> sourceViews{};
        VkBuffer toTensorBuffer = VK_NULL_HANDLE;
        std::array<VkBuffer, 3> networkBuffers{};  // input, output, temporary
        VkBuffer toImageBuffer = VK_NULL_HANDLE;
        VkImageView toImageView = VK_NULL_HANDLE;
    };
    std::vector<Slot> slots;

    Slot& slot(uint32_t frameIndex);
    void initializeWeights();
    void recordToTensor(engine::PassContext& pc, const std::array<engine::ResourceHandle, detail::kMaxSourceImages>& images,
                        engine::ResourceHandle input);
    void recordNetwork(engine::PassContext& pc, engine::ResourceHandle input, engine::ResourceHandle output, engine::ResourceHandle temporary);
    void recordToImage(engine::PassContext& pc, engine::ResourceHandle output, engine::ResourceHandle image);
};

struct MlPass::Conversions : ConversionPipelines {
    using ConversionPipelines::ConversionPipelines;
};

MlPass::Network::Slot& MlPass::Network::slot(uint32_t frameIndex) {
    if (frameIndex >= slots.size()) slots.resize(frameIndex + 1);
    Slot& s = slots[frameIndex];
    if (s.pool) return s;
    const uint32_t graphSets = props.descriptorSetCount;
    const VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, graphSets * mlplugin::kDescriptorsPerSet + 2},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, detail::kMaxSourceImages},
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
    };
    ENGINE_VK(s.pool.create(ctx.device(), graphSets + 2, sizes));
    std::vector<VkDescriptorSetLayout> layouts(graphSets, device.descriptorSetLayout());
    layouts.push_back(pipelines->toTensorSetLayout);
    layouts.push_back(pipelines->toImageSetLayout);
    std::vector<VkDescriptorSet> sets(layouts.size());
    ENGINE_VK(s.pool.allocate(layouts, sets.data()));
    s.graphSets.assign(sets.begin(), sets.begin() + graphSets);
    s.toTensorSet = sets[graphSets];
    s.toImageSet = sets[graphSets + 1];
    s.table = take(device.createBindingTable({compiled.op.get(), {s.graphSets.data(), graphSets}}), who + ": binding table");
    return s;
}

void MlPass::Network::initializeWeights() {
    mlplugin::CompiledOperator* ops[] = {compiled.op.get()};
    auto initializer = take(device.createOperatorInitializer(ops), who + ": operator initializer");
    const uint32_t initSets = initializer->bindingProperties().descriptorSetCount;
    if (props.persistentBytes == 0 && initSets == 0) return;
    if (props.persistentBytes)
        persistent = std::make_shared<engine::Buffer>(ctx, props.persistentBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::DeviceLocal,
                                                      who + " weights (persistent resource)");
    // The constants blob is needed only here: an upload buffer the initializer reads directly.
    engine::Buffer constants;
    if (!compiled.constantData.empty()) {
        constants = engine::Buffer(ctx, alignUp(compiled.constantData.size(), 4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::Upload,
                                   who + " constants (initializer input)");
        std::memcpy(constants.mapped(), compiled.constantData.data(), compiled.constantData.size());
        constants.flush();
    }
    vkutil::DescriptorPool pool;
    std::vector<VkDescriptorSet> sets(initSets);
    ENGINE_VK(pool.createSets(ctx.device(), device.descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, mlplugin::kDescriptorsPerSet}, sets));
    auto table = take(device.createBindingTable({initializer.get(), {sets.data(), initSets}}), who + ": initializer binding table");
    std::vector<BufferBinding> inputs(graph.inputs.size());  // graph inputs are not the initializer's business
    inputs.push_back(constants.handle() ? BufferBinding{constants.handle(), 0, constants.size()} : BufferBinding{});
    BufferBinding output = props.persistentBytes ? BufferBinding{persistent->handle(), 0, props.persistentBytes} : BufferBinding{};
    check(table->bindInputs(inputs), who + ": initializer inputs");
    check(table->bindOutputs({&output, 1}), who + ": initializer outputs");
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        check(recorder->record(cmd, *initializer, *table), who + ": record initializer");
        // The weights are visible to every later compute read on the queue, so the frame
        // graph's import of them needs no per-frame barrier.
        vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, vkutil::kShaderStorageReadWrite,
                              VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, vkutil::kShaderStorageReadWrite);
    });
    ++stats->weightInitializations;
}

void MlPass::Network::recordToTensor(engine::PassContext& pc, const std::array<engine::ResourceHandle, detail::kMaxSourceImages>& images,
                                     engine::ResourceHandle input) {
    Slot& s = slot(pc.frameIndex());
    std::array<VkImageView, detail::kMaxSourceImages> views{};
    for (uint32_t i = 0; i < views.size(); ++i) views[i] = pc.imageView(images[i]);
    VkBuffer buffer = pc.buffer(input);
    if (views != s.sourceViews || buffer != s.toTensorBuffer) {
        VkDescriptorImageInfo imageInfos[detail::kMaxSourceImages];
        for (uint32_t i = 0; i < views.size(); ++i)
            imageInfos[i] = {pipelines->sampler, views[i], VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        vkutil::DescriptorWrites(s.toTensorSet)
            .images(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, imageInfos)
            .buffer(detail::kMaxSourceImages, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {buffer, 0, plan.inputBytes})
            .buffer(detail::kMaxSourceImages + 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {toTensorParams.handle(), 0, sizeof(detail::ToTensorParams)})
            .update(ctx.device());
        s.sourceViews = views;
        s.toTensorBuffer = buffer;
        ++stats->bindingUpdates;
    }
    VkCommandBuffer cmd = pc.commandBuffer();
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines->toTensor[plan.fp16 ? 1 : 0]);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines->toTensorLayout, 0, 1, &s.toTensorSet, 0, nullptr);
    vkCmdDispatch(cmd, (inputExtent.width + 7) / 8, (inputExtent.height + 7) / 8, 1);
}

void MlPass::Network::recordNetwork(engine::PassContext& pc, engine::ResourceHandle input, engine::ResourceHandle output,
                                    engine::ResourceHandle temporary) {
    Slot& s = slot(pc.frameIndex());
    std::array<VkBuffer, 3> buffers{pc.buffer(input), pc.buffer(output), temporary == engine::kInvalidResource ? VK_NULL_HANDLE : pc.buffer(temporary)};
    if (buffers != s.networkBuffers) {
        std::vector<BufferBinding> inputs;
        for (const detail::BindingPlan::Range& r : plan.inputRanges) inputs.push_back({buffers[0], r.offset, r.size});
        inputs.push_back({});  // the constants blob: bound to the initializer only
        BufferBinding out{buffers[1], 0, plan.outputBytes};
        check(s.table->bindInputs(inputs), who + ": bind inputs");
        check(s.table->bindOutputs({&out, 1}), who + ": bind output");
        if (props.temporaryBytes) check(s.table->bindTemporary({buffers[2], 0, props.temporaryBytes}), who + ": bind temporary");
        if (props.persistentBytes) check(s.table->bindPersistent({persistent->handle(), 0, props.persistentBytes}), who + ": bind persistent");
        s.networkBuffers = buffers;
        ++stats->bindingUpdates;
    }
    // The plugin binds its own placeholder buffer to unbound slots in every dispatchable; another
    // network recorded earlier in the command buffer touched it too, out of the frame graph's
    // sight. One compute barrier orders the two (it is the plugin's resource, not a graph one).
    mlplugin::recordComputeBarrier(device, pc.commandBuffer());
    if (!s.bundle || !s.bundle->current()) s.bundle = take(recorder->recordBundle(*compiled.op, *s.table), who + ": record the network's bundle");
    check(s.bundle->execute(pc.commandBuffer()), who + ": execute the network's bundle");
}

void MlPass::Network::recordToImage(engine::PassContext& pc, engine::ResourceHandle output, engine::ResourceHandle image) {
    Slot& s = slot(pc.frameIndex());
    VkBuffer buffer = pc.buffer(output);
    VkImageView view = pc.imageView(image);
    if (buffer != s.toImageBuffer || view != s.toImageView) {
        // Checked here, where the image's desc is known (the first record after a bake).
        const engine::ImageDesc& d = pc.imageDesc(image);
        if (d.format != VK_FORMAT_R16G16B16A16_SFLOAT || d.width != outputExtent.width || d.height != outputExtent.height)
            throw engine::Error(who + ": the output image must be RGBA16F " + extent(outputExtent) + " (format " + std::to_string(int(d.format)) +
                                     ", " + std::to_string(d.width) + "x" + std::to_string(d.height) + " given)");
        vkutil::DescriptorWrites(s.toImageSet)
            .buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {buffer, 0, plan.outputBytes})
            .image(1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL})
            .update(ctx.device());
        s.toImageBuffer = buffer;
        s.toImageView = view;
        ++stats->bindingUpdates;
    }
    VkCommandBuffer cmd = pc.commandBuffer();
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines->toImage[plan.fp16 ? 1 : 0]);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines->toImageLayout, 0, 1, &s.toImageSet, 0, nullptr);
    vkCmdPushConstants(cmd, pipelines->toImageLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(plan.toImage), &plan.toImage);
    vkCmdDispatch(cmd, (outputExtent.width + 7) / 8, (outputExtent.height + 7) / 8, 1);
}

MlPass::MlPass(engine::Context& ctx, mlplugin::Device& device, MlPassDesc desc)
    : ctx_(ctx), device_(device), desc_(std::move(desc)), stats_(std::make_shared<MlPassStats>()) {
    const std::string who = "MlPass '" + desc_.name + "'";
    const int models = int(!desc_.onnxPath.empty()) + int(!desc_.onnxBytes.empty()) + int(bool(desc_.buildGraph));
    if (models != 1)
        throw engine::Error(who + ": give exactly one model (onnxPath, onnxBytes or buildGraph); " + std::to_string(models) + " given");
#ifndef BRIDGE_HAS_ONNX
    if (!desc_.buildGraph) throw engine::Error(engine::ErrorCode::Unsupported, who + ": this build has no ONNX loader (libonnx-dev missing); use buildGraph");
#endif
#ifdef BRIDGE_HAS_ONNX
    // Parsed once: a new extent converts the parsed model again, it never re-reads the file.
    if (!desc_.buildGraph) {
        if (!desc_.onnxPath.empty()) desc_.onnxBytes = readFile(desc_.onnxPath, who);
        const std::string model = desc_.onnxPath.empty() ? std::string("(bytes)") : "'" + desc_.onnxPath + "'";
        parsed_ = take(mlplugin::parseOnnx(desc_.onnxBytes), who + ": model " + model);
        desc_.onnxBytes = {};
    }
#endif
    if (desc_.inputs.empty()) throw engine::Error(who + ": no input bindings (MlPassDesc::inputs)");
    for (size_t i = 0; i < desc_.inputs.size(); ++i) {
        const std::string what = who + ": input binding " + std::to_string(i) + (desc_.inputs[i].name.empty() ? "" : " '" + desc_.inputs[i].name + "'");
        if (desc_.inputs[i].channels.empty()) throw engine::Error(what + " reads no image channels");
        for (const ImageChannels& c : desc_.inputs[i].channels) detail::parseComponents(c.components, what);
    }
    conversions_ = std::make_shared<Conversions>(ctx);
}

MlPass::~MlPass() {
    if (network_ && desc_.retire) desc_.retire->retire(std::move(network_));
}

const MlPassStats& MlPass::stats() const { return *stats_; }
const mlplugin::GraphDesc* MlPass::graph() const { return network_ ? &network_->graph : nullptr; }
const mlplugin::CompiledGraph* MlPass::compiled() const { return network_ ? &network_->compiled : nullptr; }

DataType MlPass::computeType() const {
    if (desc_.dataType) return *desc_.dataType;
    const mlplugin::Capabilities& caps = device_.capabilities();
    return caps.fp16Storage && caps.fp16Arithmetic ? DataType::Float16 : DataType::Float32;
}

namespace {

// The three passes, each declaring what it touches. Each callback holds the network: a frame
// graph keeps what it records alive.
MlPassResources declarePasses(engine::FrameGraph& fg, const std::shared_ptr<MlPass::Network>& net, const std::string& name,
                              const MlPassImages& images) {
    const engine::ResourceHandle input = fg.createBuffer(name + ".input", {net->plan.inputBytes, 0});
    const engine::ResourceHandle output = fg.createBuffer(name + ".output", {alignUp(net->plan.outputBytes, 4), 0});
    const engine::ResourceHandle temporary =
        net->props.temporaryBytes ? fg.createBuffer(name + ".temporary", {net->props.temporaryBytes, 0}) : engine::kInvalidResource;
    const engine::ResourceHandle weights =
        net->props.persistentBytes ? fg.importBuffer(name + ".weights", net->persistent->handle(), net->props.persistentBytes, {}, {}) : engine::kInvalidResource;

    std::array<engine::ResourceHandle, detail::kMaxSourceImages> sources{};
    engine::PassDesc toTensor;
    toTensor.name = name + ".to_tensor";
    toTensor.type = engine::PassType::Compute;
    for (uint32_t i = 0; i < sources.size(); ++i) {
        // Unused bindings repeat the first image (every descriptor must be valid).
        sources[i] = images.source(net->plan.sources[i < net->plan.sources.size() ? i : 0]);
        if (i < net->plan.sources.size()) toTensor.uses.push_back({sources[i], engine::Access::SampledCompute});
    }
    toTensor.uses.push_back({input, engine::Access::StorageBufferWrite});
    toTensor.record = [net, sources, input](engine::PassContext& pc) { net->recordToTensor(pc, sources, input); };
    fg.addPass(std::move(toTensor));

    engine::PassDesc network;
    network.name = name + ".network";
    network.type = engine::PassType::Compute;
    // The plugin's buffer array is not readonly: inputs are declared read-write (BINDING_MODEL.md).
    network.uses = {{input, engine::Access::StorageBufferReadWrite}, {output, engine::Access::StorageBufferWrite}};
    if (temporary != engine::kInvalidResource) network.uses.push_back({temporary, engine::Access::StorageBufferReadWrite});
    if (weights != engine::kInvalidResource) network.uses.push_back({weights, engine::Access::StorageBufferRead});
    network.record = [net, input, output, temporary](engine::PassContext& pc) { net->recordNetwork(pc, input, output, temporary); };
    fg.addPass(std::move(network));

    engine::PassDesc toImage;
    toImage.name = name + ".to_image";
    toImage.type = engine::PassType::Compute;
    toImage.uses = {{output, engine::Access::StorageBufferRead}, {images.output, engine::Access::StorageImageWrite}};
    const engine::ResourceHandle image = images.output;
    toImage.record = [net, output, image](engine::PassContext& pc) { net->recordToImage(pc, output, image); };
    fg.addPass(std::move(toImage));
    return {input, output, temporary, weights};
}

}  // namespace

MlPassResources MlPass::addPasses(engine::FrameGraph& fg, const MlPassImages& images) {
    const std::string who = "MlPass '" + desc_.name + "'";
    if (images.output == engine::kInvalidResource) throw engine::Error(who + ": no output image");
    if (!images.inputExtent.width || !images.inputExtent.height || !images.outputExtent.width || !images.outputExtent.height)
        throw engine::Error(who + ": empty extent (input " + extent(images.inputExtent) + ", output " + extent(images.outputExtent) + ")");
    const bool reuse = network_ && network_->inputExtent.width == images.inputExtent.width &&
                       network_->inputExtent.height == images.inputExtent.height &&
                       network_->outputExtent.width == images.outputExtent.width && network_->outputExtent.height == images.outputExtent.height;
    if (!reuse) prepareNetwork(images, who);
    return declarePasses(fg, network_, desc_.name, images);
}

// The network at these extents: its binding plan, then a reshape of the current compilation
// (weights kept) or a fresh compile and weight upload.
void MlPass::prepareNetwork(const MlPassImages& images, const std::string& who) {
    auto net = std::make_shared<Network>(ctx_, device_, conversions_, stats_);
    net->who = who;
    net->inputExtent = images.inputExtent;
    net->outputExtent = images.outputExtent;
    const uint32_t w = images.inputExtent.width, h = images.inputExtent.height;
    if (desc_.buildGraph) {
        net->graph = desc_.buildGraph(w, h);
        for (mlplugin::ValueId v : net->graph.inputs) net->graph.values[v].freeDimMask |= mlplugin::kFreeHeightWidth;  // [1, C, H, W]
    } else {
#ifdef BRIDGE_HAS_ONNX
        mlplugin::OnnxLoadOptions options;
        options.freeDimensions[desc_.heightDim] = h;
        options.freeDimensions[desc_.widthDim] = w;
        options.computeType = computeType();
        std::string model = desc_.onnxPath.empty() ? std::string("(bytes)") : "'" + desc_.onnxPath + "'";
        net->graph = std::move(take(mlplugin::loadOnnx(*parsed_, options), who + ": model " + model + " at " + extent(images.inputExtent)).graph);
#endif
    }
    const GraphDesc& g = net->graph;

    net->plan = detail::planBindings(who, g, desc_.inputs, desc_.output, images.inputExtent, images.outputExtent,
                                     [&images](FrameImage f) { return images.source(f) != engine::kInvalidResource; });
    if (net->plan.fp16 && !conversions_->fp16Supported())
        throw engine::Error(engine::ErrorCode::Unsupported, who + ": the model has fp16 inputs/outputs but the device lacks 16-bit storage or fp16 arithmetic");

    uint32_t flags = desc_.compileFlags;
    if (!desc_.buildGraph && !desc_.dataType && computeType() == DataType::Float16) flags |= mlplugin::ExecutionFlagAllowHalfPrecisionComputation;
    // A new extent of the same network is a reshape: the weights stay. A graph function that
    // builds another network at this size (or the first extent) compiles afresh.
    mlplugin::Result<mlplugin::CompiledGraph> reshaped =
        network_ ? mlplugin::reshapeGraph(device_, network_->compiled, g) : mlplugin::Error{mlplugin::ErrorCode::InvalidArgument, "first extent"};
    const bool isReshape = reshaped.ok();
    if (isReshape) {
        net->compiled = std::move(reshaped).value();
        ++stats_->reshapes;
    } else {
        net->compiled = take(mlplugin::compileGraph(device_, g, flags), who + ": compileGraph at " + extent(images.inputExtent));
        ++stats_->compilations;
    }
    net->props = net->compiled.op->bindingProperties();
    net->recorder = take(device_.createCommandRecorder(), who + ": command recorder");
    net->toTensorParams = engine::Buffer(ctx_, sizeof(net->plan.toTensor), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, engine::MemoryUsage::Upload,
                                         who + " conversion parameters");
    std::memcpy(net->toTensorParams.mapped(), &net->plan.toTensor, sizeof(net->plan.toTensor));
    net->toTensorParams.flush();
    if (isReshape && net->compiled.report.persistentReused) net->persistent = network_->persistent;
    else net->initializeWeights();
    if (network_ && desc_.retire) desc_.retire->retire(std::move(network_));
    network_ = std::move(net);
}

engine::UpscalerFn MlPass::upscaler() {
    return [this](engine::FrameGraph& fg, const engine::OutputStage& stage) {
        MlPassImages images;
        images.color = stage.color;
        images.albedo = stage.albedo;
        images.normal = stage.normal;
        images.depth = stage.depth;
        images.motion = stage.motion;
        images.output = stage.output;
        images.inputExtent = stage.renderExtent;
        images.outputExtent = stage.outputExtent;
        addPasses(fg, images);
    };
}

engine::DenoiserFn MlPass::denoiser() {
    return [this](engine::FrameGraph& fg, const engine::DenoiseStage& stage) {
        MlPassImages images;
        images.color = stage.color;
        images.albedo = stage.albedo;
        images.normal = stage.normal;
        images.depth = stage.depth;
        images.output = stage.output;
        images.inputExtent = stage.extent;
        images.outputExtent = stage.extent;
        addPasses(fg, images);
    };
}

}  // namespace bridge
