#include "windowed.h"

#include "bridge/graph_session.h"
#include "bridge/ml_pass.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/jitter.h"
#include "engine/renderer.h"
#include "engine/swapchain.h"
#include "engine/window.h"
#include "frame_loop.h"
#include "ml_models.h"
#include "overlay.h"
#include "view_pass.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace demo {
namespace {

// --cycle-modes: one key every kCycleFrames frames, covering every mode, toggle and view.
constexpr uint32_t kCycleFrames = 3;
constexpr char kCycleKeys[] = "3DSZ\tO2O1SS4D2SZ5SZO6SS1";

bool renderable(VkExtent2D e) { return e.width >= engine::kMinResolution && e.height >= engine::kMinResolution; }

engine::RendererDesc rendererDesc(const Options& o, const SceneSetup& setup, VkExtent2D extent) {
    engine::RendererDesc d;
    d.scene = setup.scene;
    d.outputWidth = std::min(extent.width, engine::kMaxResolution);
    d.outputHeight = std::min(extent.height, engine::kMaxResolution);
    d.renderScale = o.renderScale;
    d.upscale = o.mode;
    d.shadows = o.shadows;
    d.shadowSamples = o.shadowSamples;
    d.lighting = o.lighting;
    d.denoise = o.denoise;
    return d;
}

engine::ContextDesc contextDesc(const Options& o) {
    engine::ContextDesc d;
    d.applicationName = "upscale_demo";
    d.validation = o.validation;
    d.deviceIndex = o.device;
    d.instanceExtensions = engine::Window::requiredInstanceExtensions();
    d.deviceExtensions = {engine::Swapchain::requiredDeviceExtension()};
    d.deviceMemoryBudgetBytes = VkDeviceSize(o.deviceMemoryBudgetMiB) << 20;
    return d;
}

// Everything the windowed demo makes on one VkDevice. After a device loss it is destroyed as a
// whole and made again on a new context (the window stays).
struct WindowedGpu {
    engine::Context ctx;
    engine::Surface surface;  // after ctx: destroyed before the instance
    engine::GpuTimer timer;
    engine::Swapchain swapchain;
    // The networks and the view pass outlive the renderer: its frame graph records their passes.
    std::unique_ptr<mlplugin::Device> mlDevice;
    std::unique_ptr<bridge::MlPass> mlUpscaler, mlDenoiser;
    std::unique_ptr<bridge::EffectUpscaler> taau, mlTemporal;  // the temporal modes (keys 5, 6)
    ViewPass view;
    engine::Renderer renderer;
    engine::Frames frames;  // last: destroyed first, waiting for the GPU before anything it uses goes

    WindowedGpu(const Options& o, const SceneSetup& setup, engine::Window& window)
        : ctx(contextDesc(o)),
          surface(window.createSurface(ctx.instance())),
          timer(ctx, {.framesInFlight = kFramesInFlight}),
          swapchain(ctx, surface.handle(), window.framebufferExtent(), kFramesInFlight),
          view(ctx, kFramesInFlight),
          renderer(ctx, rendererDesc(o, setup, swapchain.extent())),
          frames(ctx, {.framesInFlight = kFramesInFlight}) {
        renderer.addBuildHook(view.hook());
    }
};

struct WindowedApp {
    const Options& o;
    const SceneSetup& setup;  // CPU-side: outlasts every device
    engine::Window window;
    std::unique_ptr<WindowedGpu> gpu;

    // What the keys switch (kept across a device loss, as are the view settings).
    enum class Temporal { Off, Taau, Ml };
    engine::UpscaleMode mode;
    bool ml, denoise;
    Temporal temporal = Temporal::Off;
    FrameClock clock;
    uint32_t lossesWithoutProgress = 0;
    bool lossSimulated = false;

    WindowedApp(const Options& options, const SceneSetup& sceneSetup)
        : o(options),
          setup(sceneSetup),
          window("upscale_demo", o.width, o.height),
          gpu(std::make_unique<WindowedGpu>(o, setup, window)),
          mode(o.mode),
          ml(false),
          denoise(o.denoise != engine::DenoiseMode::Off || o.mlDenoise) {
        if (o.ml) ml = loadMlUpscaler();
        if (o.taau) temporal = Temporal::Taau;
        if (o.mlTemporal && loadTemporal(Temporal::Ml)) temporal = Temporal::Ml;
        if (o.mlDenoise && !loadMlDenoiser()) denoise = false;
        applyModes();
    }

