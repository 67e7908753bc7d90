#include "windowed.h"

#include "bridge/graph_session.h"
#include "bridge/ml_pass.h"
#include "engine/context.h"
#include "engine/error.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/renderer.h"
#include "engine/swapchain.h"
#include "engine/window.h"
#include "ml_models.h"
#include "overlay.h"
#include "view_pass.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace demo {
namespace {

constexpr uint32_t kFramesInFlight = 2;
// --cycle-modes: one key every kCycleFrames frames, covering every mode, toggle and view.
constexpr uint32_t kCycleFrames = 3;
constexpr char kCycleKeys[] = "3DSZ\tO2O1SS4D2SZ";

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

struct WindowedApp {
    const Options& o;
    const SceneSetup& setup;
    engine::Window window;
    engine::Context ctx;
    engine::Surface surface;  // after ctx: destroyed before the instance
    engine::GpuTimer timer;
    engine::Swapchain swapchain;
    // The networks and the view pass outlive the renderer: its frame graph records their passes.
    std::unique_ptr<mlplugin::Device> mlDevice;
    std::unique_ptr<bridge::MlPass> mlUpscaler, mlDenoiser;
    ViewPass view;
    engine::Renderer renderer;
    engine::Frames frames;  // last: destroyed first, waiting for the GPU before anything it uses goes

    // What the keys switch.
    engine::UpscaleMode mode;
    bool ml, denoise;
    FrameClock clock;

    static engine::ContextDesc contextDesc(const Options& o) {
        engine::ContextDesc d;
        d.applicationName = "upscale_demo";
        d.validation = o.validation;
        d.deviceIndex = o.device;
        d.instanceExtensions = engine::Window::requiredInstanceExtensions();
        d.deviceExtensions = {engine::Swapchain::requiredDeviceExtension()};
        return d;
    }

    WindowedApp(const Options& options, const SceneSetup& sceneSetup)
        : o(options),
          setup(sceneSetup),
          window("upscale_demo", o.width, o.height),
          ctx(contextDesc(o)),
          surface(window.createSurface(ctx.instance())),
          timer(ctx, {.framesInFlight = kFramesInFlight}),
          swapchain(ctx, surface.handle(), window.framebufferExtent(), kFramesInFlight),
          view(ctx, kFramesInFlight),
          renderer(ctx, rendererDesc(o, setup, swapchain.extent())),
          frames(ctx, {.framesInFlight = kFramesInFlight}),
          mode(o.mode),
          ml(false),
          denoise(o.denoise != engine::DenoiseMode::Off || o.mlDenoise) {
        renderer.addBuildHook(view.hook());
        if (o.ml) ml = loadMlUpscaler();
        if (o.mlDenoise && !loadMlDenoiser()) denoise = false;
        applyModes();
    }

    std::string denoiseName() const { return !denoise ? "off" : mlDenoiser ? "ml" : "atrous"; }
    std::string modeName() const { return ml ? "ml" : engine::toString(mode); }

    mlplugin::Device& mlDeviceRef() {
        if (!mlDevice) mlDevice = bridge::createDevice(ctx, o.validation);
        return *mlDevice;
    }
    // False (with a message) when the model file is missing: the mode stays as it was.
    bool loadMlUpscaler() {
        if (mlUpscaler) return true;
        std::string path = o.model.empty() ? defaultUpscalerModel() : o.model;
        if (!std::filesystem::exists(path)) {
            std::printf("ML upscaler not available: no model at %s\n", path.c_str());
            return false;
        }
        mlUpscaler = std::make_unique<bridge::MlPass>(ctx, mlDeviceRef(), mlUpscalerDesc(o.model));
        return true;
    }
    bool loadMlDenoiser() {
        std::string path = o.denoiseModel.empty() ? defaultDenoiserModel() : o.denoiseModel;
        if (!std::filesystem::exists(path)) {
            std::printf("ML denoiser not available: no model at %s\n", path.c_str());
            return false;
        }
        mlDenoiser = std::make_unique<bridge::MlPass>(ctx, mlDeviceRef(), mlDenoiserDesc(o.denoiseModel));
        return true;
    }

