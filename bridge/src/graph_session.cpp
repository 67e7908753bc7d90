#include "bridge/graph_session.h"

#include "bridge/errors.h"

#include "engine/error.h"
#include "mlplugin/half.h"

#include <algorithm>
#include <chrono>
#include <cstring>

namespace bridge {
namespace {

using namespace mlplugin;

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
constexpr VkAccessFlags2 kShaderReadWrite = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

uint64_t paddedSize(uint64_t bytes) { return std::max<uint64_t>((bytes + 3) & ~uint64_t(3), 4); }

void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dst, VkAccessFlags2 dstAccess) {
    VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, src, srcAccess, dst, dstAccess};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &mb;
    vkCmdPipelineBarrier2(cmd, &dep);
}

// Copies `bytes` into device-local `target` through a staging buffer.
void upload(const engine::Context& ctx, const engine::Buffer& target, const void* bytes, uint64_t size) {
    engine::Buffer staging(ctx, target.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, engine::MemoryUsage::Upload);
    std::memset(staging.mapped(), 0, target.size());
    std::memcpy(staging.mapped(), bytes, std::min<uint64_t>(size, target.size()));
    staging.flush();
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, kShaderReadWrite, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferCopy copy{0, 0, target.size()};
        vkCmdCopyBuffer(cmd, staging.handle(), target.handle(), 1, &copy);
    });
}

std::vector<uint8_t> encode(const TensorDesc& d, const std::vector<float>& values) {
    std::vector<uint8_t> bytes(values.size() * byteSize(d.dataType));
    if (d.dataType == DataType::Float16) floatsToHalves(values, {reinterpret_cast<uint16_t*>(bytes.data()), values.size()});
    else std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

std::unique_ptr<Device> createDevice(engine::Context& ctx, bool debug) {
    DeviceDesc d;
    d.instance = ctx.instance();
    d.physicalDevice = ctx.physicalDevice();
    d.device = ctx.device();
    d.queueFamilyIndex = ctx.queueFamily();
    d.getInstanceProcAddr = ctx.libraryProcAddr();  // the plugin's allocations count against the context's budget
    d.shaderStorageBufferArrayDynamicIndexingEnabled = true;  // engine::Context enables it
    d.storageBuffer16BitAccessEnabled = ctx.features().storageBuffer16BitAccess;
    d.shaderFloat16Enabled = ctx.features().shaderFloat16;
    d.cooperativeMatrixNVEnabled = ctx.features().cooperativeMatrixNV;
    d.flags = debug ? DeviceFlagDebug : DeviceFlagNone;
    return take(mlplugin::createDevice(d), "createDevice");
}

GraphSession::GraphSession(engine::Context& ctx, Device& device, const GraphDesc& graph, uint32_t compileFlags)
    : ctx_(ctx), device_(device), graph_(graph) {
    compiled_ = take(compileGraph(device, graph, compileFlags), "compileGraph");
    CompiledOperator& op = *compiled_.op;
    BindingProperties props = op.bindingProperties();

    std::vector<BufferBinding> execInputs;
    for (ValueId v : graph.inputs) {
        inputs_.emplace_back(ctx, paddedSize(graph.values[v].desc.requiredBytes()), kStorage, engine::MemoryUsage::DeviceLocal);
        execInputs.push_back({inputs_.back().handle(), 0, inputs_.back().size()});
    }
    execInputs.push_back({});  // the constants blob: owned by the plugin, bound at initialization only
    std::vector<BufferBinding> outBindings;
    for (ValueId v : graph.outputs) {
        outputs_.emplace_back(ctx, paddedSize(graph.values[v].desc.requiredBytes()), kStorage, engine::MemoryUsage::DeviceLocal);
        outBindings.push_back({outputs_.back().handle(), 0, outputs_.back().size()});
    }
    if (props.temporaryBytes) temporary_ = engine::Buffer(ctx, props.temporaryBytes, kStorage, engine::MemoryUsage::DeviceLocal);
    if (props.persistentBytes) persistent_ = engine::Buffer(ctx, props.persistentBytes, kStorage, engine::MemoryUsage::DeviceLocal);

    CompiledOperator* ops[] = {&op};
    auto initializer = take(device.createOperatorInitializer(ops), "createOperatorInitializer");
    uint32_t initSets = initializer->bindingProperties().descriptorSetCount;
    uint32_t total = std::max(initSets + props.descriptorSetCount, 1u);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, total * kDescriptorsPerSet};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = total;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &size;
    ENGINE_VK(vkCreateDescriptorPool(ctx.device(), &dpci, nullptr, &pool_));
    std::vector<VkDescriptorSet> sets(total);
    if (initSets + props.descriptorSetCount) {
        std::vector<VkDescriptorSetLayout> layouts(total, device.descriptorSetLayout());
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = pool_;
        ai.descriptorSetCount = initSets + props.descriptorSetCount;
        ai.pSetLayouts = layouts.data();
        ENGINE_VK(vkAllocateDescriptorSets(ctx.device(), &ai, sets.data()));
    }

    recorder_ = take(device.createCommandRecorder(), "createCommandRecorder");
    BufferBinding persistent = props.persistentBytes ? BufferBinding{persistent_.handle(), 0, props.persistentBytes} : BufferBinding{};
    if (initSets) {
        engine::Buffer constants(ctx, paddedSize(compiled_.constantData.size()), kStorage, engine::MemoryUsage::DeviceLocal);
        upload(ctx, constants, compiled_.constantData.data(), compiled_.constantData.size());
        std::vector<BufferBinding> initInputs(graph.inputs.size());
        initInputs.push_back(compiled_.constantData.empty() ? BufferBinding{} : BufferBinding{constants.handle(), 0, constants.size()});
        auto initTable = take(device.createBindingTable({initializer.get(), {sets.data(), initSets}}), "initializer binding table");
        check(initTable->bindInputs(initInputs), "initializer bindInputs");
        check(initTable->bindOutputs({&persistent, 1}), "initializer bindOutputs");
        ctx.submitAndWait([&](VkCommandBuffer cmd) { check(recorder_->record(cmd, *initializer, *initTable), "record initializer"); });
    }
    table_ = take(device.createBindingTable({&op, {sets.data() + initSets, props.descriptorSetCount}}), "createBindingTable");
    check(table_->bindInputs(execInputs), "bindInputs");
    check(table_->bindOutputs(outBindings), "bindOutputs");
    if (props.temporaryBytes) check(table_->bindTemporary({temporary_.handle(), 0, props.temporaryBytes}), "bindTemporary");
    if (props.persistentBytes) check(table_->bindPersistent(persistent), "bindPersistent");
}

