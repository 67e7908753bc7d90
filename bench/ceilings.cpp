#include "ceilings.h"

#include "bench_shaders.h"
#include "coop_gemm_ceiling.h"
#include "engine/buffer.h"
#include "engine/error.h"

#include <algorithm>
#include <functional>
#include <span>
#include <vector>

namespace bench {
namespace {

constexpr uint32_t kCeilingRuns = 20;

// Between runs: each run reads or overwrites what the previous one (or the previous ceiling's
// submission) wrote. Costs nothing next to the work timed.
void fullBarrier(VkCommandBuffer cmd) {
    constexpr VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    constexpr VkAccessFlags2 access = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, stages, access, stages, access};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &mb;
    vkCmdPipelineBarrier2(cmd, &dep);
}

// Median GPU milliseconds of `runs` calls of `record(cmd, i)` after one untimed call; the
// caller's record function barriers between dependent runs.
double medianMs(engine::Context& ctx, uint32_t runs, const std::function<void(VkCommandBuffer, uint32_t)>& record) {
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2 * runs;
    VkQueryPool q = VK_NULL_HANDLE;
    ENGINE_VK(vkCreateQueryPool(ctx.device(), &qci, nullptr, &q));
    struct Owner {
        VkDevice d;
        VkQueryPool q;
        ~Owner() { vkDestroyQueryPool(d, q, nullptr); }
    } owner{ctx.device(), q};
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, q, 0, 2 * runs);
        record(cmd, 0);
        for (uint32_t i = 0; i < runs; ++i) {
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, q, 2 * i);
            record(cmd, i + 1);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, q, 2 * i + 1);
        }
    });
    std::vector<uint64_t> t(2 * runs);
    ENGINE_VK(vkGetQueryPoolResults(ctx.device(), q, 0, 2 * runs, t.size() * 8, t.data(), 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    std::vector<double> ms(runs);
    for (uint32_t i = 0; i < runs; ++i) ms[i] = double(t[2 * i + 1] - t[2 * i]) * ctx.features().timestampPeriodNs * 1e-6;
    std::sort(ms.begin(), ms.end());
    return ms[runs / 2];
}

// A compute pipeline over `bufferCount` storage buffers (bindings 0..n-1) and push constants,
// with one descriptor set written for the given buffers.
class ComputeKernel {
public:
    ComputeKernel(const engine::Context& ctx, std::span<const uint32_t> spirv, std::span<const VkBuffer> buffers, uint32_t pushBytes)
        : device_(ctx.device()) {
        std::vector<VkDescriptorSetLayoutBinding> bindings(buffers.size());
        for (uint32_t i = 0; i < bindings.size(); ++i) bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
        VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        lci.bindingCount = uint32_t(bindings.size());
        lci.pBindings = bindings.data();
        ENGINE_VK(vkCreateDescriptorSetLayout(device_, &lci, nullptr, &setLayout_));
        VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
        VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        plci.setLayoutCount = 1;
        plci.pSetLayouts = &setLayout_;
        plci.pushConstantRangeCount = 1;
        plci.pPushConstantRanges = &range;
        ENGINE_VK(vkCreatePipelineLayout(device_, &plci, nullptr, &layout_));
        VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smci.codeSize = spirv.size_bytes();
        smci.pCode = spirv.data();
        VkShaderModule module = VK_NULL_HANDLE;
        ENGINE_VK(vkCreateShaderModule(device_, &smci, nullptr, &module));
        VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cpci.stage.module = module;
        cpci.stage.pName = "main";
        cpci.layout = layout_;
        VkResult r = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline_);
        vkDestroyShaderModule(device_, module, nullptr);
        ENGINE_VK(r);
        VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, uint32_t(buffers.size())};
        VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        dpci.maxSets = 1;
        dpci.poolSizeCount = 1;
        dpci.pPoolSizes = &size;
        ENGINE_VK(vkCreateDescriptorPool(device_, &dpci, nullptr, &pool_));
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = pool_;
        ai.descriptorSetCount = 1;
        ai.pSetLayouts = &setLayout_;
        ENGINE_VK(vkAllocateDescriptorSets(device_, &ai, &set_));
        std::vector<VkDescriptorBufferInfo> infos(buffers.size());
        std::vector<VkWriteDescriptorSet> writes(buffers.size());
        for (uint32_t i = 0; i < buffers.size(); ++i) {
            infos[i] = {buffers[i], 0, VK_WHOLE_SIZE};
            writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            writes[i].dstSet = set_;
            writes[i].dstBinding = i;
            writes[i].descriptorCount = 1;
            writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            writes[i].pBufferInfo = &infos[i];
        }
        vkUpdateDescriptorSets(device_, uint32_t(writes.size()), writes.data(), 0, nullptr);
    }
    ~ComputeKernel() {
        vkDestroyDescriptorPool(device_, pool_, nullptr);
        vkDestroyPipeline(device_, pipeline_, nullptr);
        vkDestroyPipelineLayout(device_, layout_, nullptr);
        vkDestroyDescriptorSetLayout(device_, setLayout_, nullptr);
    }
    ComputeKernel(const ComputeKernel&) = delete;
    ComputeKernel& operator=(const ComputeKernel&) = delete;

    void dispatch(VkCommandBuffer cmd, const void* push, uint32_t pushBytes, uint32_t groups) const {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set_, 0, nullptr);
        vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
        vkCmdDispatch(cmd, groups, 1, 1);
    }

