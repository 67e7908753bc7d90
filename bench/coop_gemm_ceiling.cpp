#include "coop_gemm_ceiling.h"

#include "bench_shaders.h"
#include "engine/buffer.h"
#include "engine/error.h"

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
    VkDevice dev = ctx.device();
    VkDescriptorSetLayoutBinding bindings[3];
    for (uint32_t i = 0; i < 3; ++i) bindings[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    lci.bindingCount = 3;
    lci.pBindings = bindings;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
    struct Cleanup {
        VkDevice d;
        VkDescriptorSetLayout& s;
        VkPipelineLayout& l;
        VkPipeline& p;
        VkDescriptorPool& dp;
        VkQueryPool& q;
        ~Cleanup() {
            vkDestroyQueryPool(d, q, nullptr);
            vkDestroyDescriptorPool(d, dp, nullptr);
            vkDestroyPipeline(d, p, nullptr);
            vkDestroyPipelineLayout(d, l, nullptr);
            vkDestroyDescriptorSetLayout(d, s, nullptr);
        }
    } cleanup{dev, setLayout, layout, pipeline, pool, queries};
    ENGINE_VK(vkCreateDescriptorSetLayout(dev, &lci, nullptr, &setLayout));
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 12};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &setLayout;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &range;
    ENGINE_VK(vkCreatePipelineLayout(dev, &plci, nullptr, &layout));
    VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.size_bytes();
    smci.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    ENGINE_VK(vkCreateShaderModule(dev, &smci, nullptr, &module));
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = "main";
    cpci.layout = layout;
    VkResult r = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline);
    vkDestroyShaderModule(dev, module, nullptr);
    ENGINE_VK(r);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &size;
    ENGINE_VK(vkCreateDescriptorPool(dev, &dpci, nullptr, &pool));
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &setLayout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    ENGINE_VK(vkAllocateDescriptorSets(dev, &ai, &set));
    VkDescriptorBufferInfo infos[3] = {{a.handle(), 0, VK_WHOLE_SIZE}, {b.handle(), 0, VK_WHOLE_SIZE}, {c.handle(), 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[3];
    for (uint32_t i = 0; i < 3; ++i) {
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(dev, 3, writes, 0, nullptr);
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = 2;
    ENGINE_VK(vkCreateQueryPool(dev, &qci, nullptr, &queries));

    uint32_t push[3] = {m, n, k};
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdResetQueryPool(cmd, queries, 0, 2);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
        for (uint32_t i = 0; i <= runs; ++i) {  // the first run warms up, untimed
            if (i == 1) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 0);
            // Every run writes C: order the writes (write-after-write) so runs do not overlap.
            VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                VK_ACCESS_2_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT};
            VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
            dep.memoryBarrierCount = 1;
            dep.pMemoryBarriers = &mb;
            vkCmdPipelineBarrier2(cmd, &dep);
            vkCmdDispatch(cmd, n / 256, m / 128, 1);
        }
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 1);
    });
    uint64_t t[2];
    ENGINE_VK(vkGetQueryPoolResults(dev, queries, 0, 2, sizeof(t), t, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    double seconds = double(t[1] - t[0]) * ctx.features().timestampPeriodNs * 1e-9;
    return seconds > 0 ? 2.0 * m * n * double(k) * runs / seconds / 1e12 : 0.0;
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
        VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT};
        VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.memoryBarrierCount = 1;
        dep.pMemoryBarriers = &mb;
        vkCmdPipelineBarrier2(cmd, &dep);
    });
    return gemmTflops(ctx, bench::shaders::coop_gemm(), a, b, c, m, n, k, runs);
}

}  // namespace bench
