#include "single_frame_upscaler.h"

#include "format_names.h"
#include "mlplugin/mlplugin.h"
#include "single_frame_shared.h"
#include "temporal_network.h"
#include "upscaler_shared.h"

#include <effects_shaders.h>

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
    default: return fp16 ? shaders::sf_to_image_rgba16f_f16() : shaders::sf_to_image_rgba16f_f32();
    }
}

template <class T>
Status take(Result<T> r, T& into) {
    if (!r) return r.error();
    into = std::move(*r);
    return {};
}

// The network runs at the maximum render size; a smaller frame fills the top-left of its input
// and the output's matching region is resampled to the display. So render sizes change freely
// without a recompile, and a display resize only re-points the output.
class SingleFrameUpscaler final : public Upscaler {
public:
    SingleFrameUpscaler(const UpscalerDesc& desc, const VulkanApi& vk, std::vector<uint8_t> model) : desc_(desc), vk_(vk), model_(std::move(model)) {
        desc_.modelBytes = model_;
        desc_.modelPath.clear();
    }
    ~SingleFrameUpscaler() override {
        network_.reset();
        toTensor_.destroy(vk_);
        toImage_.destroy(vk_);
        if (pool_) vk_.vkDestroyDescriptorPool(vk_.device, pool_, nullptr);
        if (sampler_) vk_.vkDestroySampler(vk_.device, sampler_, nullptr);
    }

    Status init();
    const UpscalerDesc& desc() const override { return desc_; }
    EffectRequirements requirements() const override {
        EffectRequirements r;
        r.deviceLocalBytes = tally_.deviceLocalBytes;
        r.hostVisibleBytes = tally_.hostVisibleBytes;
        r.allocations = tally_.allocations;
        r.descriptorSets = 2 * desc_.framesInFlight + network_->descriptorSets();
        r.descriptors = 4 * desc_.framesInFlight + network_->descriptorSets() * mlplugin::kDescriptorsPerSet;
        return r;
    }
    bool usesFp16() const override { return network_->fp16(); }
    Status recordInitialization(VkCommandBuffer cmd) override {
        if (!cmd) return Error{ErrorCode::InvalidArgument, std::string(kWho) + ": recordInitialization needs a command buffer", VK_SUCCESS};
        if (!network_->initialized()) MLP_TRY(network_->recordInitialization(cmd));
        computeBarrier(vk_, cmd);
        return {};
    }
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
        VkDescriptorSet toTensor = VK_NULL_HANDLE, toImage = VK_NULL_HANDLE;
        VkImageView color = VK_NULL_HANDLE, output = VK_NULL_HANDLE;
    };
    UpscalerDesc desc_;
    VulkanApi vk_;
    std::vector<uint8_t> model_;
    MemoryTally tally_;
    std::unique_ptr<mlplugin::Device> mlDevice_;
    std::unique_ptr<Network> network_;
    ComputePipeline toTensor_, toImage_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::vector<Slot> slots_;
    uint32_t scale_ = 1;
};

