#include "view_pass.h"

#include "engine/context.h"
#include "engine/descriptor_arena.h"
#include "engine/error.h"

#include <demo_shaders.h>
#include <view_shared.h>
#include <vkutil/create_info.h>
#include <vkutil/descriptors.h>
#include <vkutil/pipeline.h>

#include <algorithm>
#include <cstring>

namespace demo {
namespace {

// 5x7 ASCII font, characters 32..126 (the classic 5x7 LCD font): five column bytes per glyph,
// bit 0 = top row, packed as (columns 0-3, column 4).
constexpr uint32_t kFont[gpu::VIEW_FONT_WORDS] = {
    0x00000000, 0x00, 0x005F0000, 0x00, 0x07000700, 0x00, 0x7F147F14, 0x14,
    0x2A7F2A24, 0x12, 0x64081323, 0x62, 0x22554936, 0x50, 0x00030500, 0x00,
    0x41221C00, 0x00, 0x1C224100, 0x00, 0x2A1C2A08, 0x08, 0x083E0808, 0x08,
    0x00305000, 0x00, 0x08080808, 0x08, 0x00606000, 0x00, 0x04081020, 0x02,
    0x4549513E, 0x3E, 0x407F4200, 0x00, 0x49516142, 0x46, 0x4B454121, 0x31,
    0x7F121418, 0x10, 0x45454527, 0x39, 0x49494A3C, 0x30, 0x05097101, 0x03,
    0x49494936, 0x36, 0x29494906, 0x1E, 0x00363600, 0x00, 0x00365600, 0x00,
    0x22140800, 0x41, 0x14141414, 0x14, 0x08142241, 0x00, 0x09510102, 0x06,
    0x41794932, 0x3E, 0x1111117E, 0x7E, 0x4949497F, 0x36, 0x4141413E, 0x22,
    0x2241417F, 0x1C, 0x4949497F, 0x41, 0x0109097F, 0x01, 0x5141413E, 0x32,
    0x0808087F, 0x7F, 0x417F4100, 0x00, 0x3F414020, 0x01, 0x2214087F, 0x41,
    0x4040407F, 0x40, 0x0204027F, 0x7F, 0x1008047F, 0x7F, 0x4141413E, 0x3E,
    0x0909097F, 0x06, 0x2151413E, 0x5E, 0x2919097F, 0x46, 0x49494946, 0x31,
    0x017F0101, 0x01, 0x4040403F, 0x3F, 0x2040201F, 0x1F, 0x2018207F, 0x7F,
    0x14081463, 0x63, 0x04780403, 0x03, 0x45495161, 0x43, 0x417F0000, 0x41,
    0x10080402, 0x20, 0x007F4141, 0x00, 0x02010204, 0x04, 0x40404040, 0x40,
    0x04020100, 0x00, 0x54545420, 0x78, 0x4444487F, 0x38, 0x44444438, 0x20,
    0x48444438, 0x7F, 0x54545438, 0x18, 0x01097E08, 0x02, 0x54541408, 0x3C,
    0x0404087F, 0x78, 0x407D4400, 0x00, 0x3D444020, 0x00, 0x28107F00, 0x44,
    0x407F4100, 0x00, 0x0418047C, 0x78, 0x0404087C, 0x78, 0x44444438, 0x38,
    0x1414147C, 0x08, 0x18141408, 0x7C, 0x0404087C, 0x08, 0x54545448, 0x20,
    0x40443F04, 0x20, 0x2040403C, 0x7C, 0x2040201C, 0x1C, 0x4030403C, 0x3C,
    0x28102844, 0x44, 0x5050500C, 0x3C, 0x4C546444, 0x44, 0x41360800, 0x00,
    0x007F0000, 0x00, 0x08364100, 0x00, 0x10080408, 0x08
};

}  // namespace

ViewPass::ViewPass(engine::Context& ctx, uint32_t framesInFlight) : ctx_(ctx) {
    VkDevice device = ctx.device();
    ENGINE_VK(vkutil::createSampler(device, VK_FILTER_NEAREST, &nearest_));
    ENGINE_VK(vkutil::createSampler(device, VK_FILTER_LINEAR, &linear_));
    const VkDescriptorType bindings[] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                         VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    ENGINE_VK(vkutil::createDescriptorSetLayout(device, bindings, VK_SHADER_STAGE_COMPUTE_BIT, &setLayout_));
    ENGINE_VK(vkutil::createPipelineLayout(device, {.setLayouts = {&setLayout_, 1}, .pushConstantBytes = sizeof(gpu::ViewPush)}, &layout_));
    ENGINE_VK(vkutil::createComputePipeline(device, {.layout = layout_, .spirv = shaders::view_comp()}, &pipeline_));
    for (uint32_t i = 0; i < framesInFlight; ++i) {
        text_.emplace_back(ctx, sizeof kFont + kColumns * kRows * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                           engine::MemoryUsage::Upload);
        std::memcpy(text_.back().mapped(), kFont, sizeof kFont);
        text_.back().flush();
    }
}

ViewPass::~ViewPass() {
    VkDevice device = ctx_.device();
    vkDestroyPipeline(device, pipeline_, nullptr);
    vkDestroyPipelineLayout(device, layout_, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout_, nullptr);
    vkDestroySampler(device, nearest_, nullptr);
    vkDestroySampler(device, linear_, nullptr);
}

engine::BuildHookFn ViewPass::hook() {
    return [this](engine::FrameGraph& graph, const engine::OutputStage& stage) { addPasses(graph, stage); };
}

void ViewPass::addPasses(engine::FrameGraph& graph, const engine::OutputStage& stage) {
    textHandle_ = engine::kInvalidResource;
    splitActive_ = settings.split && stage.color != stage.output;
    if (!settings.any()) return;
    const VkExtent2D out = stage.outputExtent, low = stage.renderExtent;
    // The lens and the split read pixels this pass overwrites: compose from a copy.
    const engine::ResourceHandle frameA = graph.createImage("view.frame_a", {VK_FORMAT_R16G16B16A16_SFLOAT, out.width, out.height});
    textHandle_ = graph.importBuffer("view.text", text_[0].handle(), text_[0].size(), {}, {});
    engine::PassDesc copy;
    copy.name = "view_copy";
    copy.type = engine::PassType::Transfer;
    copy.uses = {{stage.output, engine::Access::TransferRead}, {frameA, engine::Access::TransferWrite}};
    copy.record = [stage, frameA, out](engine::PassContext& pc) {
        VkImageCopy region{};
        region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.extent = {out.width, out.height, 1};
        vkCmdCopyImage(pc.commandBuffer(), pc.image(stage.output), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pc.image(frameA),
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    };
    graph.insertAtHook("after_output", std::move(copy));

    engine::PassDesc view;
    view.name = "view";
    view.type = engine::PassType::Compute;
    const bool split = splitActive_;
    // Side B's source; without a split the pass still binds something valid there.
    const engine::ResourceHandle lowRes = split ? stage.color : frameA;
    view.uses = {{frameA, engine::Access::SampledCompute}, {textHandle_, engine::Access::StorageBufferRead},
                 {stage.output, engine::Access::StorageImageWrite}};
    if (split) view.uses.push_back({stage.color, engine::Access::SampledCompute});
    view.record = [this, stage, frameA, lowRes, out, low, split](engine::PassContext& pc) {
        VkCommandBuffer cmd = pc.commandBuffer();
        VkDescriptorSet set = arena_->allocate(setLayout_);
        const VkDescriptorImageInfo images[] = {
            {nearest_, pc.imageView(frameA), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {linear_, pc.imageView(lowRes), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {VK_NULL_HANDLE, pc.imageView(stage.output), VK_IMAGE_LAYOUT_GENERAL},
        };
        vkutil::DescriptorWrites(set)
            .images(0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {images, 2})
            .image(2, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, images[2])
            .buffer(3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {pc.buffer(textHandle_), 0, VK_WHOLE_SIZE})
            .update(ctx_.device());
        gpu::ViewPush push{};
        push.outWidth = out.width;
        push.outHeight = out.height;
        push.lowWidth = split ? low.width : out.width;
        push.lowHeight = split ? low.height : out.height;
        push.flags = (split ? gpu::VIEW_SPLIT : 0u) | (settings.sideBBicubic ? gpu::VIEW_B_BICUBIC : 0u) |
                     (settings.zoom ? gpu::VIEW_ZOOM : 0u) | (settings.overlay ? gpu::VIEW_OVERLAY : 0u);
        push.splitX = int32_t(out.width / 2);
        push.zoomRadius = int32_t(std::max(8u, std::min(out.width, out.height) / 6));
        push.zoomFactor = 4;
        push.zoomX = std::clamp(zoomX_, uint32_t(push.zoomRadius), std::max(uint32_t(push.zoomRadius), out.width - 1 - push.zoomRadius));
        push.zoomY = std::clamp(zoomY_, uint32_t(push.zoomRadius), std::max(uint32_t(push.zoomRadius), out.height - 1 - push.zoomRadius));
        push.textColumns = kColumns;
        push.textRows = rows_;
        push.textScale = out.height >= 600 ? 2 : 1;
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatch(cmd, (out.width + 7) / 8, (out.height + 7) / 8, 1);
    };
    graph.insertAtHook("after_output", std::move(view));
}

void ViewPass::setFrame(engine::FrameGraph& graph, uint32_t slot, engine::DescriptorArena& arena,
                        const std::vector<std::string>& lines, uint32_t zoomX, uint32_t zoomY) {
    arena_ = &arena;
    zoomX_ = zoomX;
    zoomY_ = zoomY;
    rows_ = uint32_t(std::min<size_t>(lines.size(), kRows));
    auto* chars = static_cast<uint32_t*>(text_[slot].mapped()) + gpu::VIEW_FONT_WORDS;
    for (uint32_t r = 0; r < kRows; ++r)
        for (uint32_t c = 0; c < kColumns; ++c)
            chars[r * kColumns + c] = r < rows_ && c < lines[r].size() ? uint8_t(lines[r][c]) : uint32_t(' ');
    text_[slot].flush();
    if (textHandle_ != engine::kInvalidResource) graph.rebindImportedBuffer(textHandle_, text_[slot].handle());
}

}  // namespace demo
