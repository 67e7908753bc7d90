#include "temporal_network.h"

#include "mlplugin/onnx.h"

#include <vkutil/barrier.h>
#include <vkutil/descriptors.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

namespace effects::detail {
namespace {

Error withContext(const Error& e, const std::string& who) { return {e.code, who + ": " + e.message, e.vkResult}; }

std::string shapeString(const std::vector<uint32_t>& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
    return out + "]";
}

// NetworkDesc::detachPointwiseHead: takes the node writing the graph's only output out of the
// graph when it is a pointwise head, making the value it reads the output; returns the head's
// weights packed as PointwiseHead lays them out (outputs in `order`, the model's when empty), or
// nothing (the graph unchanged) when the model ends otherwise or they would exceed maxBytes (0: any).
std::optional<std::vector<float>> detachPointwiseHead(mlplugin::GraphDesc& g, const std::vector<uint32_t>& order, uint32_t maxBytes,
                                                      uint32_t& hiddenChannels, uint32_t& outputChannels) {
    using Kind = mlplugin::GraphValue::Kind;
    if (g.outputs.size() != 1) return std::nullopt;
    const mlplugin::ValueId out = g.outputs[0];
    auto writer = std::find_if(g.nodes.begin(), g.nodes.end(), [&](const mlplugin::GraphNode& n) {
        return std::find(n.outputs.begin(), n.outputs.end(), out) != n.outputs.end();
    });
    if (writer == g.nodes.end() || writer->inputs.size() < 2) return std::nullopt;
    const auto* conv = std::get_if<mlplugin::ConvolutionDesc>(&writer->op);
    const mlplugin::ValueId hidden = writer->inputs[0], filter = writer->inputs[1];
    const mlplugin::ValueId bias = writer->inputs.size() > 2 ? writer->inputs[2] : mlplugin::kNoValue;
    if (!conv || conv->transposed || conv->groups != 1 || conv->activation.type != mlplugin::ActivationType::None) return std::nullopt;
    if (conv->strides != std::array<uint32_t, 2>{1, 1} || conv->padBegin != std::array<uint32_t, 2>{0, 0} ||
        conv->padEnd != std::array<uint32_t, 2>{0, 0})
        return std::nullopt;
    if (hidden >= g.values.size() || filter >= g.values.size() || g.values[hidden].kind != Kind::Intermediate) return std::nullopt;
    const mlplugin::TensorDesc& f = g.values[filter].desc;
    if (g.values[filter].kind != Kind::Constant || f.rank != 4 || f.sizes[2] != 1 || f.sizes[3] != 1) return std::nullopt;
    if (bias != mlplugin::kNoValue && (bias >= g.values.size() || g.values[bias].kind != Kind::Constant)) return std::nullopt;
    const uint32_t cout = f.sizes[0], cin = f.sizes[1];
    const std::vector<float>& w = g.values[filter].constantData;
    if (w.size() != size_t(cout) * cin || (bias != mlplugin::kNoValue && g.values[bias].constantData.size() != cout)) return std::nullopt;
    if ((!order.empty() && order.size() != cout) || (maxBytes && (uint64_t(cin) + 1) * cout * sizeof(float) > maxBytes)) return std::nullopt;
    // The hidden value must be read by the head alone (and be no output of the graph already).
    for (const mlplugin::GraphNode& n : g.nodes)
        if (&n != &*writer && std::find(n.inputs.begin(), n.inputs.end(), hidden) != n.inputs.end()) return std::nullopt;
    std::vector<float> packed(size_t(cin + 1) * cout);
    for (uint32_t k = 0; k < cout; ++k) {
        const uint32_t model = order.empty() ? k : order[k];
        for (uint32_t i = 0; i < cin; ++i) packed[size_t(i) * cout + k] = w[size_t(model) * cin + i];
        packed[size_t(cin) * cout + k] = bias == mlplugin::kNoValue ? 0.0f : g.values[bias].constantData[model];
    }
    g.nodes.erase(writer);
    g.outputs[0] = hidden;
    hiddenChannels = cin;
    outputChannels = cout;
    return packed;
}

}  // namespace

Result<std::unique_ptr<mlplugin::Device>> createPluginDevice(const EffectDevice& d, const std::string& who) {
    auto device = mlplugin::createDevice(pluginDeviceDesc(d));
    if (!device) return Error{device.error().code, who + ": " + device.error().message, device.error().vkResult};
    if (d.tuning) (*device)->setTuningTable(d.tuning);
    return std::move(*device);
}

Result<std::vector<uint8_t>> readModelFile(const std::string& path, const std::string& who) {
    auto bytes = mlplugin::readOnnxFile(path);
    if (!bytes) return Error{bytes.error().code, who + ": " + bytes.error().message, VK_SUCCESS};
    return std::move(*bytes);
}

Result<std::unique_ptr<Network>> Network::create(const VulkanApi& vk, mlplugin::Device& device, const NetworkDesc& desc,
                                                 MemoryTally& tally) {
    std::unique_ptr<Network> n(new Network(vk, device));
    if (Status s = n->build(desc, tally); !s) return s.error();
    return n;
}

Status Network::build(const NetworkDesc& desc, MemoryTally& tally) {
    who_ = desc.who;
    fp16_ = desc.fp16;
    channelsLast_ = desc.channelsLast;
    mlplugin::OnnxLoadOptions options;
    options.computeType = fp16_ ? mlplugin::DataType::Float16 : mlplugin::DataType::Float32;
    for (const NetworkTensor& t : desc.inputs) options.inputShapes[t.name] = t.shape;
    auto model = mlplugin::loadOnnx(desc.onnx, options);
    if (!model) {
        // A model the loader cannot shape with the effect's tensors does not fit the effect.
        if (model.error().code != ErrorCode::InvalidArgument) return withContext(model.error(), who_);
        std::string contract;
        for (const NetworkTensor& t : desc.inputs) contract += (contract.empty() ? "input '" : ", input '") + t.name + "' " + shapeString(t.shape);
        return Error{ErrorCode::InvalidModel, who_ + ": the model does not fit the effect's contract (" + contract + "): " + model.error().message,
                     VK_SUCCESS};
    }
    metadata_ = std::move(model->metadata);
    mlplugin::GraphDesc& graph = model->graph;
    // The model's inputs and outputs must be exactly the contract's, in order.
    auto checkList = [&](const char* kind, const std::vector<std::string>& names, const std::vector<mlplugin::ValueId>& ids,
                         const std::vector<NetworkTensor>& expected) -> Status {
        if (names.size() != expected.size())
            return Error{ErrorCode::InvalidModel, who_ + ": the model has " + std::to_string(names.size()) + " " + kind + "s, the effect needs " +
                                                      std::to_string(expected.size()), VK_SUCCESS};
        for (size_t i = 0; i < expected.size(); ++i) {
            const mlplugin::TensorDesc& d = graph.values[ids[i]].desc;
            std::vector<uint32_t> shape(d.sizes.begin(), d.sizes.begin() + d.rank);
            if (names[i] != expected[i].name || (!expected[i].shape.empty() && shape != expected[i].shape))
                return Error{ErrorCode::InvalidModel, who_ + ": model " + kind + " " + std::to_string(i) + " is '" + names[i] + "' " + shapeString(shape) +
                                                          ", the effect needs '" + expected[i].name + "' " + shapeString(expected[i].shape), VK_SUCCESS};
        }
        return {};
    };
    MLP_TRY(checkList("input", model->inputNames, graph.inputs, desc.inputs));
    MLP_TRY(checkList("output", model->outputNames, graph.outputs, desc.outputs));
    if (desc.detachPointwiseHead)
        if (auto packed = detachPointwiseHead(graph, desc.headOrder, desc.maxHeadBytes, head_.hiddenChannels, head_.outputChannels))
            headData_ = std::move(*packed);
    // Output 0 is now the hidden value, whose channels stay in the model's order.
    std::vector<NetworkTensor> outputs = desc.outputs;
    if (!headData_.empty()) outputs[0].channelOrder.clear();
    auto reorder = [&](mlplugin::GraphDesc& g) {
        for (size_t i = 0; i < desc.inputs.size(); ++i)
            if (!desc.inputs[i].channelOrder.empty() && !g.permuteChannels(g.inputs[i], desc.inputs[i].channelOrder).ok()) return false;
        for (size_t i = 0; i < outputs.size(); ++i)
            if (!outputs[i].channelOrder.empty() && !g.permuteChannels(g.outputs[i], outputs[i].channelOrder).ok()) return false;
        return true;
    };
    auto ordered = [](const std::vector<NetworkTensor>& ts) {
        return std::any_of(ts.begin(), ts.end(), [](const NetworkTensor& t) { return !t.channelOrder.empty(); });
    };
    if (ordered(desc.inputs) || ordered(outputs)) {
        mlplugin::GraphDesc reordered = graph;
        if (reorder(reordered)) graph = std::move(reordered), channelsReordered_ = true;
    }
    if (desc.channelsLast) {
        for (const auto* ids : {&graph.inputs, &graph.outputs})
            for (mlplugin::ValueId v : *ids)
                if (const mlplugin::TensorDesc& d = graph.values[v].desc; d.rank == 4)
                    if (Status s = graph.setLayout(v, d.channelsLast()); !s) return withContext(s.error(), who_);
    }

    uint32_t flags = fp16_ ? mlplugin::ExecutionFlagAllowHalfPrecisionComputation : 0u;
    auto compiled = mlplugin::compileGraph(device_, graph, flags);
    if (!compiled) return withContext(compiled.error(), who_);
    compiled_ = std::move(*compiled);
    mlplugin::BindingProperties props = compiled_.op->bindingProperties();

    std::vector<mlplugin::BufferBinding> inputBindings, outputBindings;
    for (mlplugin::ValueId v : graph.inputs) {
        auto b = createBuffer(vk_, graph.values[v].desc.requiredBytes(), false, "network input", tally);
        if (!b) return withContext(b.error(), who_);
        inputBindings.push_back({b->buffer, 0, b->size});
        inputs_.push_back(*b);
    }
    for (mlplugin::ValueId v : graph.outputs) {
        const mlplugin::TensorDesc& d = graph.values[v].desc;
        outputShapes_.emplace_back(d.sizes.begin(), d.sizes.begin() + d.rank);
        auto b = createBuffer(vk_, graph.values[v].desc.requiredBytes(), false, "network output", tally);
        if (!b) return withContext(b.error(), who_);
        outputBindings.push_back({b->buffer, 0, b->size});
        outputs_.push_back(*b);
    }
    if (props.temporaryBytes) {
        auto b = createBuffer(vk_, props.temporaryBytes, false, "network scratch", tally);
        if (!b) return withContext(b.error(), who_);
        temporary_ = *b;
    }
    if (props.persistentBytes) {
        auto b = createBuffer(vk_, props.persistentBytes, false, "network weights", tally);
        if (!b) return withContext(b.error(), who_);
        persistent_ = *b;
    }
    if (!headData_.empty()) {
        auto b = createBuffer(vk_, headData_.size() * sizeof(float), false, "network head", tally);
        if (!b) return withContext(b.error(), who_);
        head_.buffer = *b;
    }
    if (!compiled_.constantData.empty()) {
        auto b = createBuffer(vk_, (compiled_.constantData.size() + 3) / 4 * 4, true, "weight staging", tally);
        if (!b) return withContext(b.error(), who_);
        constants_ = *b;
        std::memcpy(constants_.mapped, compiled_.constantData.data(), compiled_.constantData.size());
    }

    mlplugin::CompiledOperator* ops[] = {compiled_.op.get()};
    auto initializer = device_.createOperatorInitializer(ops);
    if (!initializer) return withContext(initializer.error(), who_);
    initializer_ = std::move(*initializer);
    const uint32_t initSets = initializer_->bindingProperties().descriptorSetCount;
    descriptorSets_ = props.descriptorSetCount + initSets;

    std::vector<VkDescriptorSet> sets(descriptorSets_);
    if (VkResult r = pool_.createSets(vk_, vk_.device, device_.descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, mlplugin::kDescriptorsPerSet}, sets);
        r != VK_SUCCESS)
        return withContext(vkFailure(r, "creating the network's descriptor sets"), who_);

