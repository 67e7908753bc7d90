#pragma once
// What the single-network effects (the single-frame upscaler, the denoiser) hold alike: the model
// bytes, the plugin device and its network, the image <-> tensor conversion pipelines with their
// sampler and descriptor pool; one teardown order, one requirements tally, one initialization,
// one way to create the conversions and to record a frame (convert, network, convert).
#include "effects/effect_device.h"
#include "step_scope.h"
#include "temporal_network.h"
#include "vulkan_api.h"

#include <vkutil/create_info.h>
#include <vkutil/descriptors.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace effects::detail {

// Moves a successful result into `into`, or returns its error.
template <class T>
Status take(Result<T> r, T& into) {
    if (!r) return r.error();
    into = std::move(*r);
    return {};
}

class NetworkEffectParts {
protected:
    NetworkEffectParts(const VulkanApi& vk, std::vector<uint8_t> model) : vk_(vk), model_(std::move(model)) {}
    // The network first (its objects live on the plugin device), then what this effect created.
    ~NetworkEffectParts() {
        network_.reset();
        toTensor_.destroy(vk_);
        toImage_.destroy(vk_);
        pool_.destroy();
        if (sampler_) vk_.vkDestroySampler(vk_.device, sampler_, nullptr);
    }
    NetworkEffectParts(const NetworkEffectParts&) = delete;
    NetworkEffectParts& operator=(const NetworkEffectParts&) = delete;

    // Memory tallied so far; per frame slot two conversion sets with `descriptorsPerSlot`
    // descriptors between them, plus the network's sets.
    EffectRequirements requirementsFor(uint32_t framesInFlight, uint32_t descriptorsPerSlot) const {
        EffectRequirements r;
        r.deviceLocalBytes = tally_.deviceLocalBytes;
        r.hostVisibleBytes = tally_.hostVisibleBytes;
        r.allocations = tally_.allocations;
        r.descriptorSets = 2 * framesInFlight + network_->descriptorSets();
        r.descriptors = descriptorsPerSlot * framesInFlight + network_->descriptorSets() * mlplugin::kDescriptorsPerSet;
        return r;
    }
    // recordInitialization(): the weights once, then a barrier before the first record().
    Status initializeNetwork(VkCommandBuffer cmd, const char* who) {
        if (!cmd) return Error{ErrorCode::InvalidArgument, std::string(who) + ": recordInitialization needs a command buffer", VK_SUCCESS};
        if (!network_->initialized()) MLP_TRY(network_->recordInitialization(cmd));
        computeBarrier(vk_, cmd);
        return {};
    }

    // The two conversion sets of one frame slot.
    struct ConversionSets {
        VkDescriptorSet toTensor = VK_NULL_HANDLE, toImage = VK_NULL_HANDLE;
    };
    // Creates the sampler, both conversion pipelines (their bindings and `pushBytes` of push
    // constants) and a pool sized for exactly their sets in `framesInFlight` slots, and allocates
    // those sets into each slot's `sets` (`slots` is resized to `framesInFlight`).
    template <class Slot>
    Status createConversions(std::span<const uint32_t> toTensorSpirv, std::span<const VkDescriptorType> toTensorBindings,
                             std::span<const uint32_t> toImageSpirv, std::span<const VkDescriptorType> toImageBindings, uint32_t pushBytes,
                             uint32_t framesInFlight, std::vector<Slot>& slots, const char* who) {
        const std::string w(who);
        if (VkResult r = vkutil::createSampler(vk_, vk_.device, VK_FILTER_NEAREST, &sampler_); r != VK_SUCCESS)
            return vkFailure(r, w + ": creating a sampler");
        MLP_TRY(take(createComputePipeline(vk_, toTensorSpirv, toTensorBindings, pushBytes, (w + " input").c_str()), toTensor_));
        MLP_TRY(take(createComputePipeline(vk_, toImageSpirv, toImageBindings, pushBytes, (w + " output").c_str()), toImage_));
        std::vector<VkDescriptorPoolSize> sizes;
        for (std::span<const VkDescriptorType> bindings : {toTensorBindings, toImageBindings})
            for (VkDescriptorType type : bindings) {
                auto it = std::find_if(sizes.begin(), sizes.end(), [&](const VkDescriptorPoolSize& s) { return s.type == type; });
                if (it == sizes.end()) it = sizes.insert(sizes.end(), {type, 0});
                it->descriptorCount += framesInFlight;
            }
        if (VkResult r = pool_.create(vk_, vk_.device, 2 * framesInFlight, sizes); r != VK_SUCCESS)
            return vkFailure(r, w + ": creating the descriptor pool");
        slots.resize(framesInFlight);
        for (Slot& slot : slots) {
            const VkDescriptorSetLayout layouts[] = {toTensor_.setLayout, toImage_.setLayout};
            VkDescriptorSet sets[2];
            if (VkResult r = pool_.allocate(layouts, sets); r != VK_SUCCESS) return vkFailure(r, w + ": allocating descriptor sets");
            slot.sets = {sets[0], sets[1]};
        }
        return {};
    }
    // One frame: image -> tensors over `tensorGrid`, the network, tensors -> image over `imageGrid`
    // (8x8 workgroups), each after a compute barrier; the first orders the previous frame's reads
    // of the tensors before this frame's writes. Both conversions get the same push constants.
    template <class Push>
    Status recordConversions(VkCommandBuffer cmd, const ConversionSets& sets, const Push& push, VkExtent2D tensorGrid, VkExtent2D imageGrid,
                             const StepCallbacks& steps) {
        auto dispatch = [&](const ComputePipeline& p, VkDescriptorSet set, VkExtent2D grid) {
            vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
            vk_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
            vk_.vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(Push), &push);
            vk_.vkCmdDispatch(cmd, (grid.width + 7) / 8, (grid.height + 7) / 8, 1);
        };
        computeBarrier(vk_, cmd);
        {
            StepScope step(steps, cmd, "to_tensor");
            dispatch(toTensor_, sets.toTensor, tensorGrid);
        }
        computeBarrier(vk_, cmd);
        {
            StepScope step(steps, cmd, "network");
            MLP_TRY(network_->record(cmd));
        }
        computeBarrier(vk_, cmd);
        StepScope step(steps, cmd, "to_image");
        dispatch(toImage_, sets.toImage, imageGrid);
        return {};
    }

    VulkanApi vk_;
    std::vector<uint8_t> model_;  // the ONNX bytes (the desc's modelBytes point here)
    MemoryTally tally_;
    std::unique_ptr<mlplugin::Device> mlDevice_;
    std::unique_ptr<Network> network_;
    ComputePipeline toTensor_, toImage_;
    VkSampler sampler_ = VK_NULL_HANDLE;
    vkutil::DescriptorPool pool_;
};

}  // namespace effects::detail
