// effects::Denoiser: image -> tensors, the network (mlplugin), tensor -> image.
#include "effects/denoiser.h"

#include "denoiser_shared.h"
#include "format_names.h"
#include "effects/upscaler.h"
#include "mlplugin/mlplugin.h"
#include "network_effect.h"
#include "temporal_network.h"
#include "upscaler_shared.h"
#include "vulkan_api.h"

#include <effects_shaders.h>
#include <vkutil/create_info.h>
#include <vkutil/descriptors.h>

#include <array>

namespace effects {
namespace {

using namespace detail;
static_assert(sizeof(gpu::DenoiserPush) == 32);
constexpr const char* kDenoiserWho = "denoiser";
constexpr uint32_t kAlign = 8;  // the shipped U-Net halves its input twice; 8 leaves room for a third level

constexpr VkDescriptorType kSampledImage = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
constexpr VkDescriptorType kBuffer = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
constexpr VkDescriptorType kToTensorBindings[] = {kSampledImage, kSampledImage, kSampledImage, kSampledImage, kBuffer, kBuffer, kBuffer, kBuffer};
constexpr VkDescriptorType kToImageBindings[] = {kBuffer, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};

Error invalidDesc(const std::string& m) { return {ErrorCode::InvalidArgument, std::string(kDenoiserWho) + ": " + m, VK_SUCCESS}; }

std::span<const uint32_t> toImageShader(VkFormat f, bool fp16) {
    switch (f) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: return fp16 ? shaders::dn_to_image_rgba32f_f16() : shaders::dn_to_image_rgba32f_f32();
    case VK_FORMAT_R8G8B8A8_UNORM: return fp16 ? shaders::dn_to_image_rgba8_f16() : shaders::dn_to_image_rgba8_f32();
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return fp16 ? shaders::dn_to_image_rgb10_a2_f16() : shaders::dn_to_image_rgb10_a2_f32();
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
        return fp16 ? shaders::dn_to_image_r11f_g11f_b10f_f16() : shaders::dn_to_image_r11f_g11f_b10f_f32();
    default: return fp16 ? shaders::dn_to_image_rgba16f_f16() : shaders::dn_to_image_rgba16f_f32();
    }
}

Status checkImage(const char* name, const ImageInput& image, VkExtent2D size, bool depth) {
    if (!image.view) return invalidDesc(std::string("the ") + name + " image is missing (no view given)");
    if (image.extent.width < size.width || image.extent.height < size.height)
        return invalidDesc(std::string("the ") + name + " image is " + extentText(image.extent) + ", smaller than this frame's size " + extentText(size));
    bool ok = image.layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL || image.layout == VK_IMAGE_LAYOUT_GENERAL ||
              image.layout == VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL ||
              (depth && (image.layout == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL || image.layout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL));
    if (!ok) return invalidDesc(std::string("the ") + name + " image is in layout " + layoutName(image.layout) + ", which compute shaders cannot sample");
    return {};
}

class DenoiserImpl final : public Denoiser, private NetworkEffectParts {
public:
    DenoiserImpl(const DenoiserDesc& desc, const VulkanApi& vk, std::vector<uint8_t> model)
        : NetworkEffectParts(vk, std::move(model)), desc_(desc) {
        desc_.modelBytes = model_;
        desc_.modelPath.clear();
    }
    Status init();
    const DenoiserDesc& desc() const override { return desc_; }
    EffectRequirements requirements() const override { return requirementsFor(desc_.framesInFlight, 10); }
    bool usesFp16() const override { return network_->fp16(); }
    bool usesTensorCores() const override { return network_->tensorCores(); }
    Status recordInitialization(VkCommandBuffer cmd) override { return initializeNetwork(cmd, kDenoiserWho); }
    Status record(VkCommandBuffer cmd, const DenoiserInputs& in) override;

private:
    struct Slot {
        ConversionSets sets;
        std::array<VkImageView, 5> views{};  // what `sets` point at
    };
    DenoiserDesc desc_;
    std::vector<Slot> slots_;
    VkExtent2D tensor_{};
};

Status DenoiserImpl::init() {
    MLP_TRY(take(createPluginDevice(desc_.device, kDenoiserWho), mlDevice_));
    const mlplugin::Capabilities& caps = mlDevice_->capabilities();
    tensor_ = {(desc_.maxSize.width + kAlign - 1) / kAlign * kAlign, (desc_.maxSize.height + kAlign - 1) / kAlign * kAlign};
    NetworkDesc nd;
    nd.who = kDenoiserWho;
    nd.onnx = model_;
    const uint32_t h = tensor_.height, w = tensor_.width;
    nd.inputs = {{"color", {1, 3, h, w}}, {"albedo", {1, 3, h, w}}, {"normal", {1, 3, h, w}}, {"depth", {1, 1, h, w}}};
    nd.outputs = {{"output", {1, 3, h, w}}};
    nd.fp16 = desc_.preferFp16 && caps.fp16Storage && caps.fp16Arithmetic;
    nd.bundle = desc_.device.primaryCommandBuffers;
    MLP_TRY(take(Network::create(vk_, *mlDevice_, nd, tally_), network_));
    const bool fp16 = network_->fp16();
    return createConversions(fp16 ? shaders::dn_to_tensor_f16() : shaders::dn_to_tensor_f32(), kToTensorBindings,
                             toImageShader(desc_.outputFormat, fp16), kToImageBindings, sizeof(gpu::DenoiserPush), desc_.framesInFlight,
                             slots_, kDenoiserWho);
}

Status DenoiserImpl::record(VkCommandBuffer cmd, const DenoiserInputs& in) {
    if (!cmd) return invalidDesc("record needs a command buffer");
    MLP_TRY(validateDenoiserInputs(desc_, in));
    if (!network_->initialized()) return invalidDesc("record recordInitialization() once before the first record()");
    Slot& s = slots_[in.frameSlot];
    const std::array<VkImageView, 5> views{in.color.view, in.albedo.view, in.normal.view, in.depth.view, in.output.view};
    if (views != s.views) {
        const ImageInput* sampled[] = {&in.color, &in.albedo, &in.normal, &in.depth};
        vkutil::DescriptorWrites toTensor(s.sets.toTensor);
        for (uint32_t i = 0; i < 4; ++i) toTensor.image(i, kSampledImage, {sampler_, sampled[i]->view, sampled[i]->layout});
        for (uint32_t i = 0; i < 4; ++i) toTensor.buffer(4 + i, kBuffer, {network_->input(i).buffer, 0, VK_WHOLE_SIZE});
        toTensor.update(vk_, vk_.device);
        vkutil::DescriptorWrites(s.sets.toImage)
            .buffer(0, kBuffer, {network_->output(0).buffer, 0, VK_WHOLE_SIZE})
            .image(1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {VK_NULL_HANDLE, in.output.view, VK_IMAGE_LAYOUT_GENERAL})
            .update(vk_, vk_.device);
        s.views = views;
    }
    gpu::DenoiserPush pc{};
    pc.width = in.size.width;
    pc.height = in.size.height;
    pc.tensorWidth = tensor_.width;
    pc.tensorHeight = tensor_.height;
    pc.flags = (desc_.flags & DenoiserFlagColorSrgb) ? gpu::FLAG_COLOR_SRGB : 0u;
    return recordConversions(cmd, s.sets, pc, tensor_, in.size, in.steps);
}

}  // namespace