GraphSession::~GraphSession() {
    if (pool_) vkDestroyDescriptorPool(ctx_.device(), pool_, nullptr);
}

void GraphSession::setInputs(const std::vector<std::vector<float>>& values) {
    if (values.size() != graph_.inputs.size())
        throw engine::Error("the graph has " + std::to_string(graph_.inputs.size()) + " inputs, " + std::to_string(values.size()) + " given");
    for (size_t i = 0; i < values.size(); ++i) {
        const GraphValue& v = graph_.values[graph_.inputs[i]];
        if (values[i].size() != v.desc.elementCount())
            throw engine::Error("input '" + v.name + "' needs " + std::to_string(v.desc.elementCount()) + " values (" + v.desc.toString() +
                                     "), " + std::to_string(values[i].size()) + " given");
        std::vector<uint8_t> bytes = encode(v.desc, values[i]);
        upload(ctx_, inputs_[i], bytes.data(), bytes.size());
    }
}

void GraphSession::run() {
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT | kShaderReadWrite,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, kShaderReadWrite);
        check(recorder_->record(cmd, *compiled_.op, *table_), "record");
    });
}

Timing GraphSession::time(uint32_t runs, uint32_t warmup, std::chrono::milliseconds clockRampUp) {
    if (!ctx_.features().timestamps) throw engine::Error(engine::ErrorCode::Unsupported, "the device's queue has no valid timestamps");
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2 * runs;
    VkQueryPool queries = VK_NULL_HANDLE;
    ENGINE_VK(vkCreateQueryPool(ctx_.device(), &qci, nullptr, &queries));
    struct PoolOwner {
        VkDevice device;
        VkQueryPool pool;
        ~PoolOwner() { vkDestroyQueryPool(device, pool, nullptr); }
    } owner{ctx_.device(), queries};
    // Keep the GPU busy for a while first: an idle GPU runs at a fraction of its boost clock and
    // needs ~0.1-0.2 s of work to ramp up (H100: 345-700 -> 1980 MHz). Without this, short cases
    // were timed mid-ramp, 2-3x slow for part of their runs (bench/RESULTS.md).
    const auto rampStart = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - rampStart < clockRampUp) {
        ctx_.submitAndWait([&](VkCommandBuffer cmd) {
            for (uint32_t i = 0; i < std::max(warmup, 1u); ++i) {
                barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT | kShaderReadWrite, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, kShaderReadWrite);
                check(recorder_->record(cmd, *compiled_.op, *table_), "record");
            }
        });
    }

    std::vector<double> recordUs;
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, queries, 0, 2 * runs);
        for (uint32_t i = 0; i < warmup + runs; ++i) {
            // Each run overwrites the outputs and temporaries the previous one wrote and read.
            barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT | kShaderReadWrite,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, kShaderReadWrite);
            bool timed = i >= warmup;
            if (timed) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 2 * (i - warmup));
            auto t0 = std::chrono::steady_clock::now();
            check(recorder_->record(cmd, *compiled_.op, *table_), "record");
            auto t1 = std::chrono::steady_clock::now();
            if (timed) {
                recordUs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
                vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 2 * (i - warmup) + 1);
            }
        }
    });
    std::vector<uint64_t> stamps(2 * runs);
    ENGINE_VK(vkGetQueryPoolResults(ctx_.device(), queries, 0, 2 * runs, stamps.size() * 8, stamps.data(), 8,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::vector<double> ms;
    for (uint32_t i = 0; i < runs; ++i) ms.push_back(double(stamps[2 * i + 1] - stamps[2 * i]) * ctx_.features().timestampPeriodNs * 1e-6);
    return {median(ms), *std::min_element(ms.begin(), ms.end()), median(recordUs), runs};
}

std::vector<std::vector<float>> GraphSession::readOutputs() {
    std::vector<std::vector<float>> out;
    for (size_t i = 0; i < outputs_.size(); ++i) {
        engine::Buffer readback(ctx_, outputs_[i].size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
        ctx_.submitAndWait([&](VkCommandBuffer cmd) {
            barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_TRANSFER_READ_BIT);
            VkBufferCopy copy{0, 0, outputs_[i].size()};
            vkCmdCopyBuffer(cmd, outputs_[i].handle(), readback.handle(), 1, &copy);
            barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        });
        readback.invalidate();
        const TensorDesc& d = graph_.values[graph_.outputs[i]].desc;
        uint64_t count = d.elementCount();  // graph outputs are packed
        std::vector<float> values(count);
        if (d.dataType == DataType::Float16) halvesToFloats({static_cast<const uint16_t*>(readback.mapped()), count}, values);
        else std::memcpy(values.data(), readback.mapped(), count * 4);
        out.push_back(std::move(values));
    }
    return out;
}

}  // namespace bridge
