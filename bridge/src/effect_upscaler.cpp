#include "bridge/effect_upscaler.h"

#include "bridge/errors.h"
#include "device_desc.h"

#include "engine/camera.h"
#include "engine/error.h"
#include "engine/frame_graph.h"

#include <cmath>

namespace bridge {
namespace {

// Formats the renderer's output stage uses (engine/src/renderer_pipelines.h).
constexpr VkFormat kColorFormat = VK_FORMAT_R16G16B16A16_SFLOAT;
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkFormat kMotionFormat = VK_FORMAT_R16G16_SFLOAT;

[[noreturn]] void fail(const effects::Error& e, const std::string& who) { throw toEngineError(e, who); }

effects::ImageInput sampled(engine::PassContext& pc, engine::ResourceHandle h, VkFormat format, VkExtent2D extent) {
    return {pc.imageView(h), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, extent, format};
}

}  // namespace

effects::EffectDevice effectDevice(engine::Context& ctx, bool debugChecks) {
    effects::EffectDevice d = detail::describeDevice<effects::EffectDevice>(ctx);
    d.debugChecks = debugChecks;
    d.primaryCommandBuffers = true;  // the frame graph records every pass into the frame's primary command buffer
    return d;
}

EffectUpscaler::EffectUpscaler(engine::Context& ctx, EffectUpscalerDesc desc) : ctx_(ctx), desc_(std::move(desc)) {}

EffectUpscaler::~EffectUpscaler() = default;

void EffectUpscaler::prepare(VkExtent2D renderExtent, VkExtent2D outputExtent) {
    const std::string who = std::string("upscaler '") + effects::toString(desc_.mode) + "'";
    if (effect_) {
        VkExtent2D max = effect_->desc().maxRenderSize;
        if (renderExtent.width <= max.width && renderExtent.height <= max.height) {
            VkExtent2D display = effect_->desc().displaySize;
            if (display.width != outputExtent.width || display.height != outputExtent.height) {
                if (effects::Status s = effect_->resize(outputExtent); !s) fail(s.error(), who);
                ++stats_.resizes;
            }
            return;
        }
        if (desc_.retire) desc_.retire->retire(std::move(effect_));
        else retired_.push_back(std::move(effect_));
    }
    effects::UpscalerDesc d;
    d.device = effectDevice(ctx_, desc_.debugChecks);
    d.device.tuning = desc_.tuning;
    d.maxRenderSize = renderExtent;
    d.displaySize = outputExtent;
    d.outputFormat = kColorFormat;
    d.mode = desc_.mode;
    d.modelPath = desc_.modelPath;
    d.preferFp16 = desc_.preferFp16;
    d.sharpness = desc_.sharpness;
    d.framesInFlight = 8;  // the frame graph's slot index is below the engine's limit of 8
    auto created = effects::Upscaler::create(d);
    if (!created) fail(created.error(), who);
    effect_ = std::move(*created);
    needsInitialization_ = true;
    ++stats_.creations;
}

void EffectUpscaler::recordPass(engine::PassContext& pc, const engine::OutputStage& stage) {
    const std::string who = std::string("upscaler '") + effects::toString(desc_.mode) + "'";
    VkCommandBuffer cmd = pc.commandBuffer();
    if (needsInitialization_) {
        if (effects::Status s = effect_->recordInitialization(cmd); !s) fail(s.error(), who);
        needsInitialization_ = false;
    }
    const engine::FrameParams& frame = *stage.frame;
    effects::UpscalerInputs in;
    in.color = sampled(pc, stage.color, kColorFormat, stage.renderExtent);
    if (desc_.mode != effects::UpscalerMode::MlSingleFrame) {
        in.depth = sampled(pc, stage.depth, kDepthFormat, stage.renderExtent);
        in.motion = sampled(pc, stage.motion, kMotionFormat, stage.renderExtent);
    }
    in.output = {pc.imageView(stage.output), VK_IMAGE_LAYOUT_GENERAL, stage.outputExtent, kColorFormat};
    in.renderSize = stage.renderExtent;
    in.jitterX = frame.jitterPixels.x;
    in.jitterY = frame.jitterPixels.y;
    in.frameTimeDeltaMs = frame.frameTimeSeconds * 1000.0f;
    in.cameraNear = frame.camera.zNear;  // the pose's planes: glTF orbits and keyframe files set their own
    in.cameraFar = frame.camera.zFar;
    in.cameraFovY = frame.camera.fovYDegrees * 3.14159265f / 180.0f;
    in.reset = frame.cameraCut;
    in.frameSlot = pc.frameIndex();
    if (desc_.timeSteps && pc.timer()) {
        stepTiming_.timer = pc.timer();
        if (stepTiming_.passName.empty()) stepTiming_.passName = passName();
        in.steps.user = &stepTiming_;
        in.steps.begin = [](void* user, VkCommandBuffer c, const char* step) {
            auto& t = *static_cast<StepTiming*>(user);
            t.scopeName.assign(t.passName).append("/").append(step);
            t.timer->beginScope(c, t.scopeName);
        };
        in.steps.end = [](void* user, VkCommandBuffer c) { static_cast<StepTiming*>(user)->timer->endScope(c); };
    }
    if (effects::Status s = effect_->record(cmd, in); !s) fail(s.error(), who);
}

engine::UpscalerFn EffectUpscaler::upscaler() {
    return [this](engine::FrameGraph& graph, const engine::OutputStage& stage) {
        prepare(stage.renderExtent, stage.outputExtent);
        engine::PassDesc pass;
        pass.name = passName();
        pass.type = engine::PassType::Compute;
        pass.uses = {{stage.color, engine::Access::SampledCompute}, {stage.output, engine::Access::StorageImageWrite}};
        if (desc_.mode != effects::UpscalerMode::MlSingleFrame) {
            pass.uses.push_back({stage.depth, engine::Access::SampledCompute});
            pass.uses.push_back({stage.motion, engine::Access::SampledCompute});
        }
        pass.record = [this, stage](engine::PassContext& pc) { recordPass(pc, stage); };
        graph.addPass(std::move(pass));
    };
}

}  // namespace bridge
