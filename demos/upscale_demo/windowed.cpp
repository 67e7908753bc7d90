#include "windowed.h"

#include "engine/context.h"
#include "engine/frames.h"
#include "engine/gpu_timer.h"
#include "engine/renderer.h"
#include "engine/swapchain.h"
#include "engine/window.h"

#include <algorithm>
#include <cstdio>

namespace demo {
namespace {

constexpr uint32_t kFramesInFlight = 2;

bool renderable(VkExtent2D e) { return e.width >= engine::kMinResolution && e.height >= engine::kMinResolution; }

engine::RendererDesc rendererDesc(const Options& o, VkExtent2D extent) {
    engine::RendererDesc d;
    d.outputWidth = std::min(extent.width, engine::kMaxResolution);
    d.outputHeight = std::min(extent.height, engine::kMaxResolution);
    d.renderScale = o.renderScale;
    d.upscale = o.mode;
    d.shadows = o.shadows;
    d.shadowSamples = o.shadowSamples;
    d.lighting = o.lighting;
    return d;
}

struct WindowedApp {
    const Options& o;
    engine::Window window;
    engine::Context ctx;
    engine::Surface surface;  // after ctx: destroyed before the instance
    engine::GpuTimer timer;
    engine::Swapchain swapchain;
    engine::Renderer renderer;
    engine::Frames frames;  // last: destroyed first, waiting for the GPU before anything it uses goes

    static engine::ContextDesc contextDesc(const Options& o) {
        engine::ContextDesc d;
        d.applicationName = "upscale_demo";
        d.validation = o.validation;
        d.deviceIndex = o.device;
        d.instanceExtensions = engine::Window::requiredInstanceExtensions();
        d.deviceExtensions = {engine::Swapchain::requiredDeviceExtension()};
        return d;
    }

    explicit WindowedApp(const Options& options)
        : o(options),
          window("upscale_demo", o.width, o.height),
          ctx(contextDesc(o)),
          surface(window.createSurface(ctx.instance())),
          timer(ctx, {.framesInFlight = kFramesInFlight}),
          swapchain(ctx, surface.handle(), window.framebufferExtent(), kFramesInFlight),
          renderer(ctx, rendererDesc(o, swapchain.extent())),
          frames(ctx, {.framesInFlight = kFramesInFlight}) {
        buildGraph();
    }

    void buildGraph() {
        renderer.build({.headless = false, .format = swapchain.format(), .channels = 0, .framesInFlight = kFramesInFlight});
    }

    // Waits for in-flight frames (never the whole device), then swapchain + graph at the new size.
    void recreate() {
        window.waitWhileMinimized();
        frames.waitIdle();
        swapchain.recreate(window.framebufferExtent());
        if (!renderable(swapchain.extent())) return;
        renderer.resize(std::min(swapchain.extent().width, engine::kMaxResolution), std::min(swapchain.extent().height, engine::kMaxResolution));
        buildGraph();
        std::printf("resized to %ux%u (render %ux%u)\n", swapchain.extent().width, swapchain.extent().height,
                    renderer.renderExtent().width, renderer.renderExtent().height);
    }

    // Returns false when the frame could not be rendered (swapchain out of date).
    bool renderFrame(uint32_t index) {
        engine::Frame& f = frames.beginFrame();
        std::optional<engine::SwapchainImage> image = swapchain.acquire(f.slot);
        if (!image) {
            frames.endFrame();  // submits the empty command buffer so the slot's fence still signals
            return false;
        }
        timer.beginFrame(f.cmd, f.slot);
        renderer.record(f.cmd, f.slot, engine::FrameParams::onPath(o.path, index, o.fps, o.startTime), &timer, image->image, image->view);
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
        uint32_t presented = 0;
        bool resizeRequested = false;
        while (!window.shouldClose() && (o.frames == 0 || presented < o.frames)) {
            window.pollEvents();
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
            if (renderFrame(presented)) ++presented;
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

void runWindowed(const Options& options) {
    WindowedApp app(options);
    app.run();
}

}  // namespace demo