    std::string denoiseName() const { return !denoise ? "off" : gpu->mlDenoiser ? "ml" : "atrous"; }
    std::string modeName() const {
        if (temporal != Temporal::Off) return temporal == Temporal::Taau ? "taau" : "ml-temporal";
        return ml ? "ml" : engine::toString(mode);
    }

    // The temporal upscaler effect of `which`, made on first use. False (with a message) when the
    // temporal model is missing.
    bool loadTemporal(Temporal which) {
        std::unique_ptr<bridge::EffectUpscaler>& slot = which == Temporal::Taau ? gpu->taau : gpu->mlTemporal;
        if (slot) return true;
        Options opts = o;
        opts.taau = which == Temporal::Taau;
        opts.mlTemporal = which == Temporal::Ml;
        if (opts.mlTemporal) {
            ModelLocation model = resolveModel(o.temporalModel, kTemporalModel);
            if (!model) {
                std::printf("temporal ML upscaler not available: %s\n", model.problem.c_str());
                return false;
            }
            opts.temporalModel = model.path.string();
        }
        slot = std::make_unique<bridge::EffectUpscaler>(gpu->ctx, temporalUpscalerDesc(opts, &gpu->frames.deletion()));
        return true;
    }
    bridge::EffectUpscaler* temporalUpscaler() const {
        return temporal == Temporal::Taau ? gpu->taau.get() : temporal == Temporal::Ml ? gpu->mlTemporal.get() : nullptr;
    }

    mlplugin::Device& mlDeviceRef() {
        if (!gpu->mlDevice) gpu->mlDevice = createMlDevice(gpu->ctx, o);
        return *gpu->mlDevice;
    }
    // False (with a message) when the model file is missing: the mode stays as it was.
    bool loadMlUpscaler() {
        if (gpu->mlUpscaler) return true;
        ModelLocation model = resolveModel(o.model, kUpscalerModel);
        if (!model) {
            std::printf("ML upscaler not available: %s\n", model.problem.c_str());
            return false;
        }
        gpu->mlUpscaler = std::make_unique<bridge::MlPass>(gpu->ctx, mlDeviceRef(), mlUpscalerDesc(model.path.string(), o.mlPrecision));
        return true;
    }
    bool loadMlDenoiser() {
        ModelLocation model = resolveModel(o.denoiseModel, kDenoiserModel);
        if (!model) {
            std::printf("ML denoiser not available: %s\n", model.problem.c_str());
            return false;
        }
        gpu->mlDenoiser = std::make_unique<bridge::MlPass>(gpu->ctx, mlDeviceRef(), mlDenoiserDesc(model.path.string(), o.mlPrecision));
        return true;
    }

    // Rebuilds the frame graph for the current modes. The old graph's transients and descriptor
    // sets go at build(): wait for the frames that use them first.
    void applyModes() {
        gpu->frames.waitIdle();
        if (temporal != Temporal::Off && !temporalUpscaler()) loadTemporal(temporal);
        bridge::EffectUpscaler* effect = temporalUpscaler();
        // ml and the temporal modes: scaled render, their pass replaces the filter
        gpu->renderer.setUpscaleMode(ml || effect ? engine::UpscaleMode::Bilinear : mode);
        gpu->renderer.setUpscaler(effect ? effect->upscaler() : ml ? gpu->mlUpscaler->upscaler() : engine::UpscalerFn{});
        // The ML denoiser only fits some extents: a-trous stands in for it at the others.
        bool mlFits = true;
        if (denoise && gpu->mlDenoiser) {
            std::string problem = mlDenoiserExtentProblem(gpu->renderer.renderExtent());
            if (!problem.empty()) std::printf("%s: using the a-trous filter\n", problem.c_str());
            mlFits = problem.empty();
        }
        gpu->renderer.setDenoiseMode(denoise && !(gpu->mlDenoiser && mlFits) ? engine::DenoiseMode::Atrous : engine::DenoiseMode::Off);
        gpu->renderer.setDenoiser(denoise && gpu->mlDenoiser && mlFits ? gpu->mlDenoiser->denoiser() : engine::DenoiserFn{});
        gpu->renderer.build({.headless = false, .format = gpu->swapchain.format(), .channels = 0, .framesInFlight = kFramesInFlight});
        std::printf("mode %s, denoise %s, split %s, zoom %s, overlay %s (render %ux%u)\n", modeName().c_str(),
                    denoiseName().c_str(), gpu->view.splitActive() ? splitName().c_str() : "off", gpu->view.settings.zoom ? "on" : "off",
                    gpu->view.settings.overlay ? "on" : "off", gpu->renderer.renderExtent().width, gpu->renderer.renderExtent().height);
    }

