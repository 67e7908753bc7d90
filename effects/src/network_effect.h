#pragma once
// What the single-network effects (the single-frame upscaler, the denoiser) hold alike: the model
// bytes, the plugin device and its network, the image <-> tensor conversion pipelines with their
// sampler and descriptor pool; one teardown order, one requirements tally, one initialization.
#include "effects/effect_device.h"
#include "temporal_network.h"
#include "vulkan_api.h"

#include <vkutil/descriptors.h>

#include <memory>
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
