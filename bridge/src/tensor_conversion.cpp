#include "tensor_conversion.h"

#include "bridge_shaders.h"
#include "engine/error.h"

#include <vkutil/create_info.h>
#include <vkutil/pipeline.h>

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
        ENGINE_VK(vkutil::createSampler(device, VK_FILTER_NEAREST, &sampler));
        const VkDescriptorType toTensorTypes[] = {
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
            VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
        const VkDescriptorType toImageTypes[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
        constexpr VkShaderStageFlags compute = VK_SHADER_STAGE_COMPUTE_BIT;
        ENGINE_VK(vkutil::createDescriptorSetLayout(device, toTensorTypes, compute, &toTensorSetLayout));
        ENGINE_VK(vkutil::createDescriptorSetLayout(device, toImageTypes, compute, &toImageSetLayout));
        ENGINE_VK(vkutil::createPipelineLayout(device, {.setLayouts = {&toTensorSetLayout, 1}}, &toTensorLayout));
        ENGINE_VK(vkutil::createPipelineLayout(device, {.setLayouts = {&toImageSetLayout, 1}, .pushConstantBytes = sizeof(ToImagePush)},
                                               &toImageLayout));
        auto pipeline = [&](VkPipelineLayout layout, std::span<const uint32_t> code, VkPipeline& out) {
            ENGINE_VK(vkutil::createComputePipeline(device, {.layout = layout, .spirv = code}, &out));
        };
        pipeline(toTensorLayout, shaders::image_to_tensor_f32(), toTensor[0]);
        pipeline(toImageLayout, shaders::tensor_to_image_f32(), toImage[0]);
        // fp16 tensors need 16-bit storage and fp16 types (conversions to float16_t).
        if (ctx.features().storageBuffer16BitAccess && ctx.features().shaderFloat16) {
            pipeline(toTensorLayout, shaders::image_to_tensor_f16(), toTensor[1]);
            pipeline(toImageLayout, shaders::tensor_to_image_f16(), toImage[1]);
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