    std::string splitName() const { return modeName() + " | " + (gpu->view.settings.sideBBicubic ? "bicubic" : "bilinear"); }

    // Keys and --cycle-modes: 1-4 output mode, 5 TAAU, 6 temporal ML, D denoiser, S split, Tab
    // side B, Z zoom, O overlay.
    void handleKey(char key) {
        switch (key) {
        case '1': mode = engine::UpscaleMode::Native, ml = false, temporal = Temporal::Off; break;
        case '2': mode = engine::UpscaleMode::Bilinear, ml = false, temporal = Temporal::Off; break;
        case '3': mode = engine::UpscaleMode::Bicubic, ml = false, temporal = Temporal::Off; break;
        case '4':
            if (!loadMlUpscaler()) return;
            ml = true;
            temporal = Temporal::Off;
            break;
        case '5':
        case '6': {
            Temporal which = key == '5' ? Temporal::Taau : Temporal::Ml;
            if (!loadTemporal(which)) return;
            temporal = which;
            ml = false;
            break;
        }
        case 'D': denoise = !denoise; break;
        case 'S':
            gpu->view.settings.split = !gpu->view.settings.split;
            if (gpu->view.settings.split && !ml && temporal == Temporal::Off && mode == engine::UpscaleMode::Native)
                std::printf("split view compares output filters: it needs an upscaling mode (2-6), not native\n");
            break;
        case '\t': gpu->view.settings.sideBBicubic = !gpu->view.settings.sideBBicubic; break;
        case 'Z': gpu->view.settings.zoom = !gpu->view.settings.zoom; break;
        case 'O': gpu->view.settings.overlay = !gpu->view.settings.overlay; break;
        case 27: window.requestClose(); return;
        default: return;
        }
        try {
            applyModes();
        } catch (const engine::Error& e) {  // e.g. a network that does not fit this resolution
            if (e.deviceLost()) throw;      // run() recovers from that
            fallBack(e.what());
        }
    }

    void fallBack(const char* why) {
        std::printf("cannot switch: %s; back to bilinear without ML\n", why);
        ml = false;
        temporal = Temporal::Off;
        mode = engine::UpscaleMode::Bilinear;
        if (gpu->mlDenoiser) denoise = false;
        applyModes();
    }

    // Waits for in-flight frames (never the whole device), then swapchain + graph at the new size.
    void recreate() {
        window.waitWhileMinimized();
        gpu->frames.waitIdle();
        gpu->swapchain.recreate(window.framebufferExtent());
        if (!renderable(gpu->swapchain.extent())) return;
        gpu->renderer.resize(std::min(gpu->swapchain.extent().width, engine::kMaxResolution), std::min(gpu->swapchain.extent().height, engine::kMaxResolution));
        gpu->renderer.build({.headless = false, .format = gpu->swapchain.format(), .channels = 0, .framesInFlight = kFramesInFlight});
        std::printf("resized to %ux%u (render %ux%u)\n", gpu->swapchain.extent().width, gpu->swapchain.extent().height,
                    gpu->renderer.renderExtent().width, gpu->renderer.renderExtent().height);
    }

    std::vector<std::string> overlayText() {
        OverlayInfo info{modeName(), denoiseName(), gpu->view.splitActive() ? splitName() : "",
                         gpu->renderer.renderExtent().width, gpu->renderer.renderExtent().height,
                         gpu->renderer.outputExtent().width, gpu->renderer.outputExtent().height, clock.medianMs()};
        return overlayLines(info, gpu->timer.timings(), gpu->renderer.graph().passOrder());
    }

    // Returns false when the frame could not be rendered (swapchain out of date).
    bool renderFrame(uint32_t index) {
        engine::Frame& f = gpu->frames.beginFrame();
        std::optional<engine::SwapchainImage> image = gpu->swapchain.acquire(f.slot);
        if (!image) {
            gpu->frames.endFrame();  // submits the empty command buffer so the slot's fence still signals
            return false;
        }
        gpu->timer.beginFrame(f.cmd, f.slot);  // reads this slot's previous timings: the overlay shows them
        uint32_t cx = gpu->renderer.outputExtent().width / 2, cy = gpu->renderer.outputExtent().height / 2;
        window.cursorPosition(cx, cy);  // the lens follows the cursor while it is in the window
        gpu->view.setFrame(gpu->renderer.graph(), f.slot, *f.descriptors, gpu->view.settings.overlay ? overlayText() : std::vector<std::string>{}, cx, cy);
        engine::FrameParams params = engine::FrameParams::onPath(setup.path, index, o.fps, o.startTime);
        if (temporal != Temporal::Off) {  // the temporal modes sample a new sub-pixel offset every frame
            uint32_t phases = engine::jitterPhaseCount(gpu->renderer.renderExtent().width, gpu->renderer.outputExtent().width);
            params.jitterPixels = engine::haltonJitter(index, phases);
            params.textureLodBias = engine::textureLodBiasForUpscale(gpu->renderer.renderExtent().width, gpu->renderer.outputExtent().width);
        }
        gpu->renderer.record(f.cmd, f.slot, params, &gpu->timer, image->image, image->view);
        const engine::SwapchainFrameSemaphores semaphores(*image);
        gpu->frames.endFrame(semaphores.submit());
        return gpu->swapchain.present(*image);
    }

