// pipeline_stats: what the driver made of the convolution kernels (registers, shared memory,
// spills...) through VK_KHR_pipeline_executable_properties, for the shapes ml_bench times, and of
// the temporal upscaler's display passes. The occupancy those figures allow is what RESULTS.md's
// "what limits us" reasons from.
//
// It plans each convolution exactly as compileOperator does (the plugin's internal planner) and
// creates the planned pipelines once more with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR; the
// effect passes from the SPIR-V the effects embed, with the descriptor bindings and push-constant
// size the effect creates them with (effects/src/upscaler.cpp).
#include "cli.h"
#include "device_impl.h"
#include "engine/context.h"
#include "engine/error.h"
#include "mlplugin/convolution.h"

#include "bridge/graph_session.h"
#include "effects_shaders.h"
#include "upscaler_shared.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace mlplugin;

namespace {

struct Options {
    uint32_t width = 1920, height = 1080;
    int device = -1;
    bool validation = false;
};

void usage() {
    std::printf("usage: pipeline_stats [--size WxH] [--device INDEX] [--validation]\n"
                "  Prints the driver's statistics (VK_KHR_pipeline_executable_properties) for the kernels\n"
                "  of ml_bench's convolution shapes at WxH (default 1920x1080), fp16 and fp16-arith.\n");
}

bool parseSize(const char* s, uint32_t& w, uint32_t& h) {
    unsigned a = 0, b = 0;
    char tail = 0;
    if (std::sscanf(s, "%ux%u%c", &a, &b, &tail) != 2 || a == 0 || b == 0 || a > 16384 || b > 16384) return false;
    w = a, h = b;
    return true;
}

struct Shape {
    uint32_t k, inC, outC;
};

ConvolutionDesc convolution(const Shape& s, uint32_t w, uint32_t h) {
    ConvolutionDesc d;
    d.name = "conv" + std::to_string(s.k) + "x" + std::to_string(s.k) + " " + std::to_string(s.inC) + "->" + std::to_string(s.outC);
    uint32_t pad = s.k / 2;
    d.padBegin = {pad, pad};
    d.padEnd = {pad, pad};
    // Channels-last, as the graph stores conv -> conv intermediates on tensor-core devices.
    d.input = TensorDesc::strided(DataType::Float16, {1, s.inC, h, w}, {h * w * s.inC, 1, w * s.inC, s.inC});
    d.filter = TensorDesc::make(DataType::Float16, {s.outC, s.inC, s.k, s.k}, TensorFlagOwnedByPlugin);
    d.bias = TensorDesc::make(DataType::Float16, {s.outC}, TensorFlagOwnedByPlugin);
    d.output = TensorDesc::strided(DataType::Float16, {1, s.outC, h, w}, {h * w * s.outC, 1, w * s.outC, s.outC});
    return d;
}

std::string statisticValue(const VkPipelineExecutableStatisticKHR& s) {
    switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return s.value.b32 ? "true" : "false";
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return std::to_string(s.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return std::to_string(s.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return std::to_string(s.value.f64);
    default: return "?";
    }
}

// Prints the driver's statistics of `pipeline` (created with statistics captured), one line per
// executable.
void printStatistics(VkDevice device, VkPipeline pipeline, const char* name) {
    auto getProperties = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
    auto getStatistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
    if (!getProperties || !getStatistics) throw engine::Error("VK_KHR_pipeline_executable_properties entry points missing");
    VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    info.pipeline = pipeline;
    uint32_t executables = 0;
    VkResult r = getProperties(device, &info, &executables, nullptr);
    std::vector<VkPipelineExecutablePropertiesKHR> props(executables, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
    if (r == VK_SUCCESS) r = getProperties(device, &info, &executables, props.data());
    for (uint32_t e = 0; r == VK_SUCCESS && e < executables; ++e) {
        VkPipelineExecutableInfoKHR exec{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        exec.pipeline = pipeline;
        exec.executableIndex = e;
        uint32_t count = 0;
        r = getStatistics(device, &exec, &count, nullptr);
        std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        if (r == VK_SUCCESS) r = getStatistics(device, &exec, &count, stats.data());
        std::printf("    %-24s subgroup %u:", name, props[e].subgroupSize);
        for (uint32_t i = 0; r == VK_SUCCESS && i < count; ++i) std::printf(" %s=%s;", stats[i].name, statisticValue(stats[i]).c_str());
        std::printf("\n");
    }
    ENGINE_VK(r);
}

// Creates `spec` with statistics captured and prints them on one line; without the extension
// (lavapipe) it only creates the pipeline, so CI's smoke run still builds every planned kernel.
void printStatistics(const detail::VulkanFunctions& fns, VkDevice device, VkPipelineLayout layout, const detail::PipelineSpec& spec,
                     bool captured) {
    auto created = detail::createComputePipeline(fns, device, layout, spec, captured ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0);
    if (!created) throw engine::Error(created.error().message);
    if (captured)
        printStatistics(device, *created, spec.debugName);
    else
        std::printf("    %-24s (created; no statistics on this device)\n", spec.debugName);
    vkDestroyPipeline(device, *created, nullptr);
}

// One of the temporal upscaler's display passes as the effect creates it: one descriptor set of
// `bindings` and its push constants (gpu::ResolvePush).
struct EffectPass {
    const char* name;
    std::span<const uint32_t> spirv;
    std::vector<VkDescriptorType> bindings;
};

void printEffectStatistics(VkDevice device, const EffectPass& pass, bool captured) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t i = 0; i < pass.bindings.size(); ++i) bindings.push_back({i, pass.bindings[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    ENGINE_VK(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout));
    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(effects::gpu::ResolvePush)};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = 1;
    layoutInfo.pPushConstantRanges = &push;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkResult r = vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout);
    VkShaderModule module = VK_NULL_HANDLE;
    if (r == VK_SUCCESS) {
        VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        moduleInfo.codeSize = pass.spirv.size_bytes();
        moduleInfo.pCode = pass.spirv.data();
        r = vkCreateShaderModule(device, &moduleInfo, nullptr, &module);
    }
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (r == VK_SUCCESS) {
        VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        ci.flags = captured ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0;
        ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
        ci.layout = layout;
        r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline);
    }
    if (r == VK_SUCCESS) {
        if (captured)
            printStatistics(device, pipeline, pass.name);
        else
            std::printf("    %-24s (created; no statistics on this device)\n", pass.name);
    }
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyShaderModule(device, module, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    ENGINE_VK(r);
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    bench::ArgParser args("pipeline_stats", argc, argv);
    while (args.next()) {
        bool ok = true;
        if (args.is("--help") || args.is("-h")) {
            usage();
            return 0;
        } else if (args.is("--validation")) {
            o.validation = true;
        } else if (args.is("--device")) {
            ok = args.deviceIndex(o.device);
        } else if (args.is("--size")) {
            const char* v = args.value();
            ok = v && parseSize(v, o.width, o.height);
            if (v && !ok) std::fprintf(stderr, "pipeline_stats: --size expects WxH (1..16384 each), not '%s'\n", v);
        } else {
            ok = args.unknown();
        }
        if (!ok) return 2;
    }
    try {
        engine::ContextDesc cd;
        cd.validation = o.validation;
        if (o.device >= 0) cd.deviceIndex = uint32_t(o.device);
        cd.pipelineStatistics = true;
        engine::Context ctx(cd);
        const bool captured = ctx.features().pipelineExecutableInfo;
        if (!captured) std::printf("pipeline_stats: %s has no VK_KHR_pipeline_executable_properties\n", ctx.deviceName().c_str());
        auto device = bridge::createDevice(ctx, false);
        auto& impl = static_cast<detail::DeviceImpl&>(*device);
        const Capabilities& caps = device->capabilities();
        std::printf("device: %s (cooperative matrix %s, %u bytes of shared memory per workgroup)\n", caps.deviceName.c_str(),
                    caps.cooperativeMatrixNV ? "yes" : "no", caps.maxComputeSharedMemoryBytes);
        const Shape shapes[] = {{3, 64, 64}, {3, 64, 32}, {3, 32, 32}, {3, 64, 12}, {3, 16, 16}, {3, 96, 112}, {1, 64, 64}};
        for (uint32_t flags : {0u, uint32_t(ExecutionFlagAllowHalfPrecisionComputation)}) {
            for (const Shape& s : shapes) {
                ConvolutionDesc d = convolution(s, o.width, o.height);
                detail::PlanContext pc = impl.planContext(flags);
                detail::ConvolutionTuning tuning = detail::convolutionTuning(pc, d, {});
                if (tuning.candidates.empty()) tuning.candidates.push_back(tuning.chosen);  // the portable kernel
                std::printf("%s %ux%u NHWC %s (default %s):\n", d.name.c_str(), o.width, o.height, flags ? "fp16-arith" : "fp16",
                            tuning.chosen.c_str());
                // Every candidate kernel configuration a tuner may pick (mlplugin/tuning.h).
                for (const std::string& candidate : tuning.candidates) {
                    auto table = std::make_shared<TuningTable>();
                    table->set(tuning.key, {candidate, 0});
                    pc.tuning = table;
                    auto plan = detail::planConvolution(pc, d);
                    if (!plan) throw engine::Error(plan.error().message);
                    const detail::Launch& launch = plan->execute.back();
                    std::printf("  %-34s %u x %u x %u workgroups\n", candidate.c_str(), launch.groups[0], launch.groups[1], launch.groups[2]);
                    printStatistics(impl.fns(), ctx.device(), impl.pipelineLayout(), plan->pipelines[launch.pipeline], captured);
                }
            }
        }
        // The temporal upscaler's display passes (rgba16f output, fp16 tensors: what frame_bench times).
        constexpr VkDescriptorType sampled = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, image = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                   buffer = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        const std::vector<VkDescriptorType> reprojection = {sampled, sampled, sampled, sampled, sampled, sampled, image};
        auto with = [&](std::vector<VkDescriptorType> b, std::initializer_list<VkDescriptorType> more) {
            b.insert(b.end(), more);
            return b;
        };
        const EffectPass passes[] = {
            {"ml_features_5tap_f16", effects::shaders::ml_features_5tap_f16(), with(reprojection, {buffer})},
            {"ml_features_f16", effects::shaders::ml_features_f16(), with(reprojection, {buffer})},
            {"ml_features_moving_f16", effects::shaders::ml_features_moving_f16(), with(reprojection, {buffer})},
            {"ml_resolve_rgba16f_f16", effects::shaders::ml_resolve_rgba16f_f16(), {buffer, buffer, image, image}},
            {"taau_resolve_rgba16f", effects::shaders::taau_resolve_rgba16f(), with(reprojection, {image, image})}};
        std::printf("temporal upscaler passes:\n");
        for (const EffectPass& pass : passes) printEffectStatistics(ctx.device(), pass, captured);
        if (ctx.validationMessageCount() != 0) {
            std::fprintf(stderr, "pipeline_stats: %llu validation messages\n", (unsigned long long)ctx.validationMessageCount());
            return 1;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pipeline_stats: %s\n", e.what());
        return 1;
    }
    return 0;
}