    auto table = device_.createBindingTable({compiled_.op.get(), {sets.data(), props.descriptorSetCount}});
    if (!table) return withContext(table.error(), who_);
    table_ = std::move(*table);
    std::vector<mlplugin::BufferBinding> executionInputs = inputBindings;
    executionInputs.push_back({});  // the constants: bound to the initializer only
    MLP_TRY(table_->bindInputs(executionInputs));
    MLP_TRY(table_->bindOutputs(outputBindings));
    if (props.temporaryBytes) MLP_TRY(table_->bindTemporary({temporary_.buffer, 0, temporary_.size}));
    if (props.persistentBytes) MLP_TRY(table_->bindPersistent({persistent_.buffer, 0, persistent_.size}));

    auto initTable = device_.createBindingTable({initializer_.get(), {sets.data() + props.descriptorSetCount, initSets}});
    if (!initTable) return withContext(initTable.error(), who_);
    initTable_ = std::move(*initTable);
    std::vector<mlplugin::BufferBinding> initInputs(graph.inputs.size());
    initInputs.push_back(constants_.buffer ? mlplugin::BufferBinding{constants_.buffer, 0, constants_.size} : mlplugin::BufferBinding{});
    mlplugin::BufferBinding initOutput = props.persistentBytes ? mlplugin::BufferBinding{persistent_.buffer, 0, persistent_.size}
                                                               : mlplugin::BufferBinding{};
    MLP_TRY(initTable_->bindInputs(initInputs));
    MLP_TRY(initTable_->bindOutputs({&initOutput, 1}));

