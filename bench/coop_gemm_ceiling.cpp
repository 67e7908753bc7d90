#include "coop_gemm_ceiling.h"

#include "bench_shaders.h"
#include "compute_kernel.h"
#include "engine/buffer.h"
#include "engine/error.h"

#include <vkutil/barrier.h>
#include <vkutil/timestamps.h>

#include <span>
#include <vector>

namespace bench {
namespace {

bool hasFp32AccumulatorShape(const engine::Context& ctx) {
    auto get = reinterpret_cast<PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV>(
        vkGetInstanceProcAddr(ctx.instance(), "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV"));
    if (!get) return false;
    uint32_t n = 0;
    ENGINE_VK(get(ctx.physicalDevice(), &n, nullptr));
    std::vector<VkCooperativeMatrixPropertiesNV> props(n, {VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV});
    ENGINE_VK(get(ctx.physicalDevice(), &n, props.data()));
    for (const auto& p : props)
        if (p.MSize == 16 && p.NSize == 16 && p.KSize == 16 && p.scope == VK_SCOPE_SUBGROUP_NV && p.AType == VK_COMPONENT_TYPE_FLOAT16_NV &&
            p.BType == VK_COMPONENT_TYPE_FLOAT16_NV && p.CType == VK_COMPONENT_TYPE_FLOAT32_NV && p.DType == VK_COMPONENT_TYPE_FLOAT32_NV)
            return true;
    return false;
}

// Average TFLOP/s of `runs` back-to-back GEMMs of size m x n x k with the given kernel.
double gemmTflops(engine::Context& ctx, std::span<const uint32_t> spirv, const engine::Buffer& a, const engine::Buffer& b,
                  const engine::Buffer& c, uint32_t m, uint32_t n, uint32_t k, uint32_t runs) {
    const VkBuffer buffers[] = {a.handle(), b.handle(), c.handle()};
    ComputeKernel kernel(ctx, spirv, buffers, 12);
    vkutil::TimestampPool queries;
    ENGINE_VK(queries.create(ctx.device(), 1, ctx.features().timestampPeriodNs, ctx.features().timestampValidBits));
    const uint32_t push[3] = {m, n, k};
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        queries.reset(cmd);
        for (uint32_t i = 0; i <= runs; ++i) {  // the first run warms up, untimed
            if (i == 1) queries.begin(cmd, 0);
            // Every run writes C: order the writes (write-after-write) so runs do not overlap.
            vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                  VK_ACCESS_2_SHADER_WRITE_BIT);
            kernel.dispatch(cmd, push, sizeof(push), n / 256, m / 128);
        }
        queries.end(cmd, 0);
    });
    double ms = 0;
    ENGINE_VK(queries.readMs({&ms, 1}, /*wait*/ true));
    return ms > 0 ? 2.0 * m * n * double(k) * runs / (ms * 1e-3) / 1e12 : 0.0;
}

}  // namespace

std::optional<double> measureCoopGemmTflops(engine::Context& ctx, bool smoke) {
    const engine::DeviceFeatures& f = ctx.features();
    if (!f.cooperativeMatrixNV || !f.shaderFloat16 || !f.storageBuffer16BitAccess || !hasFp32AccumulatorShape(ctx)) return std::nullopt;
    uint32_t m = smoke ? 128 : 4096, n = smoke ? 256 : 4096, k = smoke ? 64 : 4096, runs = smoke ? 2 : 20;
    constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    engine::Buffer a(ctx, uint64_t(m) * k * 2, usage, engine::MemoryUsage::DeviceLocal);
    engine::Buffer b(ctx, uint64_t(k) * n * 2, usage, engine::MemoryUsage::DeviceLocal);
    engine::Buffer c(ctx, uint64_t(m) * n * 4, usage, engine::MemoryUsage::DeviceLocal);
    ctx.submitAndWait([&](VkCommandBuffer cmd) {  // 0.0999 in every half: finite products, no denormals
        vkCmdFillBuffer(cmd, a.handle(), 0, VK_WHOLE_SIZE, 0x2E662E66u);
        vkCmdFillBuffer(cmd, b.handle(), 0, VK_WHOLE_SIZE, 0x2E662E66u);
        vkutil::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              VK_ACCESS_2_SHADER_READ_BIT);
    });
    return gemmTflops(ctx, bench::shaders::coop_gemm(), a, b, c, m, n, k, runs);
}

}  // namespace bench