Status validateDenoiserDesc(const DenoiserDesc& d) {
    if (!d.device.getInstanceProcAddr) return invalidDesc("EffectDevice::getInstanceProcAddr is null");
    if (!d.device.instance || !d.device.physicalDevice || !d.device.device) return invalidDesc("EffectDevice needs the instance, physical device and device handles");
    if (d.maxSize.width < 1 || d.maxSize.height < 1 || d.maxSize.width > 16384 || d.maxSize.height > 16384)
        return invalidDesc("maxSize " + extentText(d.maxSize) + " is out of range [1, 16384]");
    if (!isSupportedOutputFormat(d.outputFormat))
        return invalidDesc("outputFormat " + formatName(d.outputFormat) + " is not supported (" + kSupportedOutputFormats + ")");
    if (d.flags & ~uint32_t(DenoiserFlagColorSrgb)) return invalidDesc("unknown flag bits");
    if (d.modelPath.empty() == d.modelBytes.empty()) return invalidDesc("give the model as modelPath or as modelBytes (exactly one)");
    if (d.framesInFlight < 1 || d.framesInFlight > 8) return invalidDesc("framesInFlight " + std::to_string(d.framesInFlight) + " is out of range [1, 8]");
    return {};
}

Status validateDenoiserInputs(const DenoiserDesc& d, const DenoiserInputs& in) {
    if (in.frameSlot >= d.framesInFlight)
        return invalidDesc("frameSlot " + std::to_string(in.frameSlot) + " is out of range (created for " + std::to_string(d.framesInFlight) + " frames in flight)");
    if (in.size.width < 1 || in.size.height < 1) return invalidDesc("the size " + extentText(in.size) + " is empty");
    if (in.size.width > d.maxSize.width || in.size.height > d.maxSize.height)
        return invalidDesc("the size " + extentText(in.size) + " exceeds the maximum size " + extentText(d.maxSize) + " given at creation");
    MLP_TRY(checkImage("color", in.color, in.size, false));
    if (std::string p = doubleSrgbDecodeProblem("color", in.color.format, d.flags & DenoiserFlagColorSrgb, "DenoiserFlagColorSrgb"); !p.empty())
        return invalidDesc(p);
    MLP_TRY(checkImage("albedo", in.albedo, in.size, false));
    MLP_TRY(checkImage("normal", in.normal, in.size, false));
    MLP_TRY(checkImage("depth", in.depth, in.size, true));
    if (!in.output.view) return invalidDesc("the output image is missing (no view given)");
    if (in.output.extent.width < in.size.width || in.output.extent.height < in.size.height)
        return invalidDesc("the output image is " + extentText(in.output.extent) + ", smaller than this frame's size " + extentText(in.size));
    if (in.output.format != d.outputFormat)
        return invalidDesc("the output image's format " + formatName(in.output.format) + " differs from the outputFormat " + formatName(d.outputFormat) + " given at creation");
    if (in.output.layout != VK_IMAGE_LAYOUT_GENERAL) return invalidDesc("the output image is in layout " + layoutName(in.output.layout) + "; storage writes need GENERAL");
    return {};
}

Result<std::unique_ptr<Denoiser>> Denoiser::create(const DenoiserDesc& desc) {
    MLP_TRY(validateDenoiserDesc(desc));
    auto vk = loadVulkanApi(desc.device);
    if (!vk) return Error{vk.error().code, std::string(kDenoiserWho) + ": " + vk.error().message, vk.error().vkResult};
    MLP_TRY(checkStorageImageFormat(*vk, desc.outputFormat, kDenoiserWho));
    std::vector<uint8_t> model;
    if (!desc.modelPath.empty()) {
        auto bytes = readModelFile(desc.modelPath, kDenoiserWho);
        if (!bytes) return bytes.error();
        model = std::move(*bytes);
    } else {
        model.assign(desc.modelBytes.begin(), desc.modelBytes.end());
    }
    auto dn = std::make_unique<DenoiserImpl>(desc, *vk, std::move(model));
    MLP_TRY(dn->init());
    return std::unique_ptr<Denoiser>(std::move(dn));
}

}  // namespace effects