    auto recorder = device_.createCommandRecorder();
    if (!recorder) return withContext(recorder.error(), who_);
    recorder_ = std::move(*recorder);
    if (desc.bundle) {
        // The table is bound once and never again, so the bundle stays current for the network's life.
        auto bundle = recorder_->recordBundle(*compiled_.op, *table_);
        if (!bundle) return withContext(bundle.error(), who_);
        bundle_ = std::move(*bundle);
    }
    return {};
}

std::vector<const GpuBuffer*> Network::buffers() const {
    std::vector<const GpuBuffer*> out;
    for (const GpuBuffer& b : inputs_) out.push_back(&b);
    for (const GpuBuffer& b : outputs_) out.push_back(&b);
    for (const GpuBuffer* b : {&temporary_, &persistent_, &constants_, &head_.buffer})
        if (b->buffer) out.push_back(b);
    return out;
}

VkDeviceSize Network::deviceLocalBytes() const {
    VkDeviceSize n = 0;
    for (const GpuBuffer* b : buffers()) n += b->hostVisible ? 0 : b->bytes;
    return n;
}

VkDeviceSize Network::hostVisibleBytes() const {
    VkDeviceSize n = 0;
    for (const GpuBuffer* b : buffers()) n += b->hostVisible ? b->bytes : 0;
    return n;
}

