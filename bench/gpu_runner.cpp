#include "gpu_runner.h"

#include "engine/error.h"
#include "networks.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace bench {
namespace {

using namespace mlplugin;

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

void check(const Status& s, const char* what) {
    if (!s) throw std::runtime_error(std::string(what) + ": " + s.error().message);
}

template <class T>
T take(Result<T> r, const char* what) {
    if (!r) throw std::runtime_error(std::string(what) + ": " + r.error().message);
    return std::move(r).value();
}

// Uploads `bytes` into a new device-local buffer (padded to 4 bytes).
engine::Buffer upload(engine::Context& ctx, const void* bytes, uint64_t size) {
    uint64_t padded = std::max<uint64_t>((size + 3) & ~uint64_t(3), 4);
    engine::Buffer device(ctx, padded, kStorage, engine::MemoryUsage::DeviceLocal);
    engine::Buffer staging(ctx, padded, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, engine::MemoryUsage::Upload);
    std::memset(staging.mapped(), 0, padded);
    if (bytes) std::memcpy(staging.mapped(), bytes, size);
    staging.flush();
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        VkBufferCopy copy{0, 0, padded};
        vkCmdCopyBuffer(cmd, staging.handle(), device.handle(), 1, &copy);
    });
    return device;
}

// Image-like values in [0, 1), deterministic; `host` receives them as the GPU will see them.
std::vector<uint8_t> tensorBytes(const TensorDesc& desc, uint32_t seed, HostTensor& host) {
    uint64_t count = desc.requiredBytes() / byteSize(desc.dataType);
    std::vector<float> values = detWeights(seed, count, 1.0f);
    for (float& v : values) v = v * 0.5f + 0.5f;
    std::vector<uint8_t> bytes(desc.requiredBytes());
    host = {desc, std::vector<double>(count)};
    if (desc.dataType == DataType::Float16) {
        std::vector<uint16_t> halves(count);
        floatsToHalves(values, halves);
        std::memcpy(bytes.data(), halves.data(), halves.size() * 2);
        for (uint64_t i = 0; i < count; ++i) host.data[i] = halfToFloat(halves[i]);
    } else {
        std::memcpy(bytes.data(), values.data(), values.size() * 4);
        for (uint64_t i = 0; i < count; ++i) host.data[i] = values[i];
    }
    return bytes;
}

void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dst, VkAccessFlags2 dstAccess) {
    VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, src, srcAccess, dst, dstAccess};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &mb;
    vkCmdPipelineBarrier2(cmd, &dep);
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

