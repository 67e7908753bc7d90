#include "engine/renderer.h"

#include "engine/context.h"
#include "engine/error.h"
#include "renderer_internal.h"

#include <algorithm>
#include <cmath>

namespace engine {

const char* toString(UpscaleMode mode) {
    switch (mode) {
    case UpscaleMode::Native: return "native";
    case UpscaleMode::Bilinear: return "bilinear";
    case UpscaleMode::Bicubic: return "bicubic";
    }
    return "?";
}

const char* toString(ShadowMode mode) {
    switch (mode) {
    case ShadowMode::Off: return "off";
    case ShadowMode::Analytic: return "analytic";
    case ShadowMode::Stochastic: return "stochastic";
    }
    return "?";
}

const char* toString(DenoiseMode mode) {
    switch (mode) {
    case DenoiseMode::Off: return "off";
    case DenoiseMode::Atrous: return "atrous";
    }
    return "?";
}

static_assert(sizeof(gpu::GBufferPush) == 128, "the G-buffer push constants must fit the guaranteed 128 bytes");

float textureLodBiasForUpscale(uint32_t renderWidth, uint32_t displayWidth) {
    if (renderWidth == 0 || displayWidth == 0 || renderWidth >= displayWidth) return 0.0f;
    return float(std::log2(double(renderWidth) / double(displayWidth)));
}

FrameParams FrameParams::onPath(const CameraPath& path, uint32_t frameIndex, float fps, float startTime) {
    FrameParams p;
    // The previous frame's time exactly as that frame computed it: consecutive frames then tile
    // the timeline with (previous, t] intervals, so every cut is reported on exactly one frame.
    float t = startTime + float(frameIndex) / fps;
    float previous = frameIndex == 0 ? t : startTime + float(frameIndex - 1) / fps;
    p.camera = path.pose(t);
    p.cameraCut = frameIndex == 0 || path.cutBetween(previous, t);
    p.previousCamera = p.cameraCut ? p.camera : path.pose(previous);
    p.frameSeed = frameIndex;
    p.frameTimeSeconds = 1.0f / fps;
    return p;
}

FrameParams FrameParams::onPath(uint32_t path, uint32_t frameIndex, float fps, float startTime) {
    return onPath(CameraPath::builtIn(path), frameIndex, fps, startTime);
}

namespace {

void validate(const RendererDesc& d) {
    auto checkSize = [](const char* what, uint32_t v) {
        if (v < kMinResolution || v > kMaxResolution)
            throw Error(std::string("output ") + what + " " + std::to_string(v) + " is out of range [" +
                        std::to_string(kMinResolution) + ", " + std::to_string(kMaxResolution) + "]");
    };
    checkSize("width", d.outputWidth);
    checkSize("height", d.outputHeight);
    if (!(d.renderScale >= 0.1f && d.renderScale <= 2.0f))
        throw Error("render scale " + std::to_string(d.renderScale) + " is out of range [0.1, 2]");
    if (d.upscale != UpscaleMode::Native &&
        double(std::max(d.outputWidth, d.outputHeight)) * d.renderScale > double(kMaxResolution) + 0.5)
        throw Error("render resolution (output x render scale " + std::to_string(d.renderScale) + ") exceeds " +
                    std::to_string(kMaxResolution));
    if (d.shadows == ShadowMode::Stochastic && (d.shadowSamples < 1 || d.shadowSamples > 65536))
        throw Error("shadow samples " + std::to_string(d.shadowSamples) + " is out of range [1, 65536]");
}

void setViewportAndScissor(VkCommandBuffer cmd, VkExtent2D extent) {
    VkViewport viewport{0, 0, float(extent.width), float(extent.height), 0.0f, 1.0f};
    VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

uint32_t groups(uint32_t n) { return (n + 7) / 8; }

// Distinct ids for the descriptor cache.
enum PassId : uint32_t { kLightingPass, kUpscalePass, kEncodePass };

// RendererDesc::scene's default, built once per process.
const SceneGeometry& defaultScene() {
    static const SceneGeometry scene = buildDemoScene(0);
    return scene;
}

}  // namespace

Renderer::Impl::Impl(Context& c, const RendererDesc& d)
    : ctx(c), desc(d), pipelines(c), scene(c, d.scene ? *d.scene : defaultScene(), pipelines.gbuffer.setLayout),
      descriptors(c.device()), sceneOrigin(d.scene ? d.scene->origin : glm::dvec3(0.0)) {}


void Renderer::Impl::computeExtents() {
    outputExtent = {desc.outputWidth, desc.outputHeight};
    float scale = desc.upscale == UpscaleMode::Native ? 1.0f : desc.renderScale;
    auto scaled = [&](uint32_t v) { return std::max(1u, uint32_t(std::lround(double(v) * scale))); };
    renderExtent = {scaled(outputExtent.width), scaled(outputExtent.height)};
}

// Motion vectors in render pixels: the previous frame's clip position is mapped straight to
// pixels (x_pixel = (x_ndc + 1) * width / 2), and the fragment shader subtracts this frame's
// position, mapped the same way (gpu::GBufferPush). The previous projection carries this frame's
// jitter, so the jitter cancels out of the difference.
void Renderer::Impl::updateMotionMatrices() {
    glm::mat4 toPixels(1.0f);
    toPixels[0][0] = toPixels[3][0] = 0.5f * float(renderExtent.width);
    toPixels[1][1] = toPixels[3][1] = 0.5f * float(renderExtent.height);
    previousViewProjPixels = toPixels * previousCamera.viewProj;
    // Directions at infinity move with the camera's rotation only.
    auto rotationOnly = [](glm::mat4 view) {
        view[3] = glm::vec4(0, 0, 0, 1);
        return view;
    };
    skyReprojection = toPixels * previousCamera.proj * rotationOnly(previousCamera.view) *
                      glm::inverse(camera.proj * rotationOnly(camera.view));
}

void Renderer::Impl::addGBufferPass() {
    FrameGraph& g = *graph;
    const uint32_t w = renderExtent.width, h = renderExtent.height;
    stage.albedo = g.createImage("gbuffer.albedo", {kAlbedoFormat, w, h});
    stage.normal = g.createImage("gbuffer.normal", {kNormalFormat, w, h});
    stage.motion = g.createImage("gbuffer.motion", {kMotionFormat, w, h});
    stage.depth = g.createImage("gbuffer.depth", {kDepthFormat, w, h});
    PassDesc pass;
    pass.name = "gbuffer";
    pass.type = PassType::Graphics;
    pass.uses = {{stage.albedo, Access::ColorAttachmentWrite},
                 {stage.normal, Access::ColorAttachmentWrite},
                 {stage.motion, Access::ColorAttachmentWrite},
                 {stage.depth, Access::DepthAttachmentWrite}};
    // The background triangle writes every pixel the geometry left (depth still at the far
    // plane), so the colour attachments need no clear: on the H100 that clear was a measurable
    // part of a pass bound by per-pixel raster work (bench/RESULTS.md).
    pass.coversColor = true;
    pass.record = [this](PassContext& pc) {
        VkCommandBuffer cmd = pc.commandBuffer();
        setViewportAndScissor(cmd, renderExtent);
        const glm::vec2 pixelScale = 0.5f * glm::vec2(float(renderExtent.width), float(renderExtent.height));  // NDC + 1 -> pixels
        gpu::GBufferPush push{};
        push.viewProj = camera.viewProj;
        for (int row = 0; row < 3; ++row) {
            const int r = row == 2 ? 3 : row;  // x, y, w
            push.prevPixelsRows[row] = glm::vec4(previousViewProjPixels[0][r], previousViewProjPixels[1][r], previousViewProjPixels[2][r],
                                                 previousViewProjPixels[3][r]);
        }
        push.textureLodBias = frame.textureLodBias;
        push.pixelScale = pixelScale;
        vkCmdPushConstants(cmd, pipelines.gbuffer.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push), &push);
        VkBuffer vb = scene.vertices().handle();
        VkDeviceSize offset = 0;
        vkCmdBindVertexBuffers(cmd, 0, 1, &vb, &offset);
        vkCmdBindIndexBuffer(cmd, scene.indices().handle(), 0, VK_INDEX_TYPE_UINT32);
        // One draw per material (opaque ones first): the material's set, its cull mode, and the
        // alpha-tested pipeline from the first masked material on.
        VkPipeline bound = VK_NULL_HANDLE;
        for (const GpuScene::Draw& d : scene.draws()) {
            VkPipeline p = d.alphaMask ? pipelines.gbufferMasked.pipeline : pipelines.gbuffer.pipeline;
            if (p != bound) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, bound = p);
            vkCmdSetCullMode(cmd, d.doubleSided ? VK_CULL_MODE_NONE : VK_CULL_MODE_BACK_BIT);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.gbuffer.layout, 0, 1, &d.materialSet, 0, nullptr);
            vkCmdDrawIndexed(cmd, d.indexCount, 1, d.firstIndex, 0, 0);
        }
        // The background: a far-plane triangle where nothing was drawn, writing the motion of
        // directions at infinity (camera rotation only).
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.skyMotion.pipeline);
        gpu::SkyMotionPush sky{skyReprojection, pixelScale, {}};
        vkCmdPushConstants(cmd, pipelines.skyMotion.layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(sky), &sky);
        vkCmdDraw(cmd, 3, 1, 0, 0);
    };
    g.addPass(std::move(pass));
}

