#include "ceilings.h"

#include "bench_shaders.h"
#include "compute_kernel.h"
#include "coop_gemm_ceiling.h"
#include "engine/buffer.h"
#include "engine/error.h"

#include <vkutil/barrier.h>
#include <vkutil/timestamps.h>

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
    vkutil::memoryBarrier(cmd, stages, access, stages, access);
}

// Median GPU milliseconds of `runs` calls of `record(cmd, i)` after one untimed call; the
// caller's record function barriers between dependent runs.
double medianMs(engine::Context& ctx, uint32_t runs, const std::function<void(VkCommandBuffer, uint32_t)>& record) {
    vkutil::TimestampPool q;
    ENGINE_VK(q.create(ctx.device(), runs, ctx.features().timestampPeriodNs, ctx.features().timestampValidBits));
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        q.reset(cmd);
        record(cmd, 0);
        for (uint32_t i = 0; i < runs; ++i) {
            q.begin(cmd, i);
            record(cmd, i + 1);
            q.end(cmd, i);
        }
    });
    std::vector<double> ms(runs);
    ENGINE_VK(q.readMs(ms, /*wait*/ true));
    std::sort(ms.begin(), ms.end());
    return ms[runs / 2];
}

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
