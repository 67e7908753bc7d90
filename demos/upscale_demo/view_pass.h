#pragma once
// The windowed demo's view pass, inserted at the renderer's "after_output" hook when any of its
// features is on: split-screen A/B (left: the frame as the output stage made it; right: a
// built-in filter of the same render-resolution colour, with a divider), a nearest-neighbour
// zoom lens, and a text overlay drawn with a 5x7 bitmap font compiled into the demo
// (shaders/demo/view.comp; no font files at run time).
#include "engine/buffer.h"
#include "engine/renderer.h"

#include <string>
#include <vector>

namespace engine {
class Context;
class DescriptorArena;
}

namespace demo {

struct ViewSettings {
    bool split = false;
    bool sideBBicubic = true;  // side B: Catmull-Rom, else bilinear
    bool zoom = false;
    bool overlay = true;
    bool any() const { return split || zoom || overlay; }
};

class ViewPass {
public:
    static constexpr uint32_t kColumns = 44, kRows = 20;  // overlay text capacity

    ViewPass(engine::Context& ctx, uint32_t framesInFlight);
    ~ViewPass();
    ViewPass(const ViewPass&) = delete;
    ViewPass& operator=(const ViewPass&) = delete;

    // For Renderer::addBuildHook: adds the passes for the current settings (rebuild after
    // changing split/zoom/overlay on or off). Split needs distinct render and output images
    // (not native): it is left out otherwise (splitActive() says which).
    engine::BuildHookFn hook();
    bool splitActive() const { return splitActive_; }

    // Per frame, before Renderer::record: this slot's text, lens centre and descriptor arena.
    void setFrame(engine::FrameGraph& graph, uint32_t slot, engine::DescriptorArena& arena,
                  const std::vector<std::string>& lines, uint32_t zoomX, uint32_t zoomY);

    ViewSettings settings;

private:
    void addPasses(engine::FrameGraph& graph, const engine::OutputStage& stage);

    engine::Context& ctx_;
    VkSampler nearest_ = VK_NULL_HANDLE, linear_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    std::vector<engine::Buffer> text_;  // per slot, host-written
    engine::ResourceHandle textHandle_ = engine::kInvalidResource;
    engine::DescriptorArena* arena_ = nullptr;
    uint32_t rows_ = 0, zoomX_ = 0, zoomY_ = 0;
    bool splitActive_ = false;
};

}  // namespace demo