void Renderer::Impl::addLightingPass() {
    FrameGraph& g = *graph;
    // With a denoiser, lighting writes the noisy image and stage.color is the denoiser's output.
    ResourceHandle lit = g.createImage(denoising() ? "lit.noisy_color" : "lit.color", {kColorFormat, renderExtent.width, renderExtent.height});
    stage.color = lit;
    visibility = g.createImage("lit.sun_visibility", {kVisibilityFormat, renderExtent.width, renderExtent.height});
    PassDesc pass;
    pass.name = "lighting";
    pass.type = PassType::Compute;
    pass.uses = {{stage.depth, Access::SampledCompute},
                 {stage.albedo, Access::SampledCompute},
                 {stage.normal, Access::SampledCompute},
                 {lit, Access::StorageImageWrite},
                 {visibility, Access::StorageImageWrite}};
    pass.record = [this, lit](PassContext& pc) {
        VkCommandBuffer cmd = pc.commandBuffer();
        const VkImageLayout read = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        const DescriptorBinding bindings[] = {
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(stage.depth), pipelines.nearest, read},
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(stage.albedo), pipelines.nearest, read},
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(stage.normal), pipelines.nearest, read},
            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, pc.imageView(lit), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, pc.imageView(visibility), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED, scene.sceneData().handle()},
        };
        VkDescriptorSet set = descriptors.get(kLightingPass, pc.frameIndex(), pipelines.lighting.setLayout, bindings);
        gpu::LightingPush push{};
        push.invViewProj = camera.invViewProj;
        push.cameraPosition = glm::vec4(camera.position, 1.0f);
        push.width = renderExtent.width;
        push.height = renderExtent.height;
        push.shadowMode = desc.shadows == ShadowMode::Off        ? gpu::SHADOW_OFF
                          : desc.shadows == ShadowMode::Analytic ? gpu::SHADOW_ANALYTIC
                                                                 : gpu::SHADOW_STOCHASTIC;
        push.shadowSamples = desc.shadowSamples;
        push.frameSeed = frame.frameSeed;
        push.lightingEnabled = desc.lighting ? 1u : 0u;
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.lighting.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines.lighting.layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, pipelines.lighting.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatch(cmd, groups(renderExtent.width), groups(renderExtent.height), 1);
    };
    g.addPass(std::move(pass));
    if (!denoising()) return;
    DenoiseStage ds{lit, stage.albedo, stage.normal, stage.depth, kInvalidResource, renderExtent};
    ds.output = g.createImage("denoised.color", {kColorFormat, renderExtent.width, renderExtent.height});
    stage.color = ds.output;
    if (denoiser) denoiser(g, ds);
    else addDenoisePasses(ds);
}

