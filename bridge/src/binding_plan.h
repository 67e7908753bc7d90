#pragma once
// How one compiled network's tensors meet the frame's images, worked out from the graph and the
// pass's bindings alone: no Vulkan object is touched, so tests check every rule and message of
// MlPass's binding without a GPU (tests/bridge/binding_plan_test.cpp). MlPass::addPasses() is
// this plan, the compilation, and the three pass declarations.
#include "bridge/tensor_binding.h"
#include "mlplugin/graph.h"
#include "tensor_conversion.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bridge::detail {

// Graph inputs share one buffer; each starts at a multiple of this (>= mlplugin's tensor
// alignment and any device's minStorageBufferOffsetAlignment).
inline constexpr uint64_t kInputAlignment = 256;

struct BindingPlan {
    struct Range {
        uint64_t offset = 0, size = 0;
    };
    ToTensorParams toTensor{};           // image_to_tensor.comp's parameter block: every input's channel runs
    std::vector<FrameImage> sources;     // distinct images read, bound to source0.. in this order
    std::vector<Range> inputRanges;      // per graph input (graph order) in the input buffer
    uint64_t inputBytes = 0;             // the input buffer's size
    ToImagePush toImage{};               // tensor_to_image.comp's push constants
    uint64_t outputBytes = 0;            // the output tensor's size
    bool fp16 = false;                   // some input or the output is fp16: the HAS_F16 shaders
};

// The network's inputs and outputs as the pass binds them. `provided` says which frame images
// this stage has (the upscaler stage has motion, the denoiser's does not). Throws engine::Error
// starting with `who`: InvalidModel when the graph's inputs/outputs do not fit the bindings or
// extents (count, names, rank, channels, sizes), InvalidArgument when a binding reads an image
// the stage lacks, has bad component letters, or exceeds the shaders' limits (kMaxSourceImages
// distinct images, kMaxSlices channel runs).
BindingPlan planBindings(const std::string& who, const mlplugin::GraphDesc& graph, const std::vector<TensorInput>& inputs,
                         const TensorOutput& output, VkExtent2D inputExtent, VkExtent2D outputExtent,
                         const std::function<bool(FrameImage)>& provided);

}  // namespace bridge::detail