uint32_t Network::allocations() const { return uint32_t(buffers().size()); }

Network::~Network() {
    for (GpuBuffer& b : inputs_) b.destroy(vk_);
    for (GpuBuffer& b : outputs_) b.destroy(vk_);
    temporary_.destroy(vk_);
    persistent_.destroy(vk_);
    constants_.destroy(vk_);
    head_.buffer.destroy(vk_);
    pool_.destroy();
}

Status Network::recordInitialization(VkCommandBuffer cmd) {
    // The plugin's placeholder buffer may have been touched by other networks earlier in `cmd`.
    mlplugin::recordComputeBarrier(device_, cmd);
    if (Status s = recorder_->record(cmd, *initializer_, *initTable_); !s) return withContext(s.error(), who_ + " (weights)");
    if (head_.buffer.buffer) {
        // At most 65,536 bytes per update (a 64 -> 64 head is 16.6 KB).
        constexpr size_t kChunk = 65536 / sizeof(float);
        for (size_t at = 0; at < headData_.size(); at += kChunk)
            vk_.vkCmdUpdateBuffer(cmd, head_.buffer.buffer, at * sizeof(float), std::min(kChunk, headData_.size() - at) * sizeof(float),
                                  headData_.data() + at);
        vkutil::memoryBarrier(vk_, cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_UNIFORM_READ_BIT);
    }
    initialized_ = true;
    return {};
}

Status Network::record(VkCommandBuffer cmd) {
    if (!initialized_) return Error{ErrorCode::InvalidArgument, who_ + ": the weights are not initialized (record recordInitialization() first)", VK_SUCCESS};
    Status s = bundle_ ? bundle_->execute(cmd) : recorder_->record(cmd, *compiled_.op, *table_);
    if (!s) return withContext(s.error(), who_);
    return {};
}

}  // namespace effects::detail