void Renderer::Impl::addUpscalePass() {
    PassDesc pass;
    pass.name = std::string("upscale_") + toString(desc.upscale);
    pass.type = PassType::Compute;
    pass.uses = {{stage.color, Access::SampledCompute}, {stage.output, Access::StorageImageWrite}};
    pass.record = [this](PassContext& pc) {
        VkCommandBuffer cmd = pc.commandBuffer();
        const PipelineWithLayout& p = desc.upscale == UpscaleMode::Bicubic ? pipelines.upscaleBicubic : pipelines.upscaleBilinear;
        const DescriptorBinding bindings[] = {
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(stage.color), pipelines.linear, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, pc.imageView(stage.output), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
        };
        VkDescriptorSet set = descriptors.get(kUpscalePass, pc.frameIndex(), p.setLayout, bindings);
        gpu::UpscalePush push{renderExtent.width, renderExtent.height, outputExtent.width, outputExtent.height};
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatch(cmd, groups(outputExtent.width), groups(outputExtent.height), 1);
    };
    graph->addPass(std::move(pass));
}

void Renderer::Impl::addEncodePass() {
    if (target.headless) {
        targetImage = graph->createImage("target", {kHeadlessTargetFormat, outputExtent.width, outputExtent.height});
        addComputeEncodePass();
        return;
    }
    // The swapchain image: acquired with undefined contents (the acquire semaphore waits at
    // colour-attachment output, which the first barrier's source stage chains with), left
    // ready for presentation.
    targetImage = graph->importImage("swapchain", VK_NULL_HANDLE, VK_NULL_HANDLE, {target.format, outputExtent.width, outputExtent.height},
                                     {VK_IMAGE_LAYOUT_UNDEFINED, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_NONE},
                                     {VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE});
    pipelines.ensureEncodeFormat(target.format);
    PassDesc pass;
    pass.name = "encode";
    pass.type = PassType::Graphics;
    pass.uses = {{stage.output, Access::SampledFragment}, {targetImage, Access::ColorAttachmentWrite}};
    pass.record = [this](PassContext& pc) {
        VkCommandBuffer cmd = pc.commandBuffer();
        const DescriptorBinding bindings[] = {
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(stage.output), pipelines.nearest, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        };
        VkDescriptorSet set = descriptors.get(kEncodePass, pc.frameIndex(), pipelines.encode.setLayout, bindings);
        gpu::EncodePush push{isSrgb(target.format) ? 0u : 1u, 0, 0, 0};
        setViewportAndScissor(cmd, outputExtent);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.encode.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines.encode.layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, pipelines.encode.layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push), &push);
        vkCmdDraw(cmd, 3, 1, 0, 0);
    };
    graph->addPass(std::move(pass));
}