GraphRunner::GraphRunner(engine::Context& ctx, Device& device, const GraphDesc& graph, uint32_t flags) : ctx_(ctx), device_(device) {
    compiled_ = take(compileGraph(device, graph, flags), "compileGraph");
    CompiledOperator& op = *compiled_.op;
    BindingProperties props = op.bindingProperties();

    std::vector<BufferBinding> execInputs, initInputs;
    for (size_t i = 0; i < graph.inputs.size(); ++i) {
        const TensorDesc& d = graph.values[graph.inputs[i]].desc;
        inputValues_.emplace_back();
        std::vector<uint8_t> bytes = tensorBytes(d, uint32_t(1000 + i), inputValues_.back());
        inputs_.push_back(upload(ctx, bytes.data(), bytes.size()));
        execInputs.push_back({inputs_.back().handle(), 0, inputs_.back().size()});
        initInputs.push_back({});
    }
    execInputs.push_back({});  // constants: owned, bound at initialization only
    if (!compiled_.constantData.empty()) {
        constants_ = upload(ctx, compiled_.constantData.data(), compiled_.constantData.size());
        initInputs.push_back({constants_.handle(), 0, constants_.size()});
    } else {
        initInputs.push_back({});
    }
    std::vector<BufferBinding> outBindings;
    for (ValueId v : graph.outputs) {
        const TensorDesc& d = graph.values[v].desc;
        outputDescs_.push_back(&d);
        outputs_.push_back(upload(ctx, nullptr, d.requiredBytes()));
        outBindings.push_back({outputs_.back().handle(), 0, outputs_.back().size()});
    }
    if (props.temporaryBytes) temporary_ = engine::Buffer(ctx, props.temporaryBytes, kStorage, engine::MemoryUsage::DeviceLocal);
    if (props.persistentBytes) persistent_ = engine::Buffer(ctx, props.persistentBytes, kStorage, engine::MemoryUsage::DeviceLocal);

    CompiledOperator* ops[] = {&op};
    auto initializer = take(device.createOperatorInitializer(ops), "createOperatorInitializer");
    uint32_t initSets = initializer->bindingProperties().descriptorSetCount;
    uint32_t total = initSets + props.descriptorSetCount;
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, total * kDescriptorsPerSet};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = total;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &size;
    ENGINE_VK(vkCreateDescriptorPool(ctx.device(), &dpci, nullptr, &pool_));
    std::vector<VkDescriptorSetLayout> layouts(total, device.descriptorSetLayout());
    std::vector<VkDescriptorSet> sets(total);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = total;
    ai.pSetLayouts = layouts.data();
    ENGINE_VK(vkAllocateDescriptorSets(ctx.device(), &ai, sets.data()));

    recorder_ = take(device.createCommandRecorder(), "createCommandRecorder");
    BufferBinding persistent = props.persistentBytes ? BufferBinding{persistent_.handle(), 0, props.persistentBytes} : BufferBinding{};
    if (initSets) {
        auto initTable = take(device.createBindingTable({initializer.get(), {sets.data(), initSets}}), "initializer table");
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

GraphRunner::~GraphRunner() {
    if (pool_) vkDestroyDescriptorPool(ctx_.device(), pool_, nullptr);
}

Timing GraphRunner::time(uint32_t warmup, uint32_t runs) {
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2 * runs;
    VkQueryPool queries;
    ENGINE_VK(vkCreateQueryPool(ctx_.device(), &qci, nullptr, &queries));
    std::vector<double> recordUs;
    try {
        ctx_.submitAndWait([&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, queries, 0, 2 * runs);
            CompiledOperator& op = *compiled_.op;
            for (uint32_t i = 0; i < warmup + runs; ++i) {
                bool timed = i >= warmup;
                if (timed) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 2 * (i - warmup));
                auto t0 = std::chrono::steady_clock::now();
                check(recorder_->record(cmd, op, *table_), "record");
                auto t1 = std::chrono::steady_clock::now();
                if (timed) {
                    recordUs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
                    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 2 * (i - warmup) + 1);
                }
                // The next run overwrites the outputs and temporaries this one wrote.
                barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
            }
        });
        std::vector<uint64_t> stamps(2 * runs);
        ENGINE_VK(vkGetQueryPoolResults(ctx_.device(), queries, 0, 2 * runs, stamps.size() * 8, stamps.data(), 8,
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        vkDestroyQueryPool(ctx_.device(), queries, nullptr);
        std::vector<double> ms;
        for (uint32_t i = 0; i < runs; ++i) ms.push_back(double(stamps[2 * i + 1] - stamps[2 * i]) * ctx_.features().timestampPeriodNs * 1e-6);
        Timing t;
        t.runs = runs;
        t.medianMs = median(ms);
        t.minMs = *std::min_element(ms.begin(), ms.end());
        t.recordUs = median(recordUs);
        return t;
    } catch (...) {
        vkDestroyQueryPool(ctx_.device(), queries, nullptr);
        throw;
    }
}

std::vector<std::vector<float>> GraphRunner::readOutputs() {
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
        const TensorDesc& d = *outputDescs_[i];
        uint64_t count = d.requiredBytes() / byteSize(d.dataType);
        std::vector<float> values(count);
        if (d.dataType == DataType::Float16)
            halvesToFloats({static_cast<const uint16_t*>(readback.mapped()), count}, values);
        else
            std::memcpy(values.data(), readback.mapped(), count * 4);
        out.push_back(std::move(values));
    }
    return out;
}

}  // namespace bench
