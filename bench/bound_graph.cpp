#include "bound_graph.h"

#include "engine/error.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace bench {

using namespace mlplugin;

namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

void check(const Status& s, const char* what) {
    if (!s) throw std::runtime_error(std::string(what) + ": " + s.error().message);
}

}  // namespace

BoundGraph::BoundGraph(engine::Context& ctx, Device& device, const GraphDesc& graph, uint32_t compileFlags) : ctx_(ctx), device_(device) {
    auto compiled = compileGraph(device, graph, compileFlags);
    if (!compiled) throw std::runtime_error("compileGraph: " + compiled.error().message);
    compiled_ = std::move(*compiled);
    BindingProperties props = compiled_.op->bindingProperties();
    buffers_.reserve(graph.inputs.size() + graph.outputs.size() + 2);
    auto buffer = [&](uint64_t bytes) {
        buffers_.emplace_back(ctx, std::max<uint64_t>((bytes + 3) & ~uint64_t(3), 4), kStorage, engine::MemoryUsage::DeviceLocal);
        return BufferBinding{buffers_.back().handle(), 0, buffers_.back().size()};
    };
    for (ValueId v : graph.inputs) inputs_.push_back(buffer(graph.values[v].desc.requiredBytes()));
    inputs_.push_back({});  // the constants: bound to the initializer only
    for (ValueId v : graph.outputs) outputs_.push_back(buffer(graph.values[v].desc.requiredBytes()));
    if (props.temporaryBytes) temporary_ = buffer(props.temporaryBytes);
    if (props.persistentBytes) persistent_ = buffer(props.persistentBytes);

    sets_.resize(props.descriptorSetCount);
    ENGINE_VK(pool_.createSets(ctx.device(), device.descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDescriptorsPerSet}, sets_));
    bind();
}

void BoundGraph::bind() {
    const BindingProperties props = compiled_.op->bindingProperties();
    auto table = device_.createBindingTable({compiled_.op.get(), {sets_.data(), uint32_t(sets_.size())}});
    if (!table) throw std::runtime_error("createBindingTable: " + table.error().message);
    check((*table)->bindInputs(inputs_), "bindInputs");
    check((*table)->bindOutputs(outputs_), "bindOutputs");
    if (props.temporaryBytes) check((*table)->bindTemporary(temporary_), "bindTemporary");
    if (props.persistentBytes) check((*table)->bindPersistent(persistent_), "bindPersistent");
    table_ = std::move(*table);
}

CommandBuffer::CommandBuffer(const engine::Context& ctx) : device_(ctx.device()) {
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pci.queueFamilyIndex = ctx.queueFamily();
    ENGINE_VK(vkCreateCommandPool(device_, &pci, nullptr, &pool_));
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    ENGINE_VK(vkAllocateCommandBuffers(device_, &ai, &cmd_));
}

CommandBuffer::~CommandBuffer() { vkDestroyCommandPool(device_, pool_, nullptr); }

void CommandBuffer::begin() {
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    ENGINE_VK(vkBeginCommandBuffer(cmd_, &bi));
}

void CommandBuffer::end() { ENGINE_VK(vkEndCommandBuffer(cmd_)); }

void CommandBuffer::reset() { ENGINE_VK(vkResetCommandPool(device_, pool_, 0)); }

}  // namespace bench