    // Rebuilds the frame graph for the current modes. The old graph's transients and descriptor
    // sets go at build(): wait for the frames that use them first.
    void applyModes() {
        frames.waitIdle();
        renderer.setUpscaleMode(ml ? engine::UpscaleMode::Bilinear : mode);  // ml: scaled render; MlPass replaces the filter
        renderer.setUpscaler(ml ? mlUpscaler->upscaler() : engine::UpscalerFn{});
        // The ML denoiser only fits some extents: a-trous stands in for it at the others.
        bool mlFits = true;
        if (denoise && mlDenoiser) {
            std::string problem = mlDenoiserExtentProblem(renderer.renderExtent());
            if (!problem.empty()) std::printf("%s: using the a-trous filter\n", problem.c_str());
            mlFits = problem.empty();
        }
        renderer.setDenoiseMode(denoise && !(mlDenoiser && mlFits) ? engine::DenoiseMode::Atrous : engine::DenoiseMode::Off);
        renderer.setDenoiser(denoise && mlDenoiser && mlFits ? mlDenoiser->denoiser() : engine::DenoiserFn{});
        renderer.build({.headless = false, .format = swapchain.format(), .channels = 0, .framesInFlight = kFramesInFlight});
        std::printf("mode %s, denoise %s, split %s, zoom %s, overlay %s (render %ux%u)\n", modeName().c_str(),
                    denoiseName().c_str(), view.splitActive() ? splitName().c_str() : "off", view.settings.zoom ? "on" : "off",
                    view.settings.overlay ? "on" : "off", renderer.renderExtent().width, renderer.renderExtent().height);
    }

    std::string splitName() const { return modeName() + " | " + (view.settings.sideBBicubic ? "bicubic" : "bilinear"); }

    // Keys and --cycle-modes: 1-4 output mode, D denoiser, S split, Tab side B, Z zoom, O overlay.
    void handleKey(char key) {
        switch (key) {
        case '1': mode = engine::UpscaleMode::Native, ml = false; break;
        case '2': mode = engine::UpscaleMode::Bilinear, ml = false; break;
        case '3': mode = engine::UpscaleMode::Bicubic, ml = false; break;
        case '4':
            if (!loadMlUpscaler()) return;
            ml = true;
            break;
        case 'D': denoise = !denoise; break;
        case 'S':
            view.settings.split = !view.settings.split;
            if (view.settings.split && !ml && mode == engine::UpscaleMode::Native)
                std::printf("split view compares output filters: it needs an upscaling mode (2-4), not native\n");
            break;
        case '\t': view.settings.sideBBicubic = !view.settings.sideBBicubic; break;
        case 'Z': view.settings.zoom = !view.settings.zoom; break;
        case 'O': view.settings.overlay = !view.settings.overlay; break;
        case 27: window.requestClose(); return;
        default: return;
        }
        try {
            applyModes();
        } catch (const engine::Error& e) {
            if (e.deviceLost()) throw;
            fallBack(e.what());
        } catch (const std::runtime_error& e) {  // e.g. a network that does not fit this resolution
            fallBack(e.what());
        }
    }

    void fallBack(const char* why) {
        std::printf("cannot switch: %s; back to bilinear without ML\n", why);
        ml = false;
        mode = engine::UpscaleMode::Bilinear;
        if (mlDenoiser) denoise = false;
        applyModes();
    }

    // Waits for in-flight frames (never the whole device), then swapchain + graph at the new size.
    void recreate() {
        window.waitWhileMinimized();
        frames.waitIdle();
        swapchain.recreate(window.framebufferExtent());
        if (!renderable(swapchain.extent())) return;
        renderer.resize(std::min(swapchain.extent().width, engine::kMaxResolution), std::min(swapchain.extent().height, engine::kMaxResolution));
        renderer.build({.headless = false, .format = swapchain.format(), .channels = 0, .framesInFlight = kFramesInFlight});
        std::printf("resized to %ux%u (render %ux%u)\n", swapchain.extent().width, swapchain.extent().height,
                    renderer.renderExtent().width, renderer.renderExtent().height);
    }