private:
    VkDevice device_;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
};

double copyBufferGBs(engine::Context& ctx, const engine::Buffer& a, const engine::Buffer& b) {
    double ms = medianMs(ctx, kCeilingRuns, [&](VkCommandBuffer cmd, uint32_t i) {
        // Ping-pong: each copy reads what the previous one wrote.
        fullBarrier(cmd);
        VkBufferCopy copy{0, 0, a.size()};
        vkCmdCopyBuffer(cmd, (i & 1) ? b.handle() : a.handle(), (i & 1) ? a.handle() : b.handle(), 1, &copy);
    });
    return ms > 0 ? 2.0 * double(a.size()) / (ms * 1e6) : 0.0;
}

double computeCopyGBs(engine::Context& ctx, const engine::Buffer& a, const engine::Buffer& b) {
    VkBuffer ab[] = {a.handle(), b.handle()}, ba[] = {b.handle(), a.handle()};
    ComputeKernel forward(ctx, bench::shaders::copy_vec4(), ab, 4), backward(ctx, bench::shaders::copy_vec4(), ba, 4);
    uint32_t count = uint32_t(a.size() / 16);
    uint32_t groups = std::min((count + 255) / 256, 65535u);
    double ms = medianMs(ctx, kCeilingRuns, [&](VkCommandBuffer cmd, uint32_t i) {
        fullBarrier(cmd);
        ((i & 1) ? backward : forward).dispatch(cmd, &count, 4, groups);
    });
    return ms > 0 ? 2.0 * double(count) * 16.0 / (ms * 1e6) : 0.0;
}

double fmaTflops(engine::Context& ctx, std::span<const uint32_t> spirv, uint32_t groups, uint32_t iterations) {
    engine::Buffer out(ctx, uint64_t(groups) * 256 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, engine::MemoryUsage::DeviceLocal);
    VkBuffer buffers[] = {out.handle()};
    ComputeKernel kernel(ctx, spirv, buffers, 12);
    struct {
        uint32_t iterations;
        float multiplier, addend;
    } push{iterations, 0.9999f, 1e-4f};
    double ms = medianMs(ctx, kCeilingRuns, [&](VkCommandBuffer cmd, uint32_t) {
        fullBarrier(cmd);
        kernel.dispatch(cmd, &push, sizeof(push), groups);
    });
    double flop = double(groups) * 256 * iterations * 8 /*chains*/ * 4 /*lanes*/ * 2;
    return ms > 0 ? flop / (ms * 1e9) : 0.0;
}

}  // namespace

Ceilings measureCeilings(engine::Context& ctx, bool smoke) {
    Ceilings c;
    uint64_t bytes = smoke ? (1u << 20) : (512ull << 20);
    constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    {
        engine::Buffer a(ctx, bytes, usage, engine::MemoryUsage::DeviceLocal), b(ctx, bytes, usage, engine::MemoryUsage::DeviceLocal);
        c.copyBufferGBs = copyBufferGBs(ctx, a, b);
        c.computeCopyGBs = computeCopyGBs(ctx, a, b);
    }
    uint32_t groups = smoke ? 4 : 4096, iterations = smoke ? 16 : 4096;
    c.fp32FmaTflops = fmaTflops(ctx, bench::shaders::fma_peak_f32(), groups, iterations);
    if (ctx.features().shaderFloat16) c.fp16FmaTflops = fmaTflops(ctx, bench::shaders::fma_peak_f16(), groups, iterations);
    c.coopGemmTflops = measureCoopGemmTflops(ctx, smoke);
    return c;
}

}  // namespace bench
