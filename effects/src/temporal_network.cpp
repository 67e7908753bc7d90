#include "temporal_network.h"

#include "mlplugin/onnx.h"

#include <vkutil/descriptors.h>

#include <algorithm>
#include <cstring>

namespace effects::detail {
namespace {

Error withContext(const Error& e, const std::string& who) { return {e.code, who + ": " + e.message, e.vkResult}; }

std::string shapeString(const std::vector<uint32_t>& s) {
    std::string out = "[";
    for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
    return out + "]";
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
    auto reorder = [&](mlplugin::GraphDesc& g) {
        for (size_t i = 0; i < desc.inputs.size(); ++i)
            if (!desc.inputs[i].channelOrder.empty() && !g.permuteChannels(g.inputs[i], desc.inputs[i].channelOrder).ok()) return false;
        for (size_t i = 0; i < desc.outputs.size(); ++i)
            if (!desc.outputs[i].channelOrder.empty() && !g.permuteChannels(g.outputs[i], desc.outputs[i].channelOrder).ok()) return false;
        return true;
    };
    auto ordered = [](const std::vector<NetworkTensor>& ts) {
        return std::any_of(ts.begin(), ts.end(), [](const NetworkTensor& t) { return !t.channelOrder.empty(); });
    };
    if (ordered(desc.inputs) || ordered(desc.outputs)) {
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
    for (const GpuBuffer* b : {&temporary_, &persistent_, &constants_})
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
    pool_.destroy();
}

Status Network::recordInitialization(VkCommandBuffer cmd) {
    // The plugin's placeholder buffer may have been touched by other networks earlier in `cmd`.
    mlplugin::recordComputeBarrier(device_, cmd);
    if (Status s = recorder_->record(cmd, *initializer_, *initTable_); !s) return withContext(s.error(), who_ + " (weights)");
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
