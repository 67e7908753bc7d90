#include "single_frame_upscaler.h"

#include "format_names.h"
#include "mlplugin/mlplugin.h"
#include "single_frame_shared.h"
#include "network_effect.h"
#include "temporal_network.h"
#include "upscaler_shared.h"

#include <effects_shaders.h>
#include <vkutil/create_info.h>
#include <vkutil/descriptors.h>

namespace effects::detail {
namespace {

static_assert(sizeof(gpu::SingleFramePush) == 48);
constexpr VkDescriptorType kToTensorBindings[] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
constexpr VkDescriptorType kToImageBindings[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};
constexpr const char* kWho = "upscaler (ml-single-frame)";

std::span<const uint32_t> toImageShader(VkFormat f, bool fp16) {
    switch (f) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: return fp16 ? shaders::sf_to_image_rgba32f_f16() : shaders::sf_to_image_rgba32f_f32();
    case VK_FORMAT_R8G8B8A8_UNORM: return fp16 ? shaders::sf_to_image_rgba8_f16() : shaders::sf_to_image_rgba8_f32();
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return fp16 ? shaders::sf_to_image_rgb10_a2_f16() : shaders::sf_to_image_rgb10_a2_f32();
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
        return fp16 ? shaders::sf_to_image_r11f_g11f_b10f_f16() : shaders::sf_to_image_r11f_g11f_b10f_f32();
    default: return fp16 ? shaders::sf_to_image_rgba16f_f16() : shaders::sf_to_image_rgba16f_f32();
    }
}

// The network runs at the maximum render size; a smaller frame fills the top-left of its input
// and the output's matching region is resampled to the display. So render sizes change freely
// without a recompile, and a display resize only re-points the output.
class SingleFrameUpscaler final : public Upscaler, private NetworkEffectParts {
public:
    SingleFrameUpscaler(const UpscalerDesc& desc, const VulkanApi& vk, std::vector<uint8_t> model)
        : NetworkEffectParts(vk, std::move(model)), desc_(desc) {
        desc_.modelBytes = model_;
        desc_.modelPath.clear();
    }

    Status init();
    const UpscalerDesc& desc() const override { return desc_; }
    EffectRequirements requirements() const override { return requirementsFor(desc_.framesInFlight, 4); }
    bool usesFp16() const override { return network_->fp16(); }
    bool usesTensorCores() const override { return network_->tensorCores(); }
    Status recordInitialization(VkCommandBuffer cmd) override { return initializeNetwork(cmd, kWho); }
    Status record(VkCommandBuffer cmd, const UpscalerInputs& in) override;
    Status resize(VkExtent2D displaySize) override {
        UpscalerDesc next = desc_;
        next.displaySize = displaySize;
        MLP_TRY(validateUpscalerDesc(next));
        desc_.displaySize = displaySize;
        return {};
    }

private:
    struct Slot {
        ConversionSets sets;
        VkImageView color = VK_NULL_HANDLE, output = VK_NULL_HANDLE;  // what `sets` point at
    };
    UpscalerDesc desc_;
    std::vector<Slot> slots_;
    uint32_t scale_ = 1;
};

Status SingleFrameUpscaler::init() {
    MLP_TRY(take(createPluginDevice(desc_.device, kWho), mlDevice_));
    const mlplugin::Capabilities& caps = mlDevice_->capabilities();
    NetworkDesc nd;
    nd.who = kWho;
    nd.onnx = model_;
    nd.inputs = {{"color", {1, 3, desc_.maxRenderSize.height, desc_.maxRenderSize.width}}};
    nd.outputs = {{"output", {}}};
    nd.fp16 = desc_.preferFp16 && caps.fp16Storage && caps.fp16Arithmetic;
    nd.bundle = desc_.device.primaryCommandBuffers;
    MLP_TRY(take(Network::create(vk_, *mlDevice_, nd, tally_), network_));
    const std::vector<uint32_t>& out = network_->outputShape(0);
    scale_ = out.size() == 4 ? out[3] / desc_.maxRenderSize.width : 0;
    if (out.size() != 4 || out[0] != 1 || out[1] != 3 || scale_ < 1 || out[3] != scale_ * desc_.maxRenderSize.width ||
        out[2] != scale_ * desc_.maxRenderSize.height)
        return Error{ErrorCode::InvalidModel, std::string(kWho) + ": the model's output must be [1,3,s*H,s*W] for an integer scale s", VK_SUCCESS};

    const bool fp16 = network_->fp16();
    return createConversions(fp16 ? shaders::sf_to_tensor_f16() : shaders::sf_to_tensor_f32(), kToTensorBindings,
                             toImageShader(desc_.outputFormat, fp16), kToImageBindings, sizeof(gpu::SingleFramePush),
                             desc_.framesInFlight, slots_, kWho);
}

Status SingleFrameUpscaler::record(VkCommandBuffer cmd, const UpscalerInputs& in) {
    if (!cmd) return Error{ErrorCode::InvalidArgument, std::string(kWho) + ": record needs a command buffer", VK_SUCCESS};
    MLP_TRY(validateUpscalerInputs(desc_, in));
    if (!network_->initialized())
        return Error{ErrorCode::InvalidArgument, std::string(kWho) + ": record recordInitialization() once before the first record()", VK_SUCCESS};
    Slot& s = slots_[in.frameSlot];
    if (s.color != in.color.view || s.output != in.output.view) {
        vkutil::DescriptorWrites(s.sets.toTensor)
            .image(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {sampler_, in.color.view, in.color.layout})
            .buffer(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {network_->input(0).buffer, 0, VK_WHOLE_SIZE})
            .update(vk_, vk_.device);
        vkutil::DescriptorWrites(s.sets.toImage)
            .buffer(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {network_->output(0).buffer, 0, VK_WHOLE_SIZE})
            .image(1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, {VK_NULL_HANDLE, in.output.view, VK_IMAGE_LAYOUT_GENERAL})
            .update(vk_, vk_.device);
        s.color = in.color.view;
        s.output = in.output.view;
    }
    gpu::SingleFramePush pc{};
    pc.renderWidth = in.renderSize.width;
    pc.renderHeight = in.renderSize.height;
    pc.tensorWidth = desc_.maxRenderSize.width;
    pc.tensorHeight = desc_.maxRenderSize.height;
    pc.displayWidth = desc_.displaySize.width;
    pc.displayHeight = desc_.displaySize.height;
    pc.scale = scale_;
    pc.flags = ((desc_.flags & UpscalerFlagColorSrgb) ? gpu::FLAG_COLOR_SRGB : 0u) | ((desc_.flags & UpscalerFlagHdr) ? gpu::FLAG_HDR : 0u);
    pc.exposure = in.exposure;
    return recordConversions(cmd, s.sets, pc, VkExtent2D{pc.tensorWidth, pc.tensorHeight}, desc_.displaySize, in.steps);
}

}  // namespace

Result<std::unique_ptr<Upscaler>> createSingleFrameUpscaler(const UpscalerDesc& desc, const VulkanApi& vk, std::vector<uint8_t> model) {
    auto upscaler = std::make_unique<SingleFrameUpscaler>(desc, vk, std::move(model));
    MLP_TRY(upscaler->init());
    return std::unique_ptr<Upscaler>(std::move(upscaler));
}

}  // namespace effects::detail
