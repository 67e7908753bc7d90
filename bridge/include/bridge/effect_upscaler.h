#pragma once
/// \file
/// EffectUpscaler: an effects::Upscaler (TAAU, temporal ML or single-frame ML) in the engine's
/// output stage. The thin adapter from our frame graph to the engine-agnostic effect API: one
/// compute pass that declares its reads (colour, depth, motion: sampled in compute) and its write
/// (the output image: storage), so the frame graph places every barrier and layout transition,
/// and a record callback that hands the pass's image views, this frame's jitter, camera and cut
/// to Upscaler::record.
///
///   bridge::EffectUpscaler taau(ctx, {.mode = effects::UpscalerMode::Taau});
///   renderer.setUpscaler(taau.upscaler());
///   renderer.build(target);
///   ...per frame: FrameParams with jitterPixels (engine/jitter.h) and cameraCut
///
/// The effect is created at the first build() for its render and output extents, resized when
/// the output extent changes, recreated when the render extent exceeds the one it was created
/// for (the old one retired through `retire`, or kept until destruction). Its one-time
/// initialization (history clear, weights) is recorded into the first frame's command buffer.
///
/// Errors (a bad model, a record error) throw engine::Error with the effect's error code mapped
/// one to one (bridge/errors.h: DeviceLost, OutOfMemory, InvalidModel, ...), its VkResult and
/// its message.
/// The EffectUpscaler must outlive the frame graphs that record its pass.
#include "bridge/export.h"

#include "effects/upscaler.h"
#include "engine/context.h"
#include "engine/deferred_deletion.h"
#include "engine/gpu_timer.h"
#include "engine/renderer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

BRIDGE_API_BEGIN
namespace bridge {

/// Which effects::Upscaler an EffectUpscaler runs, and how.
struct EffectUpscalerDesc {
    std::string name = "upscale";  ///< the pass name suffix ("upscale_taau"); GPU timer scope
    effects::UpscalerMode mode = effects::UpscalerMode::Taau;  ///< the algorithm
    std::string modelPath;         ///< ML modes
    float sharpness = 0.0f;  ///< output sharpening 0..1
    bool preferFp16 = true;  ///< ML modes: fp16 where the device has it
    bool debugChecks = false;  ///< validate every image on each record (EffectDevice::debugChecks)
    engine::DeferredDeletion* retire = nullptr;  ///< where replaced effect objects go (e.g. Frames::deletion())
    std::shared_ptr<const mlplugin::TuningTable> tuning;  ///< ML modes: measured kernel choices (EffectDevice::tuning)
    /// When the graph is executed with a GpuTimer: one nested timer scope per step of the effect,
    /// named "<pass>/<step>" ("upscale_ml-temporal/network"; effects::UpscalerInputs::steps lists
    /// the steps). For benchmarks (frame_bench --effect-steps); off by default, so the pass's own
    /// scope times exactly what the application records.
    bool timeSteps = false;
};

/// What an EffectUpscaler has done so far.
struct EffectUpscalerStats {
    uint32_t creations = 0;  ///< effect objects created (first build, render extent growth)
    uint32_t resizes = 0;    ///< display-size changes handled by Upscaler::resize
};

/// An effects::Upscaler as the renderer's output stage: one frame-graph pass declaring the
/// images it reads and writes; the effect is created (and resized) as build() sees new extents.
class EffectUpscaler {
public:
    /// An upscaler on `ctx` (the effect is created at the first build()).
    EffectUpscaler(engine::Context& ctx, EffectUpscalerDesc desc);
    ~EffectUpscaler();
    EffectUpscaler(const EffectUpscaler&) = delete;
    EffectUpscaler& operator=(const EffectUpscaler&) = delete;

    /// For Renderer::setUpscaler.
    engine::UpscalerFn upscaler();
    /// The effect (nullptr before the first build()).
    const effects::Upscaler* effect() const { return effect_.get(); }
    /// Creations and resizes so far.
    const EffectUpscalerStats& stats() const { return stats_; }

private:
    std::string passName() const { return desc_.name + "_" + effects::toString(desc_.mode); }
    void prepare(VkExtent2D renderExtent, VkExtent2D outputExtent);
    void recordPass(engine::PassContext& pc, const engine::OutputStage& stage);

    engine::Context& ctx_;
    EffectUpscalerDesc desc_;
    std::unique_ptr<effects::Upscaler> effect_;
    std::vector<std::unique_ptr<effects::Upscaler>> retired_;  ///< without desc.retire: kept until destruction
    bool needsInitialization_ = false;
    EffectUpscalerStats stats_;
    /// desc.timeSteps: the timer of the pass being recorded and the scope name being built (its
    /// capacity reused, so naming a step allocates nothing after the first frames).
    struct StepTiming {
        engine::GpuTimer* timer = nullptr;
        std::string passName, scopeName;
    } stepTiming_;
};

/// The effect-device description of an engine context (features as the context enabled them;
/// primaryCommandBuffers set, since the frame graph records every pass into a primary).
effects::EffectDevice effectDevice(engine::Context& ctx, bool debugChecks);

}  // namespace bridge
BRIDGE_API_END
