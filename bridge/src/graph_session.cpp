#include "bridge/graph_session.h"

#include "bridge/errors.h"
#include "device_desc.h"

#include "engine/error.h"
#include "mlplugin/half.h"

#include <vkutil/barrier.h>
#include <vkutil/descriptors.h>
#include <vkutil/timestamps.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace bridge {
namespace {

using namespace mlplugin;

constexpr VkBufferUsageFlags kStorage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
uint64_t paddedSize(uint64_t bytes) { return std::max<uint64_t>((bytes + 3) & ~uint64_t(3), 4); }

using vkutil::memoryBarrier;

// Copies `bytes` into device-local `target` through a staging buffer.
void upload(const engine::Context& ctx, const engine::Buffer& target, const void* bytes, uint64_t size) {
    engine::Buffer staging(ctx, target.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, engine::MemoryUsage::Upload);
    std::memset(staging.mapped(), 0, target.size());
    std::memcpy(staging.mapped(), bytes, std::min<uint64_t>(size, target.size()));
    staging.flush();
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, vkutil::kShaderStorageReadWrite, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
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

struct GraphSession::Descriptors {
    vkutil::DescriptorPool pool;
};

std::unique_ptr<Device> createDevice(engine::Context& ctx, bool debug, std::span<const uint8_t> pipelineCacheData) {
    DeviceDesc d = detail::describeDevice<DeviceDesc>(ctx);
    d.flags = debug ? DeviceFlagDebug : DeviceFlagNone;
    d.pipelineCacheData = pipelineCacheData;
    return take(mlplugin::createDevice(d), "createDevice");
}

GraphSession::GraphSession(engine::Context& ctx, Device& device, const GraphDesc& graph, uint32_t compileFlags)
    : ctx_(ctx), device_(device), graph_(&graph), descriptors_(std::make_unique<Descriptors>()) {
    compiled_ = take(compileGraph(device, graph, compileFlags), "compileGraph");
    recorder_ = take(device.createCommandRecorder(), "createCommandRecorder");
    initializeWeights();
    bind();
}

void GraphSession::reshape(const GraphDesc& graph) {
    CompiledGraph next = take(reshapeGraph(device_, compiled_, graph), "GraphSession::reshape");
    table_.reset();  // before the sets it wrote and the buffers it points at
    compiled_ = std::move(next);
    graph_ = &graph;
    ++reshapes_;
    if (!compiled_.report.persistentReused) initializeWeights();
    bind();
}

// The persistent resource from the constants blob: one initializer submission.
void GraphSession::initializeWeights() {
    const BindingProperties props = compiled_.op->bindingProperties();
    persistent_ = props.persistentBytes ? engine::Buffer(ctx_, props.persistentBytes, kStorage, engine::MemoryUsage::DeviceLocal) : engine::Buffer();
    CompiledOperator* ops[] = {compiled_.op.get()};
    auto initializer = take(device_.createOperatorInitializer(ops), "createOperatorInitializer");
    std::vector<VkDescriptorSet> sets(initializer->bindingProperties().descriptorSetCount);
    if (sets.empty()) return;
    vkutil::DescriptorPool pool;
    ENGINE_VK(pool.createSets(ctx_.device(), device_.descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDescriptorsPerSet}, sets));
    engine::Buffer constants(ctx_, paddedSize(compiled_.constantData.size()), kStorage, engine::MemoryUsage::DeviceLocal);
    upload(ctx_, constants, compiled_.constantData.data(), compiled_.constantData.size());
    std::vector<BufferBinding> initInputs(graph_->inputs.size());
    initInputs.push_back(compiled_.constantData.empty() ? BufferBinding{} : BufferBinding{constants.handle(), 0, constants.size()});
    const BufferBinding persistent = props.persistentBytes ? BufferBinding{persistent_.handle(), 0, props.persistentBytes} : BufferBinding{};
    auto initTable = take(device_.createBindingTable({initializer.get(), {sets.data(), uint32_t(sets.size())}}), "initializer binding table");
    check(initTable->bindInputs(initInputs), "initializer bindInputs");
    check(initTable->bindOutputs({&persistent, 1}), "initializer bindOutputs");
    ctx_.submitAndWait([&](VkCommandBuffer cmd) { check(recorder_->record(cmd, *initializer, *initTable), "record initializer"); });
    ++weightInitializations_;
}

// Input, output and temporary buffers at the current extents, and the binding table over them.
void GraphSession::bind() {
    const BindingProperties props = compiled_.op->bindingProperties();
    const GraphDesc& graph = *graph_;
    inputs_.clear();
    outputs_.clear();
    std::vector<BufferBinding> execInputs;
    for (ValueId v : graph.inputs) {
        inputs_.emplace_back(ctx_, paddedSize(graph.values[v].desc.requiredBytes()), kStorage, engine::MemoryUsage::DeviceLocal);
        execInputs.push_back({inputs_.back().handle(), 0, inputs_.back().size()});
    }
    execInputs.push_back({});  // the constants blob: owned by the plugin, bound at initialization only
    std::vector<BufferBinding> outBindings;
    for (ValueId v : graph.outputs) {
        outputs_.emplace_back(ctx_, paddedSize(graph.values[v].desc.requiredBytes()), kStorage, engine::MemoryUsage::DeviceLocal);
        outBindings.push_back({outputs_.back().handle(), 0, outputs_.back().size()});
    }
    temporary_ = props.temporaryBytes ? engine::Buffer(ctx_, props.temporaryBytes, kStorage, engine::MemoryUsage::DeviceLocal) : engine::Buffer();
    std::vector<VkDescriptorSet> sets(props.descriptorSetCount);
    ENGINE_VK(descriptors_->pool.createSets(ctx_.device(), device_.descriptorSetLayout(), {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kDescriptorsPerSet}, sets));
    table_ = take(device_.createBindingTable({compiled_.op.get(), {sets.data(), props.descriptorSetCount}}), "createBindingTable");
    check(table_->bindInputs(execInputs), "bindInputs");
    check(table_->bindOutputs(outBindings), "bindOutputs");
    if (props.temporaryBytes) check(table_->bindTemporary({temporary_.handle(), 0, props.temporaryBytes}), "bindTemporary");
    if (props.persistentBytes) check(table_->bindPersistent({persistent_.handle(), 0, props.persistentBytes}), "bindPersistent");
}

GraphSession::~GraphSession() = default;

void GraphSession::setInputs(const std::vector<std::vector<float>>& values) {
    if (values.size() != graph_->inputs.size())
        throw engine::Error("the graph has " + std::to_string(graph_->inputs.size()) + " inputs, " + std::to_string(values.size()) + " given");
    for (size_t i = 0; i < values.size(); ++i) {
        const GraphValue& v = graph_->values[graph_->inputs[i]];
        if (values[i].size() != v.desc.elementCount())
            throw engine::Error("input '" + v.name + "' needs " + std::to_string(v.desc.elementCount()) + " values (" + v.desc.toString() +
                                     "), " + std::to_string(values[i].size()) + " given");
        std::vector<uint8_t> bytes = encode(v.desc, values[i]);
        upload(ctx_, inputs_[i], bytes.data(), bytes.size());
    }
}

void GraphSession::copyInputsFrom(const GraphSession& source) {
    if (&source.ctx_ != &ctx_) throw engine::Error(engine::ErrorCode::InvalidArgument, "copyInputsFrom: the source session is on another context");
    if (source.inputs_.size() != inputs_.size())
        throw engine::Error(engine::ErrorCode::InvalidArgument, "copyInputsFrom: the source graph has " + std::to_string(source.inputs_.size()) +
                                                                    " inputs, this one " + std::to_string(inputs_.size()));
    for (size_t i = 0; i < inputs_.size(); ++i)
        if (source.inputs_[i].size() != inputs_[i].size())
            throw engine::Error(engine::ErrorCode::InvalidArgument, "copyInputsFrom: input '" + graph_->values[graph_->inputs[i]].name + "' holds " +
                                                                        std::to_string(inputs_[i].size()) + " bytes, the source's " +
                                                                        std::to_string(source.inputs_[i].size()));
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        // The source's inputs were last written by an upload (or a copy) and read by its network.
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT | vkutil::kShaderStorageReadWrite,
                      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
        for (size_t i = 0; i < inputs_.size(); ++i) {
            VkBufferCopy copy{0, 0, inputs_[i].size()};
            vkCmdCopyBuffer(cmd, source.inputs_[i].handle(), inputs_[i].handle(), 1, &copy);
        }
    });
}