Status SingleFrameUpscaler::init() {
    const EffectDevice& d = desc_.device;
    mlplugin::DeviceDesc md;
    md.instance = d.instance;
    md.physicalDevice = d.physicalDevice;
    md.device = d.device;
    md.queueFamilyIndex = d.queueFamilyIndex;
    md.getInstanceProcAddr = d.getInstanceProcAddr;
    md.shaderStorageBufferArrayDynamicIndexingEnabled = d.shaderStorageBufferArrayDynamicIndexingEnabled;
    md.storageBuffer16BitAccessEnabled = d.storageBuffer16BitAccessEnabled;
    md.shaderFloat16Enabled = d.shaderFloat16Enabled;
    md.cooperativeMatrixNVEnabled = d.cooperativeMatrixNVEnabled;
    md.flags = d.debugChecks ? mlplugin::DeviceFlagDebug : mlplugin::DeviceFlagNone;
    auto device = mlplugin::createDevice(md);
    if (!device) return Error{device.error().code, std::string(kWho) + ": " + device.error().message, device.error().vkResult};
    mlDevice_ = std::move(*device);
    const mlplugin::Capabilities& caps = mlDevice_->capabilities();
    NetworkDesc nd;
    nd.who = kWho;
    nd.onnx = model_;
    nd.inputs = {{"color", {1, 3, desc_.maxRenderSize.height, desc_.maxRenderSize.width}}};
    nd.outputs = {{"output", {}}};
    nd.fp16 = desc_.preferFp16 && caps.fp16Storage && caps.fp16Arithmetic;
    MLP_TRY(take(Network::create(vk_, *mlDevice_, nd, tally_), network_));
    const std::vector<uint32_t>& out = network_->outputShape(0);
    scale_ = out.size() == 4 ? out[3] / desc_.maxRenderSize.width : 0;
    if (out.size() != 4 || out[0] != 1 || out[1] != 3 || scale_ < 1 || out[3] != scale_ * desc_.maxRenderSize.width ||
        out[2] != scale_ * desc_.maxRenderSize.height)
        return Error{ErrorCode::InvalidModel, std::string(kWho) + ": the model's output must be [1,3,s*H,s*W] for an integer scale s", VK_SUCCESS};

    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    if (VkResult r = vk_.vkCreateSampler(vk_.device, &sci, nullptr, &sampler_); r != VK_SUCCESS) return vkFailure(r, std::string(kWho) + ": creating a sampler");
    const bool fp16 = network_->fp16();
    MLP_TRY(take(createComputePipeline(vk_, fp16 ? shaders::sf_to_tensor_f16() : shaders::sf_to_tensor_f32(), kToTensorBindings,
                                       sizeof(gpu::SingleFramePush), "single-frame input"), toTensor_));
    MLP_TRY(take(createComputePipeline(vk_, toImageShader(desc_.outputFormat, fp16), kToImageBindings, sizeof(gpu::SingleFramePush),
                                       "single-frame output"), toImage_));
    const uint32_t n = desc_.framesInFlight;
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, n}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * n},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, n}};
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = 2 * n;
    pci.poolSizeCount = 3;
    pci.pPoolSizes = sizes;
    if (VkResult r = vk_.vkCreateDescriptorPool(vk_.device, &pci, nullptr, &pool_); r != VK_SUCCESS)
        return vkFailure(r, std::string(kWho) + ": creating the descriptor pool");
    slots_.resize(n);
    for (Slot& s : slots_) {
        const VkDescriptorSetLayout layouts[] = {toTensor_.setLayout, toImage_.setLayout};
        VkDescriptorSet sets[2];
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = pool_;
        ai.descriptorSetCount = 2;
        ai.pSetLayouts = layouts;
        if (VkResult r = vk_.vkAllocateDescriptorSets(vk_.device, &ai, sets); r != VK_SUCCESS)
            return vkFailure(r, std::string(kWho) + ": allocating descriptor sets");
        s.toTensor = sets[0];
        s.toImage = sets[1];
    }
    return {};
}

Status SingleFrameUpscaler::record(VkCommandBuffer cmd, const UpscalerInputs& in) {
    if (!cmd) return Error{ErrorCode::InvalidArgument, std::string(kWho) + ": record needs a command buffer", VK_SUCCESS};
    MLP_TRY(validateUpscalerInputs(desc_, in));
    if (!network_->initialized())
        return Error{ErrorCode::InvalidArgument, std::string(kWho) + ": record recordInitialization() once before the first record()", VK_SUCCESS};
    Slot& s = slots_[in.frameSlot];
    if (s.color != in.color.view || s.output != in.output.view) {
        VkDescriptorImageInfo color{sampler_, in.color.view, in.color.layout}, output{VK_NULL_HANDLE, in.output.view, VK_IMAGE_LAYOUT_GENERAL};
        VkDescriptorBufferInfo input{network_->input(0).buffer, 0, VK_WHOLE_SIZE}, result{network_->output(0).buffer, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet w[4] = {};
        for (VkWriteDescriptorSet& x : w) {
            x.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
            x.descriptorCount = 1;
        }
        w[0].dstSet = s.toTensor, w[0].dstBinding = 0, w[0].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, w[0].pImageInfo = &color;
        w[1].dstSet = s.toTensor, w[1].dstBinding = 1, w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, w[1].pBufferInfo = &input;
        w[2].dstSet = s.toImage, w[2].dstBinding = 0, w[2].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, w[2].pBufferInfo = &result;
        w[3].dstSet = s.toImage, w[3].dstBinding = 1, w[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, w[3].pImageInfo = &output;
        vk_.vkUpdateDescriptorSets(vk_.device, 4, w, 0, nullptr);
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
    auto dispatch = [&](const ComputePipeline& p, VkDescriptorSet set, uint32_t w, uint32_t h) {
        vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
        vk_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
        vk_.vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
        vk_.vkCmdDispatch(cmd, (w + 7) / 8, (h + 7) / 8, 1);
    };
    computeBarrier(vk_, cmd);  // the previous frame's reads of the tensors
    dispatch(toTensor_, s.toTensor, pc.tensorWidth, pc.tensorHeight);
    computeBarrier(vk_, cmd);
    MLP_TRY(network_->record(cmd));
    computeBarrier(vk_, cmd);
    dispatch(toImage_, s.toImage, pc.displayWidth, pc.displayHeight);
    return {};
}

}  // namespace

Result<std::unique_ptr<Upscaler>> createSingleFrameUpscaler(const UpscalerDesc& desc, const VulkanApi& vk, std::vector<uint8_t> model) {
    auto upscaler = std::make_unique<SingleFrameUpscaler>(desc, vk, std::move(model));
    MLP_TRY(upscaler->init());
    return std::unique_ptr<Upscaler>(std::move(upscaler));
}

}  // namespace effects::detail