    // A lost device: everything on it goes, a new context, surface, swapchain, networks and
    // frame graph are made with the same modes and view settings, and the window keeps running.
    void recover(uint32_t presented, const engine::Error& e) {
        const bool simulated = gpu->ctx.deviceLossSimulated();
        std::printf("device lost at frame %u%s: %s\n", presented, simulated ? " (simulated)" : "", e.what());
        if (++lossesWithoutProgress >= kMaxLossesWithoutProgress)
            throw engine::Error(engine::ErrorCode::DeviceLost,
                                "the device was lost " + std::to_string(lossesWithoutProgress) +
                                    " times without presenting a frame in between; giving up (last: " + e.what() + ")",
                                VK_ERROR_DEVICE_LOST);
        const auto t0 = std::chrono::steady_clock::now();
        const ViewSettings settings = gpu->view.settings;
        const bool mlDenoiser = gpu->mlDenoiser != nullptr;
        gpu.reset();
        gpu = std::make_unique<WindowedGpu>(o, setup, window);
        gpu->view.settings = settings;
        if (ml) ml = loadMlUpscaler();
        if (mlDenoiser) loadMlDenoiser();
        applyModes();  // makes the temporal upscaler of the current mode again
        std::printf("recovered: recreated the device, the swapchain and every resource in %.2f s; still running\n",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }

    // One pass of the loop: keys, resizes, one frame. Returns false when it presented nothing.
    bool step(uint32_t presented, uint32_t& nextCycle, bool& resizeRequested) {
        window.pollEvents();
        for (char key : window.takeKeys()) handleKey(key);
        if (o.cycleModes && presented >= (nextCycle + 1) * kCycleFrames && nextCycle + 1 < sizeof kCycleKeys)
            handleKey(kCycleKeys[nextCycle++]);
        if (o.resizeTest && !resizeRequested && presented >= std::max(1u, o.frames / 2)) {
            window.setSize(std::max(engine::kMinResolution, o.width * 3 / 4), std::max(engine::kMinResolution, o.height * 3 / 4));
            resizeRequested = true;
            return false;  // let the resize event arrive
        }
        bool stale = window.takeResized() || !renderable(gpu->swapchain.extent()) ||
                     gpu->swapchain.extent().width != window.framebufferExtent().width ||
                     gpu->swapchain.extent().height != window.framebufferExtent().height;
        if (stale) recreate();
        if (!renderable(gpu->swapchain.extent())) return false;
        if (o.simulateDeviceLoss == presented && !lossSimulated) {
            lossSimulated = true;
            gpu->ctx.simulateDeviceLoss();  // the next fence wait reports VK_ERROR_DEVICE_LOST
        }
        if (renderFrame(presented)) return true;
        recreate();
        return false;
    }

    void run() {
        uint32_t presented = 0, nextCycle = 0;
        bool resizeRequested = false;
        while (!window.shouldClose() && (o.frames == 0 || presented < o.frames)) {
            try {
                if (step(presented, nextCycle, resizeRequested)) ++presented, clock.tick(), lossesWithoutProgress = 0;
            } catch (const engine::Error& e) {
                if (!e.deviceLost()) throw;
                recover(presented, e);
            }
        }
        gpu->frames.waitIdle();
        if (gpu->mlDevice) savePipelineCache(*gpu->mlDevice, o);
        for (uint32_t s = 0; s < kFramesInFlight; ++s) gpu->timer.collect(s);
        std::printf("presented %u frame(s) on %s, final size %ux%u\n", presented, gpu->ctx.deviceName().c_str(),
                    gpu->swapchain.extent().width, gpu->swapchain.extent().height);
        for (const engine::GpuTiming& t : gpu->timer.timings())
            std::printf("  %-20s median %.3f ms\n", t.name.c_str(), t.medianMs);
    }
};

}  // namespace

void runWindowed(const Options& options, const SceneSetup& setup) {
    WindowedApp app(options, setup);
    app.run();
}

}  // namespace demo
