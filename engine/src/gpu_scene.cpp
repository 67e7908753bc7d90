#include "gpu_scene.h"

#include "engine/context.h"
#include "engine/error.h"

#include <algorithm>
#include <cstring>

namespace engine {
namespace {

static_assert(sizeof(gpu::MaterialParams) == 32);

// Start-up upload of a buffer; the submit waits, so the copy is complete before any frame reads it.
Buffer uploadBuffer(const Context& ctx, const void* data, VkDeviceSize size, VkBufferUsageFlags usage) {
    Buffer staging(ctx, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload);
    std::memcpy(staging.mapped(), data, size);
    staging.flush();
    Buffer gpu(ctx, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUsage::DeviceLocal);
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, size};
        vkCmdCopyBuffer(cmd, staging.handle(), gpu.handle(), 1, &region);
        // Makes the copy visible to every later submission (the fence alone orders the host,
        // not the device's caches).
        VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
        mb.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
        mb.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
        mb.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        mb.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT;
        VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
        dep.memoryBarrierCount = 1;
        dep.pMemoryBarriers = &mb;
        vkCmdPipelineBarrier2(cmd, &dep);
    });
    return gpu;
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, uint32_t levels, VkImageLayout from, VkImageLayout to,
                  VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = srcStage;
    b.srcAccessMask = srcAccess;
    b.dstStageMask = dstStage;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = 1;
    dep.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dep);
}

VkFilter filter(TextureFilter f) { return f == TextureFilter::Nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR; }

VkSamplerAddressMode addressMode(TextureWrap w) {
    switch (w) {
    case TextureWrap::Repeat: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    case TextureWrap::MirroredRepeat: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case TextureWrap::ClampToEdge: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    }
    return VK_SAMPLER_ADDRESS_MODE_REPEAT;
}

gpu::MaterialParams materialParams(const SceneMaterial& m) {
    gpu::MaterialParams p{};
    p.baseColorFactor = m.baseColorFactor;
    p.kind = m.procedural ? gpu::MATERIAL_KIND_PROCEDURAL : gpu::MATERIAL_KIND_TEXTURED;
    p.metallic = std::clamp(m.metallic, 0.0f, 1.0f);
    p.roughness = std::clamp(m.roughness, 0.0f, 1.0f);
    p.alphaCutoff = m.alphaCutoff;
    return p;
}

SceneTexture whiteTexture() {
    SceneTexture t;
    t.name = "white";
    t.width = t.height = 1;
    t.levels = {{255, 255, 255, 255}};
    t.sampler.mipFilter = MipFilter::None;
    return t;
}

}  // namespace