void GraphSession::run() {
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT | vkutil::kShaderStorageReadWrite,
                VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, vkutil::kShaderStorageReadWrite);
        check(recorder_->record(cmd, *compiled_.op, *table_), "record");
    });
}

void GraphSession::recordExecutions(VkCommandBuffer cmd, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT | vkutil::kShaderStorageReadWrite,
                      VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, vkutil::kShaderStorageReadWrite);
        check(recorder_->record(cmd, *compiled_.op, *table_), "record");
    }
}

void GraphSession::rampUpClock(std::chrono::milliseconds minimum, uint32_t warmup) {
    using Clock = std::chrono::steady_clock;
    // Batches of about kBatchMs of GPU work, each timed as a whole; the ramp ends once `minimum`
    // has passed and two batches in a row ran no more than kSettled faster per execution than
    // the one before them, or after kMaxRamp whatever the clock does.
    constexpr double kBatchMs = 25.0, kSettled = 0.02;
    constexpr auto kMaxRamp = std::chrono::milliseconds(3000);
    vkutil::TimestampPool batchTime;
    ENGINE_VK(batchTime.create(ctx_.device(), 1, ctx_.features().timestampPeriodNs, ctx_.features().timestampValidBits));
    const auto start = Clock::now();
    uint32_t batch = std::max(warmup, 1u);
    double previous = 0;
    uint32_t settled = 0;
    for (;;) {
        ctx_.submitAndWait([&](VkCommandBuffer cmd) {
            batchTime.reset(cmd);
            batchTime.begin(cmd, 0);
            recordExecutions(cmd, batch);
            batchTime.end(cmd, 0);
        });
        double ms = 0;
        ENGINE_VK(batchTime.readMs({&ms, 1}, /*wait*/ true));
        const double perRun = ms / batch;
        const auto elapsed = Clock::now() - start;
        settled = previous > 0 && perRun >= previous * (1.0 - kSettled) ? settled + 1 : 0;
        if (elapsed >= kMaxRamp || (elapsed >= minimum && settled >= 2)) return;
        previous = perRun;
        batch = uint32_t(std::clamp(kBatchMs / std::max(perRun, 1e-3), 1.0, 1000.0));
    }
}

