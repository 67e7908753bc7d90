#include "tensor_conversion.h"

#include "bridge_shaders.h"
#include "engine/error.h"

#include <span>
#include <stdexcept>

namespace bridge {

const char* toString(FrameImage image) {
    switch (image) {
    case FrameImage::Color: return "color";
    case FrameImage::Albedo: return "albedo";
    case FrameImage::Normal: return "normal";
    case FrameImage::Depth: return "depth";
    case FrameImage::Motion: return "motion";
    }
    return "?";
}

namespace detail {
namespace {

VkPipeline computePipeline(VkDevice device, VkPipelineLayout layout, std::span<const uint32_t> code) {
    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = code.size_bytes();
    mci.pCode = code.data();
    VkShaderModule module;
    ENGINE_VK(vkCreateShaderModule(device, &mci, nullptr, &module));
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
    ci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline);
    vkDestroyShaderModule(device, module, nullptr);
    ENGINE_VK(r);
    return pipeline;
}

VkDescriptorSetLayout setLayout(VkDevice device, std::span<const VkDescriptorType> types) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t i = 0; i < types.size(); ++i) bindings.push_back({i, types[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    VkDescriptorSetLayout layout;
    ENGINE_VK(vkCreateDescriptorSetLayout(device, &ci, nullptr, &layout));
    return layout;
}

VkPipelineLayout pipelineLayout(VkDevice device, VkDescriptorSetLayout set, uint32_t pushBytes) {
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
    VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ci.setLayoutCount = 1;
    ci.pSetLayouts = &set;
    ci.pushConstantRangeCount = pushBytes ? 1 : 0;
    ci.pPushConstantRanges = &push;
    VkPipelineLayout layout;
    ENGINE_VK(vkCreatePipelineLayout(device, &ci, nullptr, &layout));
    return layout;
}

}  // namespace

std::vector<uint32_t> parseComponents(const std::string& components, const std::string& what) {
    if (components.empty() || components.size() > 4)
        throw engine::Error(what + ": components '" + components + "' must name 1 to 4 components (r g b a or x y z w)");
    std::vector<uint32_t> out;
    for (char c : components) {
        const char* rgba = "rgba";
        const char* xyzw = "xyzw";
        uint32_t i = 0;
        while (i < 4 && rgba[i] != c && xyzw[i] != c) ++i;
        if (i == 4) throw engine::Error(what + ": '" + std::string(1, c) + "' in components '" + components + "' is not one of r g b a x y z w");
        out.push_back(i);
    }
    return out;
}

ConversionPipelines::ConversionPipelines(const engine::Context& ctx) : device(ctx.device()) {
    try {
        VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
        sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        ENGINE_VK(vkCreateSampler(device, &sci, nullptr, &sampler));
        const VkDescriptorType toTensorTypes[] = {
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
        const VkDescriptorType toImageTypes[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
        toTensorSetLayout = setLayout(device, toTensorTypes);
        toImageSetLayout = setLayout(device, toImageTypes);
        toTensorLayout = pipelineLayout(device, toTensorSetLayout, 0);
        toImageLayout = pipelineLayout(device, toImageSetLayout, sizeof(ToImagePush));
        toTensor[0] = computePipeline(device, toTensorLayout, shaders::image_to_tensor_f32());
        toImage[0] = computePipeline(device, toImageLayout, shaders::tensor_to_image_f32());
        // fp16 tensors need 16-bit storage and fp16 types (conversions to float16_t).
        if (ctx.features().storageBuffer16BitAccess && ctx.features().shaderFloat16) {
            toTensor[1] = computePipeline(device, toTensorLayout, shaders::image_to_tensor_f16());
            toImage[1] = computePipeline(device, toImageLayout, shaders::tensor_to_image_f16());
        }
    } catch (...) {
        destroy();
        throw;
    }
}

ConversionPipelines::~ConversionPipelines() { destroy(); }

void ConversionPipelines::destroy() {
    for (VkPipeline p : {toTensor[0], toTensor[1], toImage[0], toImage[1]})
        if (p) vkDestroyPipeline(device, p, nullptr);
    if (toTensorLayout) vkDestroyPipelineLayout(device, toTensorLayout, nullptr);
    if (toImageLayout) vkDestroyPipelineLayout(device, toImageLayout, nullptr);
    if (toTensorSetLayout) vkDestroyDescriptorSetLayout(device, toTensorSetLayout, nullptr);
    if (toImageSetLayout) vkDestroyDescriptorSetLayout(device, toImageSetLayout, nullptr);
    if (sampler) vkDestroySampler(device, sampler, nullptr);
}

}  // namespace detail
}  // namespace bridge
