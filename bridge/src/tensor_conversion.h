#pragma once
// GPU side of the image <-> tensor conversions (shaders/bridge/*.comp): parameter blocks laid
// out as the shaders declare them, and the pipelines, shared by every compilation of an MlPass.
#include "bridge/tensor_binding.h"
#include "engine/context.h"
#include "mlplugin/graph.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace bridge::detail {

inline constexpr uint32_t kMaxSlices = 16;        // MAX_SLICES in image_to_tensor.comp
inline constexpr uint32_t kMaxSourceImages = 4;   // source0..3

// Scalar layout (GL_EXT_scalar_block_layout): plain C++ packing matches.
struct SliceParams {
    float scale[4];
    float bias[4];
    uint32_t components[4];
    uint32_t image, channelCount, dtype, encoding, offset, strideC, strideH, strideW;
};
struct ToTensorParams {
    uint32_t width, height, sliceCount, pad0;
    SliceParams slices[kMaxSlices];
};
struct ToImagePush {
    float scale[4];
    float bias[4];
    uint32_t width, height, channelCount, dtype, encoding, offset, strideC, strideH, strideW;
};
static_assert(sizeof(SliceParams) == 80 && sizeof(ToImagePush) == 68);

// Component letters -> indices ("rgb" -> 0,1,2; "xyz" likewise). Throws naming `what`.
std::vector<uint32_t> parseComponents(const std::string& components, const std::string& what);

class ConversionPipelines {
public:
    explicit ConversionPipelines(const engine::Context& ctx);
    ~ConversionPipelines();
    ConversionPipelines(const ConversionPipelines&) = delete;
    ConversionPipelines& operator=(const ConversionPipelines&) = delete;

    bool fp16Supported() const { return toTensor[1] != VK_NULL_HANDLE; }

    VkDevice device = VK_NULL_HANDLE;
    VkSampler sampler = VK_NULL_HANDLE;  // nearest, clamp (texelFetch ignores it; the binding needs one)
    VkDescriptorSetLayout toTensorSetLayout = VK_NULL_HANDLE, toImageSetLayout = VK_NULL_HANDLE;
    VkPipelineLayout toTensorLayout = VK_NULL_HANDLE, toImageLayout = VK_NULL_HANDLE;
    VkPipeline toTensor[2] = {}, toImage[2] = {};  // [0] fp32 only, [1] fp16-capable (HAS_F16)

private:
    void destroy();
};

}  // namespace bridge::detail