void Renderer::Impl::addComputeEncodePass() {
    PassDesc pass;
    pass.name = "encode";
    pass.type = PassType::Compute;
    pass.uses = {{stage.output, Access::SampledCompute}, {targetImage, Access::StorageImageWrite}};
    pass.record = [this](PassContext& pc) {
        VkCommandBuffer cmd = pc.commandBuffer();
        const PipelineWithLayout& p = pipelines.encodeCompute;
        const DescriptorBinding bindings[] = {
            {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, pc.imageView(stage.output), pipelines.nearest, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, pc.imageView(targetImage), VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL},
        };
        VkDescriptorSet set = descriptors.get(kEncodePass, pc.frameIndex(), p.setLayout, bindings);
        gpu::UpscalePush push{outputExtent.width, outputExtent.height, outputExtent.width, outputExtent.height};
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
        vkCmdDispatch(cmd, groups(outputExtent.width), groups(outputExtent.height), 1);
    };
    graph->addPass(std::move(pass));
}

Renderer::Renderer(Context& ctx, const RendererDesc& desc) {
    validate(desc);
    impl_ = std::make_unique<Impl>(ctx, desc);
    impl_->computeExtents();
}

Renderer::~Renderer() = default;

void Renderer::build(const TargetDesc& target) {
    Impl& r = *impl_;
    if (target.framesInFlight < 1 || target.framesInFlight > 8)
        throw Error("frames in flight " + std::to_string(target.framesInFlight) + " is out of range [1, 8]");
    if (!target.headless && target.format == VK_FORMAT_UNDEFINED)
        throw Error("a windowed target needs the swapchain's format (TargetDesc::format)");
    r.target = target;
    r.built = false;
    r.graph = std::make_unique<FrameGraph>(r.ctx);
    r.descriptors.reset();
    r.stage = {};
    r.stage.renderExtent = r.renderExtent;
    r.stage.outputExtent = r.outputExtent;
    r.stage.frame = &r.frame;

    r.addGBufferPass();
    r.addLightingPass();
    r.graph->addHook("after_lighting");
    r.graph->addHook("before_output");
    if (r.desc.upscale == UpscaleMode::Native && !r.upscaler) {
        r.stage.output = r.stage.color;  // nothing to resample
    } else {
        r.stage.output = r.graph->createImage("output", {kColorFormat, r.outputExtent.width, r.outputExtent.height});
        if (r.upscaler) r.upscaler(*r.graph, r.stage);
        else r.addUpscalePass();
    }
    r.graph->addHook("after_output");
    r.addEncodePass();
    r.graph->addHook("before_present");
    if (target.headless) r.addReadback(target.channels);
    for (const BuildHookFn& hook : r.buildHooks) hook(*r.graph, r.stage);
    r.graph->bake();
    r.built = true;
}

