#pragma once
// A scene's GPU resources, uploaded once at renderer construction (Context::submitAndWait):
// vertex and index buffers, the lighting pass's SceneData, a uniform buffer of material
// parameters, one sampled image per texture (sRGB RGBA8, full mip chain) plus a 1x1 white one
// for materials without a texture, one sampler per distinct sampler state, and one descriptor
// set per material for the G-buffer pass (set 0: binding 0 MaterialParams, binding 1 base
// colour). Nothing here changes after construction; destruction must wait until the GPU is
// done with every frame that drew the scene (the renderer's owner guarantees it).
#include "engine/buffer.h"
#include "engine/scene.h"

#include <vulkan/vulkan.h>

#include <vector>

namespace engine {

class Context;

class GpuScene {
public:
    // Throws engine::Error on an empty scene, a texture larger than the device allows, or a
    // failing Vulkan call.
    GpuScene(const Context& ctx, const SceneGeometry& scene, VkDescriptorSetLayout materialSetLayout);
    ~GpuScene();
    GpuScene(const GpuScene&) = delete;
    GpuScene& operator=(const GpuScene&) = delete;

    struct Draw {
        uint32_t firstIndex = 0;
        uint32_t indexCount = 0;
        VkDescriptorSet materialSet = VK_NULL_HANDLE;
        bool alphaMask = false;
        bool doubleSided = true;
    };

    const Buffer& vertices() const { return vertices_; }
    const Buffer& indices() const { return indices_; }
    const Buffer& sceneData() const { return sceneData_; }
    const std::vector<Draw>& draws() const { return draws_; }  // opaque first, then alpha-masked

private:
    struct Texture {
        VkImage image = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkImageView view = VK_NULL_HANDLE;
    };
    void uploadTexture(const Context& ctx, const SceneTexture& texture);
    VkSampler sampler(const SamplerDesc& desc);
    void createMaterialSets(const SceneGeometry& scene, VkDescriptorSetLayout layout, VkDeviceSize stride);
    void release();

    VkDevice device_ = VK_NULL_HANDLE;
    Buffer vertices_, indices_, sceneData_, materials_;
    std::vector<Texture> textures_;  // the scene's textures, then the white one
    std::vector<std::pair<SamplerDesc, VkSampler>> samplers_;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> materialSets_;
    std::vector<Draw> draws_;
};

}  // namespace engine