    std::vector<std::string> overlayText() {
        OverlayInfo info{modeName(), denoiseName(), view.splitActive() ? splitName() : "",
                         renderer.renderExtent().width, renderer.renderExtent().height,
                         renderer.outputExtent().width, renderer.outputExtent().height, clock.medianMs()};
        return overlayLines(info, timer.timings(), renderer.graph().passOrder());
    }

    // Returns false when the frame could not be rendered (swapchain out of date).
    bool renderFrame(uint32_t index) {
        engine::Frame& f = frames.beginFrame();
        std::optional<engine::SwapchainImage> image = swapchain.acquire(f.slot);
        if (!image) {
            frames.endFrame();  // submits the empty command buffer so the slot's fence still signals
            return false;
        }
        timer.beginFrame(f.cmd, f.slot);  // reads this slot's previous timings: the overlay shows them
        uint32_t cx = renderer.outputExtent().width / 2, cy = renderer.outputExtent().height / 2;
        window.cursorPosition(cx, cy);  // the lens follows the cursor while it is in the window
        view.setFrame(renderer.graph(), f.slot, *f.descriptors, view.settings.overlay ? overlayText() : std::vector<std::string>{}, cx, cy);
        renderer.record(f.cmd, f.slot, engine::FrameParams::onPath(setup.path, index, o.fps, o.startTime), &timer, image->image, image->view);
        VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        wait.semaphore = image->acquired;
        wait.stageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
        VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        signal.semaphore = image->renderDone;
        signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        frames.endFrame({.waits = {&wait, 1}, .signals = {&signal, 1}});
        return swapchain.present(*image);
    }

    void run() {
        uint32_t presented = 0, nextCycle = 0;
        bool resizeRequested = false;
        while (!window.shouldClose() && (o.frames == 0 || presented < o.frames)) {
            window.pollEvents();
            for (char key : window.takeKeys()) handleKey(key);
            if (o.cycleModes && presented >= (nextCycle + 1) * kCycleFrames && nextCycle + 1 < sizeof kCycleKeys)
                handleKey(kCycleKeys[nextCycle++]);
            if (o.resizeTest && !resizeRequested && presented >= std::max(1u, o.frames / 2)) {
                window.setSize(std::max(engine::kMinResolution, o.width * 3 / 4), std::max(engine::kMinResolution, o.height * 3 / 4));
                resizeRequested = true;
                continue;  // let the resize event arrive
            }
            bool stale = window.takeResized() || !renderable(swapchain.extent()) ||
                         swapchain.extent().width != window.framebufferExtent().width ||
                         swapchain.extent().height != window.framebufferExtent().height;
            if (stale) recreate();
            if (!renderable(swapchain.extent())) continue;
            if (o.simulateDeviceLoss == presented) throw engine::Error("simulated (--simulate-device-loss)", VK_ERROR_DEVICE_LOST);
            if (renderFrame(presented)) ++presented, clock.tick();
            else recreate();
        }
        frames.waitIdle();
        for (uint32_t s = 0; s < kFramesInFlight; ++s) timer.collect(s);
        std::printf("presented %u frame(s) on %s, final size %ux%u\n", presented, ctx.deviceName().c_str(),
                    swapchain.extent().width, swapchain.extent().height);
        for (const engine::GpuTiming& t : timer.timings())
            std::printf("  %-20s median %.3f ms\n", t.name.c_str(), t.medianMs);
    }
};

}  // namespace

void runWindowed(const Options& options, const SceneSetup& setup) {
    WindowedApp app(options, setup);
    app.run();
}

}  // namespace demo