void Renderer::resize(uint32_t outputWidth, uint32_t outputHeight) {
    RendererDesc d = impl_->desc;
    d.outputWidth = outputWidth;
    d.outputHeight = outputHeight;
    validate(d);
    impl_->desc = d;
    impl_->computeExtents();
    impl_->built = false;  // the graph's images have the old size until build()
}

void Renderer::setUpscaler(UpscalerFn fn) {
    impl_->upscaler = std::move(fn);
    impl_->built = false;
}
void Renderer::setDenoiser(DenoiserFn fn) {
    impl_->denoiser = std::move(fn);
    impl_->built = false;
}
void Renderer::setDenoiseMode(DenoiseMode mode) {
    impl_->desc.denoise = mode;
    impl_->built = false;
}
void Renderer::setUpscaleMode(UpscaleMode mode) {
    RendererDesc d = impl_->desc;
    d.upscale = mode;
    validate(d);
    impl_->desc = d;
    impl_->computeExtents();
    impl_->built = false;
}
void Renderer::addBuildHook(BuildHookFn fn) {
    impl_->buildHooks.push_back(std::move(fn));
    impl_->built = false;
}

void Renderer::record(VkCommandBuffer cmd, uint32_t slot, const FrameParams& params, GpuTimer* timer,
                      VkImage targetImage, VkImageView targetView) {
    Impl& r = *impl_;
    if (!r.built) throw Error("Renderer::record: build() the renderer first (after construction and after every resize)");
    if (slot >= r.target.framesInFlight)
        throw Error("frame slot " + std::to_string(slot) + " is out of range (built for " +
                    std::to_string(r.target.framesInFlight) + " frames in flight)");
    r.frame = params;
    // Relative to the scene's origin, composed in double (camera.h): both frames' matrices, so
    // motion vectors stay right far from the world origin.
    r.camera = cameraMatrices(params.camera, r.renderExtent.width, r.renderExtent.height, params.jitterPixels, r.sceneOrigin);
    r.previousCamera = cameraMatrices(params.previousCamera, r.renderExtent.width, r.renderExtent.height, params.jitterPixels, r.sceneOrigin);
    r.updateMotionMatrices();
    if (!r.target.headless) {
        if (!targetImage || !targetView) throw Error("Renderer::record: a windowed target needs this frame's swapchain image and view");
        r.graph->rebindImportedImage(r.targetImage, targetImage, targetView);
    } else {
        r.graph->rebindImportedBuffer(r.frameReadback.buffer, r.frameReadback.slots[slot].handle());
        for (ReadbackImage& rb : r.channelReadbacks) r.graph->rebindImportedBuffer(rb.buffer, rb.slots[slot].handle());
    }
    r.graph->execute(cmd, slot, timer);
}

FrameReadback renderSingleFrame(Context& ctx, Renderer& renderer, const FrameParams& params, uint32_t channels) {
    TargetDesc target;
    target.headless = true;
    target.channels = channels;
    target.framesInFlight = 1;
    renderer.build(target);
    ctx.submitAndWait([&](VkCommandBuffer cmd) { renderer.record(cmd, 0, params); });
    return renderer.readback(0);
}

FrameGraph& Renderer::graph() {
    if (!impl_->graph) throw Error("Renderer::graph: no graph before the first build()");
    return *impl_->graph;
}
const RendererDesc& Renderer::desc() const { return impl_->desc; }
VkExtent2D Renderer::renderExtent() const { return impl_->renderExtent; }
VkExtent2D Renderer::outputExtent() const { return impl_->outputExtent; }

}  // namespace engine