Timing GraphSession::time(uint32_t runs, uint32_t warmup, std::chrono::milliseconds clockRampUp) {
    if (!ctx_.features().timestamps) throw engine::Error(engine::ErrorCode::Unsupported, "the device's queue has no valid timestamps");
    vkutil::TimestampPool queries;
    ENGINE_VK(queries.create(ctx_.device(), runs, ctx_.features().timestampPeriodNs,
                             ctx_.features().timestampValidBits));
    // Warm the clock first. An idle GPU runs at a fraction of its boost clock, and its governor
    // raises it only while the GPU stays busy: a process that compiles pipelines between short
    // bursts of work (the tuner) kept the H100 at 345-1400 MHz, timing candidates 1.5-4x slow.
    // A fixed stretch of work did not cure that, so the ramp times its own batches and goes on
    // until the per-execution time stops falling (bench/RESULTS.md, "Clock drift").
    if (clockRampUp.count() > 0) rampUpClock(clockRampUp, warmup);

    std::vector<double> recordUs;
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        queries.reset(cmd);
        for (uint32_t i = 0; i < warmup + runs; ++i) {
            // Each run overwrites the outputs and temporaries the previous one wrote and read.
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT | vkutil::kShaderStorageReadWrite,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, vkutil::kShaderStorageReadWrite);
            bool timed = i >= warmup;
            if (timed) queries.begin(cmd, i - warmup);
            auto t0 = std::chrono::steady_clock::now();
            check(recorder_->record(cmd, *compiled_.op, *table_), "record");
            auto t1 = std::chrono::steady_clock::now();
            if (timed) {
                recordUs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
                queries.end(cmd, i - warmup);
            }
        }
    });
    std::vector<double> ms(runs);
    ENGINE_VK(queries.readMs(ms, /*wait*/ true));
    return {median(ms), *std::min_element(ms.begin(), ms.end()), median(recordUs), runs};
}

std::vector<std::vector<float>> GraphSession::readOutputs() {
    std::vector<std::vector<float>> out;
    for (size_t i = 0; i < outputs_.size(); ++i) {
        engine::Buffer readback(ctx_, outputs_[i].size(), VK_BUFFER_USAGE_TRANSFER_DST_BIT, engine::MemoryUsage::Readback);
        ctx_.submitAndWait([&](VkCommandBuffer cmd) {
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_TRANSFER_READ_BIT);
            VkBufferCopy copy{0, 0, outputs_[i].size()};
            vkCmdCopyBuffer(cmd, outputs_[i].handle(), readback.handle(), 1, &copy);
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        });
        readback.invalidate();
        const TensorDesc& d = graph_->values[graph_->outputs[i]].desc;
        uint64_t count = d.elementCount();  // graph outputs are packed
        std::vector<float> values(count);
        if (d.dataType == DataType::Float16) halvesToFloats({static_cast<const uint16_t*>(readback.mapped()), count}, values);
        else std::memcpy(values.data(), readback.mapped(), count * 4);
        out.push_back(std::move(values));
    }
    return out;
}

}  // namespace bridge