GpuScene::GpuScene(const Context& ctx, const SceneGeometry& scene, VkDescriptorSetLayout materialSetLayout)
    : device_(ctx.device()) {
    if (scene.vertices.empty() || scene.indices.empty()) throw Error("scene '" + scene.name + "' has no triangles to draw");
    if (scene.materials.empty()) throw Error("scene '" + scene.name + "' has no materials");
    try {
        vertices_ = uploadBuffer(ctx, scene.vertices.data(), scene.vertices.size() * sizeof(Vertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
        indices_ = uploadBuffer(ctx, scene.indices.data(), scene.indices.size() * sizeof(uint32_t), VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
        sceneData_ = uploadBuffer(ctx, &scene.data, sizeof(scene.data), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);

        VkDeviceSize align = std::max<VkDeviceSize>(ctx.properties().limits.minUniformBufferOffsetAlignment, 1);
        VkDeviceSize stride = (sizeof(gpu::MaterialParams) + align - 1) / align * align;
        std::vector<uint8_t> params(stride * scene.materials.size());
        for (size_t m = 0; m < scene.materials.size(); ++m) {
            gpu::MaterialParams p = materialParams(scene.materials[m]);
            std::memcpy(params.data() + m * stride, &p, sizeof p);
        }
        materials_ = uploadBuffer(ctx, params.data(), params.size(), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);

        for (const SceneTexture& t : scene.textures) uploadTexture(ctx, t);
        uploadTexture(ctx, whiteTexture());
        createMaterialSets(scene, materialSetLayout, stride);
        for (const DrawRange& d : scene.draws) {
            if (d.material >= scene.materials.size() || uint64_t(d.firstIndex) + d.indexCount > scene.indices.size())
                throw Error("scene '" + scene.name + "': a draw range lies outside its indices or materials");
            const SceneMaterial& m = scene.materials[d.material];
            draws_.push_back({d.firstIndex, d.indexCount, materialSets_[d.material], m.alphaMask && !m.procedural, m.doubleSided});
        }
        // Opaque draws first: the G-buffer pass switches to the alpha-tested pipeline once.
        std::stable_partition(draws_.begin(), draws_.end(), [](const Draw& d) { return !d.alphaMask; });
    } catch (...) {
        release();
        throw;
    }
}

GpuScene::~GpuScene() { release(); }

void GpuScene::release() {
    if (pool_) vkDestroyDescriptorPool(device_, pool_, nullptr);
    pool_ = VK_NULL_HANDLE;
    for (auto& [desc, s] : samplers_) vkDestroySampler(device_, s, nullptr);
    samplers_.clear();
    for (Texture& t : textures_) {
        if (t.view) vkDestroyImageView(device_, t.view, nullptr);
        if (t.image) vkDestroyImage(device_, t.image, nullptr);
        if (t.memory) vkFreeMemory(device_, t.memory, nullptr);
    }
    textures_.clear();
}

void GpuScene::uploadTexture(const Context& ctx, const SceneTexture& t) {
    const uint32_t maxDim = ctx.properties().limits.maxImageDimension2D;
    if (t.width == 0 || t.height == 0 || t.width > maxDim || t.height > maxDim)
        throw Error("texture '" + t.name + "' is " + std::to_string(t.width) + "x" + std::to_string(t.height) +
                    "; the device takes 1.." + std::to_string(maxDim) + " texels per side");
    const uint32_t levels = uint32_t(t.levels.size());
    VkDeviceSize total = 0;
    for (uint32_t l = 0; l < levels; ++l) {
        uint64_t w = std::max(1u, t.width >> l), h = std::max(1u, t.height >> l);
        if (t.levels[l].size() != w * h * 4) throw Error("texture '" + t.name + "': mip level " + std::to_string(l) + " has the wrong size");
        total += t.levels[l].size();
    }
    if (levels == 0) throw Error("texture '" + t.name + "' has no texels");

    textures_.push_back({});
    Texture& tex = textures_.back();
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = VK_FORMAT_R8G8B8A8_SRGB;  // sampling decodes sRGB: albedo arrives linear
    ici.extent = {t.width, t.height, 1};
    ici.mipLevels = levels;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    ENGINE_VK(vkCreateImage(device_, &ici, nullptr, &tex.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, tex.image, &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = ctx.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    ENGINE_VK(vkAllocateMemory(device_, &mai, nullptr, &tex.memory));
    ENGINE_VK(vkBindImageMemory(device_, tex.image, tex.memory, 0));
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = tex.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = ici.format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1};
    ENGINE_VK(vkCreateImageView(device_, &vci, nullptr, &tex.view));

    Buffer staging(ctx, total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUsage::Upload);
    std::vector<VkBufferImageCopy> regions;
    VkDeviceSize offset = 0;
    for (uint32_t l = 0; l < levels; ++l) {
        std::memcpy(static_cast<uint8_t*>(staging.mapped()) + offset, t.levels[l].data(), t.levels[l].size());
        VkBufferImageCopy r{};
        r.bufferOffset = offset;
        r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
        r.imageExtent = {std::max(1u, t.width >> l), std::max(1u, t.height >> l), 1};
        regions.push_back(r);
        offset += t.levels[l].size();
    }
    staging.flush();
    ctx.submitAndWait([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, tex.image, levels, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE,
                     VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        vkCmdCopyBufferToImage(cmd, staging.handle(), tex.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, uint32_t(regions.size()), regions.data());
        imageBarrier(cmd, tex.image, levels, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                     VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    });
}

VkSampler GpuScene::sampler(const SamplerDesc& d) {
    for (auto& [desc, s] : samplers_)
        if (desc == d) return s;
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = filter(d.magFilter);
    ci.minFilter = filter(d.minFilter);
    ci.mipmapMode = d.mipFilter == MipFilter::Nearest ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR;
    ci.addressModeU = addressMode(d.wrapU);
    ci.addressModeV = addressMode(d.wrapV);
    ci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    ci.minLod = 0.0f;
    ci.maxLod = d.mipFilter == MipFilter::None ? 0.0f : VK_LOD_CLAMP_NONE;  // None: level 0 only
    VkSampler s;
    ENGINE_VK(vkCreateSampler(device_, &ci, nullptr, &s));
    samplers_.emplace_back(d, s);
    return s;
}

void GpuScene::createMaterialSets(const SceneGeometry& scene, VkDescriptorSetLayout layout, VkDeviceSize stride) {
    const uint32_t n = uint32_t(scene.materials.size());
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, n}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, n}};
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = n;
    pci.poolSizeCount = 2;
    pci.pPoolSizes = sizes;
    ENGINE_VK(vkCreateDescriptorPool(device_, &pci, nullptr, &pool_));
    std::vector<VkDescriptorSetLayout> layouts(n, layout);
    materialSets_.resize(n);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool_;
    ai.descriptorSetCount = n;
    ai.pSetLayouts = layouts.data();
    ENGINE_VK(vkAllocateDescriptorSets(device_, &ai, materialSets_.data()));

    const Texture& white = textures_.back();
    VkSampler whiteSampler = sampler(whiteTexture().sampler);
    for (uint32_t m = 0; m < n; ++m) {
        const SceneMaterial& mat = scene.materials[m];
        int32_t t = mat.baseColorTexture;
        if (t >= int32_t(scene.textures.size())) throw Error("scene '" + scene.name + "': material " + mat.name + " names a missing texture");
        VkDescriptorBufferInfo buffer{materials_.handle(), m * stride, sizeof(gpu::MaterialParams)};
        VkDescriptorImageInfo image{t >= 0 ? sampler(scene.textures[size_t(t)].sampler) : whiteSampler,
                                    t >= 0 ? textures_[size_t(t)].view : white.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet w[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}, {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET}};
        w[0].dstSet = w[1].dstSet = materialSets_[m];
        w[0].dstBinding = 0;
        w[0].descriptorCount = 1;
        w[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        w[0].pBufferInfo = &buffer;
        w[1].dstBinding = 1;
        w[1].descriptorCount = 1;
        w[1].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        w[1].pImageInfo = &image;
        vkUpdateDescriptorSets(device_, 2, w, 0, nullptr);
    }
}

}  // namespace engine
