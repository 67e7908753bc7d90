// effects::Upscaler: TAAU and the temporal ML upscaler (the single-frame network lives in
// single_frame_upscaler.cpp). Passes (shaders/effects/):
//   taau_resolve   display res  reprojection (nearest-depth motion, depth-test confidence, this
//                               frame's linear depth: upscaler_current.glsl) + history clip +
//                               jittered-sample accumulation
//   ml_features -> network -> ml_resolve   (MlTemporal instead of taau_resolve; the features
//                               pass reprojects as taau_resolve does)
//   sharpen        display res  optional RCAS-style sharpening into the output
#include "effects/upscaler.h"

#include "format_names.h"
#include "mlplugin/mlplugin.h"
#include "network_effect.h"
#include "single_frame_upscaler.h"
#include "step_scope.h"
#include "temporal_network.h"
#include "upscaler_shared.h"
#include "vulkan_api.h"

#include <effects_shaders.h>
#include <vkutil/barrier.h>
#include <vkutil/create_info.h>
#include <vkutil/descriptors.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

namespace effects {
namespace {

using namespace detail;
static_assert(sizeof(gpu::ResolvePush) == 124 && sizeof(gpu::ResolvePush) <= 128, "every Vulkan device offers 128 bytes of push constants");
static_assert(offsetof(gpu::ResolvePush, depthTolerance) == 68 && offsetof(gpu::ResolvePush, prevRenderSize) == 72 &&
              offsetof(gpu::ResolvePush, depthTexelSize) == 104 && offsetof(gpu::ResolvePush, depthOwnerScale) == 112 &&
              offsetof(gpu::ResolvePush, movingHistoryWeight) == 120,
              "the GLSL block's std430 offsets");

constexpr uint32_t kGroup = 8;
uint32_t groups(uint32_t n) { return (n + kGroup - 1) / kGroup; }
uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

// Tuning of the hand-written resolve, chosen on the training camera paths (orbit, fence_walk,
// low_sweep at 320x192, 2x; docs/EFFECTS.md has the sweep): mean PSNR against the 16-sample
// reference moved by at most 0.2 dB across the settings tried; sharpening lowered it.
constexpr float kMaxHistoryWeight = 16.0f;  // ~ the samples of 40 frames at 2x, for still pixels; moving
                                            // ones: gpu::TAAU_MOVING_HISTORY_WEIGHT
constexpr float kClampGammaMoving = 2.0f;
constexpr float kClampGammaStatic = 4.0f;   // static content: the depth test guards disocclusion
constexpr float kNarrowFalloff = 4.0f;      // sigma 0.35 display pixel: close to the box filter
constexpr float kDepthTolerance = 0.05f;

// The model's metadata key for the largest render / display width ratio it was trained at: the
// ratio feature is clamped to it, so a render size closer to the display than any training ratio
// (1x, native anti-aliasing) feeds the network a value it has seen (docs/EFFECTS.md).
constexpr const char* kRatioFeatureMaxKey = "vkml.ratio_feature_max";
// The model's metadata key for the accumulating resolve: its value caps the history's accumulated
// sample weight. Without it the resolve blends (shaders/effects/ml_resolve.comp has both).
constexpr const char* kHistoryWeightCapKey = "vkml.history_weight_cap";
// The model's metadata key for the Catmull-Rom history fetch its history features were trained
// with: "9" (all nine bilinear taps, the default) or "5" (the corners dropped and the rest
// renormalised, as the TAAU resolve fetches: 0.020 ms less at 4K on an H200, bench/RESULTS.md).
constexpr const char* kHistoryTapsKey = "vkml.history_taps";
// The model's metadata key for the accumulated sample weight a moving pixel's history keeps at
// most, as the TAAU resolve caps it (gpu::TAAU_MOVING_HISTORY_WEIGHT): the feature pass then caps
// the history state it hands the network (ml_features.comp, MOVING_HISTORY_CAP). Accumulating
// resolve only, at most its "vkml.history_weight_cap".
constexpr const char* kMovingHistoryWeightKey = "vkml.moving_history_weight";

// The history fetch a model names (9 taps when it names none).
Result<uint32_t> historyTapsMetadata(const Network& network, const std::string& who) {
    auto it = network.metadata().find(kHistoryTapsKey);
    if (it == network.metadata().end()) return 9u;
    if (it->second == "9") return 9u;
    if (it->second == "5") return 5u;
    return Error{ErrorCode::InvalidModel,
                 who + ": the model's metadata '" + kHistoryTapsKey + "' is '" + it->second + "'; expected 9 or 5 (the history fetch's taps)",
                 VK_SUCCESS};
}

// A positive number from the model's metadata; `absent` when the model names none.
Result<float> positiveMetadata(const Network& network, const char* key, const char* meaning, float absent, const std::string& who) {
    auto it = network.metadata().find(key);
    if (it == network.metadata().end()) return absent;
    const std::string& text = it->second;
    float value = 0.0f;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value <= 0.0f)
        return Error{ErrorCode::InvalidModel,
                     who + ": the model's metadata '" + key + "' is '" + text + "'; expected a positive number (" + meaning + ")", VK_SUCCESS};
    return value;
}

std::span<const uint32_t> taauResolveShader(VkFormat f) {
    switch (f) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: return shaders::taau_resolve_rgba32f();
    case VK_FORMAT_R8G8B8A8_UNORM: return shaders::taau_resolve_rgba8();
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return shaders::taau_resolve_rgb10_a2();
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return shaders::taau_resolve_r11f_g11f_b10f();
    default: return shaders::taau_resolve_rgba16f();
    }
}
std::span<const uint32_t> sharpenShader(VkFormat f) {
    switch (f) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: return shaders::sharpen_rgba32f();
    case VK_FORMAT_R8G8B8A8_UNORM: return shaders::sharpen_rgba8();
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return shaders::sharpen_rgb10_a2();
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return shaders::sharpen_r11f_g11f_b10f();
    default: return shaders::sharpen_rgba16f();
    }
}
std::span<const uint32_t> mlResolveShader(VkFormat f, bool fp16) {
    switch (f) {
    case VK_FORMAT_R32G32B32A32_SFLOAT: return fp16 ? shaders::ml_resolve_rgba32f_f16() : shaders::ml_resolve_rgba32f_f32();
    case VK_FORMAT_R8G8B8A8_UNORM: return fp16 ? shaders::ml_resolve_rgba8_f16() : shaders::ml_resolve_rgba8_f32();
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32: return fp16 ? shaders::ml_resolve_rgb10_a2_f16() : shaders::ml_resolve_rgb10_a2_f32();
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32:
        return fp16 ? shaders::ml_resolve_r11f_g11f_b10f_f16() : shaders::ml_resolve_r11f_g11f_b10f_f32();
    default: return fp16 ? shaders::ml_resolve_rgba16f_f16() : shaders::ml_resolve_rgba16f_f32();
    }
}

// Channel (dy * r + dx) * c + k of a pixel-major tensor holds the model's channel k * r * r + dy * r + dx.
std::vector<uint32_t> pixelMajorOrder(uint32_t c, uint32_t r) {
    std::vector<uint32_t> order(size_t(c) * r * r);
    for (uint32_t sub = 0; sub < r * r; ++sub)
        for (uint32_t k = 0; k < c; ++k) order[sub * c + k] = k * r * r + sub;
    return order;
}

constexpr VkDescriptorType kSampled = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
constexpr VkDescriptorType kStorageImage = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
constexpr VkDescriptorType kStorageBuffer = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
// colour, depth, motion, previous linear depth, previous history, reactive, linear depth (storage), then the pass's outputs
constexpr VkDescriptorType kResolveBindings[] = {kSampled, kSampled, kSampled, kSampled, kSampled, kSampled, kStorageImage, kStorageImage, kStorageImage};
constexpr VkDescriptorType kSharpenBindings[] = {kSampled, kStorageImage};
constexpr VkDescriptorType kFeatureBindings[] = {kSampled, kSampled, kSampled, kSampled, kSampled, kSampled, kStorageImage, kStorageBuffer};
constexpr VkDescriptorType kMlResolveBindings[] = {kStorageBuffer, kStorageBuffer, kStorageImage, kStorageImage};

// The descriptor writes of one set, binding after binding (vkutil::DescriptorWrites).
class SetWriter {
public:
    explicit SetWriter(VkDescriptorSet set) : writes_(set) {}
    SetWriter& image(VkDescriptorType type, VkImageView view, VkImageLayout layout, VkSampler sampler = VK_NULL_HANDLE) {
        writes_.image(writes_.count(), type, {sampler, view, layout});
        return *this;
    }
    SetWriter& buffer(VkBuffer b) {
        writes_.buffer(writes_.count(), kStorageBuffer, {b, 0, VK_WHOLE_SIZE});
        return *this;
    }
    void write(const VulkanApi& vk) const { writes_.update(vk, vk.device); }

private:
    vkutil::DescriptorWrites writes_;
};

class TemporalUpscaler final : public Upscaler {
public:
    TemporalUpscaler(const UpscalerDesc& desc, VulkanApi vk, std::vector<uint8_t> model)
        : desc_(desc), vk_(vk), model_(std::move(model)) {
        desc_.modelBytes = model_;  // the desc keeps no pointer into the caller's memory
        desc_.modelPath.clear();
    }
    ~TemporalUpscaler() override;

    Status init();
    const UpscalerDesc& desc() const override { return desc_; }
    EffectRequirements requirements() const override;
    bool usesFp16() const override { return network_ && network_->fp16(); }
    bool usesTensorCores() const override { return network_ && network_->tensorCores(); }
    Status recordInitialization(VkCommandBuffer cmd) override;
    Status record(VkCommandBuffer cmd, const UpscalerInputs& inputs) override;
    Status resize(VkExtent2D displaySize) override;

private:
    bool ml() const { return desc_.mode == UpscalerMode::MlTemporal; }
    bool sharpening() const { return desc_.sharpness > 0.0f; }
    Status createPipelines();
    Status createDescriptors();
    Status createDisplayResources();
    void recordImageInitialization(VkCommandBuffer cmd);
    void writeSets(uint32_t slot, uint32_t parity, const UpscalerInputs& in);
    void releaseRetired(bool all);

    struct FrameSets {
        VkDescriptorSet resolve = VK_NULL_HANDLE, sharpen = VK_NULL_HANDLE, features = VK_NULL_HANDLE, mlResolve = VK_NULL_HANDLE;
        std::array<VkImageView, 5> views{};  // color, depth, motion, reactive, output as last written
        bool written = false;
    };
    // What a resize replaced, destroyed once the frames that may use it have completed.
    struct Retired {
        uint64_t releaseAtFrame = 0;
        std::vector<GpuImage> images;
        std::unique_ptr<Network> network;
    };

    UpscalerDesc desc_;
    VulkanApi vk_;
    std::vector<uint8_t> model_;
    MemoryTally tally_;
    std::unique_ptr<mlplugin::Device> mlDevice_;
    std::unique_ptr<Network> network_;
    ComputePipeline resolve_, sharpen_, features_, mlResolve_;
    VkSampler nearest_ = VK_NULL_HANDLE, linear_ = VK_NULL_HANDLE;
    vkutil::DescriptorPool pool_;
    std::vector<std::array<FrameSets, 2>> sets_;  // [frame slot][frame parity]
    GpuImage linearDepth_[2], history_[2], blackTexel_;
    std::vector<VkImage> uninitialized_;  // effect images still in layout UNDEFINED
    std::vector<Retired> retired_;
    VkExtent2D tensorSize_{};
    uint32_t unshuffle_ = 2;  // ML: the tensors' space-to-depth factor, read off the model
    float ratioFeatureMax_ = std::numeric_limits<float>::max();  // ML: from the model's metadata (max: no clamp)
    float historyWeightCap_ = 0.0f;  // ML: from the model's metadata (0: the blend resolve)
    uint32_t historyTaps_ = 9;       // ML: from the model's metadata (the feature pass's history fetch)
    float movingHistoryWeight_ = 0.0f;  // ML: from the model's metadata (0: the feature pass caps no moving pixel)
    uint64_t frameCount_ = 0;
    bool initialized_ = false;
    bool historyValid_ = false;
    VkExtent2D prevRenderSize_{};
    float prevJitter_[2] = {0, 0};
};

TemporalUpscaler::~TemporalUpscaler() {
    releaseRetired(true);
    network_.reset();
    for (GpuImage* img : {&linearDepth_[0], &linearDepth_[1], &history_[0], &history_[1], &blackTexel_}) img->destroy(vk_);
    for (ComputePipeline* p : {&resolve_, &sharpen_, &features_, &mlResolve_}) p->destroy(vk_);
    pool_.destroy();
    if (nearest_) vk_.vkDestroySampler(vk_.device, nearest_, nullptr);
    if (linear_) vk_.vkDestroySampler(vk_.device, linear_, nullptr);
}

Status TemporalUpscaler::init() {
    for (auto [sampler, filter] : {std::pair{&nearest_, VK_FILTER_NEAREST}, std::pair{&linear_, VK_FILTER_LINEAR}}) {
        if (VkResult r = vkutil::createSampler(vk_, vk_.device, filter, sampler); r != VK_SUCCESS)
            return vkFailure(r, "upscaler: creating a sampler");
    }
    if (ml()) {
        MLP_TRY(take(createPluginDevice(desc_.device, "upscaler (ml-temporal)"), mlDevice_));
    }
    const VkExtent2D render = desc_.maxRenderSize;
    MLP_TRY(take(createImage(vk_, VK_FORMAT_R32_SFLOAT, render, "linear depth", tally_), linearDepth_[0]));
    MLP_TRY(take(createImage(vk_, VK_FORMAT_R32_SFLOAT, render, "linear depth", tally_), linearDepth_[1]));
    MLP_TRY(take(createImage(vk_, VK_FORMAT_R8_UNORM, {1, 1}, "black texel", tally_), blackTexel_));
    for (const GpuImage* img : {&linearDepth_[0], &linearDepth_[1], &blackTexel_}) uninitialized_.push_back(img->image);
    MLP_TRY(createDisplayResources());
    MLP_TRY(createPipelines());
    MLP_TRY(createDescriptors());
    return {};
}

// Everything sized by the display: the history pair and (ML) the network with its tensors.
Status TemporalUpscaler::createDisplayResources() {
    for (GpuImage& h : history_) {
        MLP_TRY(take(createImage(vk_, VK_FORMAT_R16G16B16A16_SFLOAT, desc_.displaySize, "history", tally_), h));
        uninitialized_.push_back(h.image);
    }
    if (!ml()) return {};
    const mlplugin::Capabilities& caps = mlDevice_->capabilities();
    const bool fp16 = desc_.preferFp16 && caps.fp16Storage && caps.fp16Arithmetic;
    // The model says how far its tensors are unshuffled: try r = 4, 2, 1 (the channel counts differ).
    Error lastError;
    for (uint32_t r : {4u, 2u, 1u}) {
        const uint32_t align = 4 * r;
        tensorSize_ = {alignUp(desc_.displaySize.width, align), alignUp(desc_.displaySize.height, align)};
        NetworkDesc nd;
        nd.who = "upscaler (ml-temporal)";
        nd.onnx = model_;
        nd.inputs = {{"features", {1, r * r * gpu::ML_FEATURES, tensorSize_.height / r, tensorSize_.width / r}}};
        nd.outputs = {{"params", {1, r * r * gpu::ML_PARAMS, tensorSize_.height / r, tensorSize_.width / r}}};
        nd.fp16 = fp16;
        // fp16 networks run on the tensor-core kernels where the device has them, which read and
        // write channels-last tensors fastest; the portable kernels take either layout.
        nd.channelsLast = fp16;
        if (nd.channelsLast && r > 1) {
            // Pixel-major (FLAG_TENSORS_PIXEL_MAJOR): each display pixel's values contiguous, so the
            // feature and resolve passes move them 16 bytes at a time instead of one scattered
            // 2-byte element each (H100, 4K: features 0.426 -> 0.345 ms).
            nd.inputs[0].channelOrder = pixelMajorOrder(gpu::ML_FEATURES, r);
            nd.outputs[0].channelOrder = pixelMajorOrder(gpu::ML_PARAMS, r);
        }
        nd.bundle = desc_.device.primaryCommandBuffers;
        auto network = Network::create(vk_, *mlDevice_, nd, tally_);
        if (network) {
            MLP_TRY(take(positiveMetadata(**network, kRatioFeatureMaxKey, "a render / display width ratio", std::numeric_limits<float>::max(), nd.who),
                         ratioFeatureMax_));
            MLP_TRY(take(positiveMetadata(**network, kHistoryWeightCapKey, "a sample weight", 0.0f, nd.who), historyWeightCap_));
            MLP_TRY(take(historyTapsMetadata(**network, nd.who), historyTaps_));
            MLP_TRY(take(positiveMetadata(**network, kMovingHistoryWeightKey, "a sample weight", 0.0f, nd.who), movingHistoryWeight_));
            if (movingHistoryWeight_ > 0.0f && !(movingHistoryWeight_ <= historyWeightCap_)) {
                const auto& meta = (*network)->metadata();
                return Error{ErrorCode::InvalidModel,
                             nd.who + ": the model's metadata '" + kMovingHistoryWeightKey + "' is '" + meta.at(kMovingHistoryWeightKey) + "', " +
                                 (historyWeightCap_ > 0.0f ? "above its '" + std::string(kHistoryWeightCapKey) + "' '" + meta.at(kHistoryWeightCapKey) + "'"
                                                           : "but it names no '" + std::string(kHistoryWeightCapKey) + "' (the moving cap needs the accumulating resolve)"),
                             VK_SUCCESS};
            }
            network_ = std::move(*network);
            unshuffle_ = r;
            return {};
        }
        lastError = network.error();
        if (lastError.code != ErrorCode::InvalidModel || lastError.message.find("does not fit the effect's contract") == std::string::npos)
            return lastError;  // a broken model, not another unshuffle factor
    }
    return Error{ErrorCode::InvalidModel, lastError.message + " (tried unshuffle factors 4, 2 and 1: input 'features' [1, 16 r^2, h, w])",
                 VK_SUCCESS};
}

Status TemporalUpscaler::createPipelines() {
    const uint32_t push = sizeof(gpu::ResolvePush);
    if (sharpening())
        MLP_TRY(take(createComputePipeline(vk_, sharpenShader(desc_.outputFormat), kSharpenBindings, push, "sharpen"), sharpen_));
    if (!ml()) return take(createComputePipeline(vk_, taauResolveShader(desc_.outputFormat), kResolveBindings, push, "TAAU resolve"), resolve_);
    const bool fp16 = network_->fp16();
    // The feature pass as the model's metadata builds it: [moving pixels' cap][5-tap history fetch][fp16 tensors].
    using Shader = std::span<const uint32_t> (*)();
    static constexpr Shader kFeatureShaders[2][2][2] = {
        {{shaders::ml_features_f32, shaders::ml_features_f16}, {shaders::ml_features_5tap_f32, shaders::ml_features_5tap_f16}},
        {{shaders::ml_features_moving_f32, shaders::ml_features_moving_f16}, {shaders::ml_features_5tap_moving_f32, shaders::ml_features_5tap_moving_f16}}};
    const Shader featureShader = kFeatureShaders[movingHistoryWeight_ > 0.0f][historyTaps_ == 5][fp16];
    MLP_TRY(take(createComputePipeline(vk_, featureShader(), kFeatureBindings, push, "ML features"), features_));
    return take(createComputePipeline(vk_, mlResolveShader(desc_.outputFormat, fp16), kMlResolveBindings, push, "ML resolve"), mlResolve_);
}

Status TemporalUpscaler::createDescriptors() {
    const uint32_t groupsOfSets = desc_.framesInFlight * 2;
    const VkDescriptorPoolSize sizes[] = {{kSampled, 13 * groupsOfSets}, {kStorageImage, 7 * groupsOfSets}, {kStorageBuffer, 3 * groupsOfSets}};
    if (VkResult r = pool_.create(vk_, vk_.device, 4 * groupsOfSets, sizes); r != VK_SUCCESS)
        return vkFailure(r, "upscaler: creating the descriptor pool");
    sets_.resize(desc_.framesInFlight);
    auto allocate = [&](const ComputePipeline& p, VkDescriptorSet& set) -> Status {
        if (!p.setLayout) return {};
        if (VkResult r = pool_.allocate({&p.setLayout, 1}, &set); r != VK_SUCCESS)
            return vkFailure(r, "upscaler: allocating descriptor sets");
        return {};
    };
    for (auto& slot : sets_)
        for (FrameSets& f : slot) {
            MLP_TRY(allocate(resolve_, f.resolve));
            MLP_TRY(allocate(sharpen_, f.sharpen));
            MLP_TRY(allocate(features_, f.features));
            MLP_TRY(allocate(mlResolve_, f.mlResolve));
        }
    return {};
}

EffectRequirements TemporalUpscaler::requirements() const {
    EffectRequirements r;
    r.deviceLocalBytes = tally_.deviceLocalBytes;
    r.hostVisibleBytes = tally_.hostVisibleBytes;
    r.allocations = tally_.allocations;
    uint32_t perGroup = (ml() ? 2 : 1) + (sharpening() ? 1 : 0);
    r.descriptorSets = desc_.framesInFlight * 2 * perGroup + (network_ ? network_->descriptorSets() : 0);
    uint32_t descriptorsPerGroup = (ml() ? std::size(kFeatureBindings) + std::size(kMlResolveBindings) : std::size(kResolveBindings)) +
                                   (sharpening() ? std::size(kSharpenBindings) : 0);
    r.descriptors = desc_.framesInFlight * 2 * descriptorsPerGroup + (network_ ? network_->descriptorSets() * mlplugin::kDescriptorsPerSet : 0);
    return r;
}

// Effect images start in layout UNDEFINED: move them to GENERAL (where they stay) and clear them,
// so that nothing ever reads undefined memory.
void TemporalUpscaler::recordImageInitialization(VkCommandBuffer cmd) {
    if (uninitialized_.empty()) return;
    std::vector<VkImageMemoryBarrier2> barriers;
    for (VkImage image : uninitialized_)
        barriers.push_back(vkutil::imageBarrierInfo(image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL,
                                                    VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT));
    vkutil::imageBarriers(vk_, cmd, barriers);
    const VkClearColorValue zero{};
    const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    for (VkImage image : uninitialized_) vk_.vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
    vkutil::memoryBarrier(vk_, cmd, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                          VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    uninitialized_.clear();
}

Status TemporalUpscaler::recordInitialization(VkCommandBuffer cmd) {
    if (!cmd) return Error{ErrorCode::InvalidArgument, "upscaler: recordInitialization needs a command buffer", VK_SUCCESS};
    recordImageInitialization(cmd);
    if (network_ && !network_->initialized()) {
        MLP_TRY(network_->recordInitialization(cmd));
        computeBarrier(vk_, cmd);
    }
    initialized_ = true;
    historyValid_ = false;
    return {};
}

void TemporalUpscaler::writeSets(uint32_t slot, uint32_t parity, const UpscalerInputs& in) {
    FrameSets& f = sets_[slot][parity];
    const std::array<VkImageView, 5> views{in.color.view, in.depth.view, in.motion.view, in.reactive.view, in.output.view};
    if (f.written && views == f.views) return;
    const VkImageLayout general = VK_IMAGE_LAYOUT_GENERAL;
    const GpuImage &curDepth = linearDepth_[parity], &prevDepth = linearDepth_[1 - parity];
    const GpuImage &curHistory = history_[parity], &prevHistory = history_[1 - parity];
    VkImageView reactive = in.reactive.view ? in.reactive.view : blackTexel_.view;
    VkImageLayout reactiveLayout = in.reactive.view ? in.reactive.layout : general;
    // The bindings both display passes start with (upscaler_current.glsl).
    auto reprojectionInputs = [&](SetWriter&& w) -> SetWriter&& {
        w.image(kSampled, in.color.view, in.color.layout, nearest_)
            .image(kSampled, in.depth.view, in.depth.layout, nearest_)
            .image(kSampled, in.motion.view, in.motion.layout, nearest_)
            .image(kSampled, prevDepth.view, general, nearest_)
            .image(kSampled, prevHistory.view, general, linear_)
            .image(kSampled, reactive, reactiveLayout, nearest_)
            .image(kStorageImage, curDepth.view, general);
        return std::move(w);
    };
    if (ml()) {
        reprojectionInputs(SetWriter(f.features)).buffer(network_->input(0).buffer).write(vk_);
        SetWriter(f.mlResolve)
            .buffer(network_->input(0).buffer)
            .buffer(network_->output(0).buffer)
            .image(kStorageImage, curHistory.view, general)
            .image(kStorageImage, in.output.view, general)
            .write(vk_);
    } else {
        reprojectionInputs(SetWriter(f.resolve)).image(kStorageImage, curHistory.view, general).image(kStorageImage, in.output.view, general).write(vk_);
    }
    if (sharpening())
        SetWriter(f.sharpen).image(kSampled, curHistory.view, general, nearest_).image(kStorageImage, in.output.view, general).write(vk_);
    f.views = views;
    f.written = true;
}

Status TemporalUpscaler::record(VkCommandBuffer cmd, const UpscalerInputs& in) {
    if (!cmd) return Error{ErrorCode::InvalidArgument, "upscaler: record needs a command buffer", VK_SUCCESS};
    if (!initialized_) return Error{ErrorCode::InvalidArgument, "upscaler: record recordInitialization() once before the first record()", VK_SUCCESS};
    MLP_TRY(validateUpscalerInputs(desc_, in));
    releaseRetired(false);
    recordImageInitialization(cmd);
    if (network_ && !network_->initialized()) MLP_TRY(network_->recordInitialization(cmd));
    const uint32_t parity = uint32_t(frameCount_ & 1u);
    writeSets(in.frameSlot, parity, in);
    const FrameSets& f = sets_[in.frameSlot][parity];
    const bool historyValid = historyValid_ && !in.reset;

    // The previous frame's writes to the effect's images (and its reads, before they are overwritten).
    computeBarrier(vk_, cmd);
    uint32_t flags = 0;
    if (desc_.flags & UpscalerFlagColorSrgb) flags |= gpu::FLAG_COLOR_SRGB;
    if (desc_.flags & UpscalerFlagHdr) flags |= gpu::FLAG_HDR;
    if (desc_.flags & UpscalerFlagDepthInverted) flags |= gpu::FLAG_DEPTH_INVERTED;
    if (in.reactive.view) flags |= gpu::FLAG_HAS_REACTIVE;
    if (historyValid) flags |= gpu::FLAG_HISTORY_VALID;

    gpu::ResolvePush pc{};
    pc.renderSize = {in.renderSize.width, in.renderSize.height};
    pc.displaySize = {desc_.displaySize.width, desc_.displaySize.height};
    pc.jitter = {in.jitterX, in.jitterY};
    pc.exposure = in.exposure;
    pc.flags = flags | (sharpening() ? 0u : gpu::FLAG_WRITE_OUTPUT) | (network_ && network_->channelsLast() ? gpu::FLAG_TENSORS_NHWC : 0u) |
               (network_ && network_->channelsReordered() ? gpu::FLAG_TENSORS_PIXEL_MAJOR : 0u) |
               (network_ && historyWeightCap_ > 0.0f ? gpu::FLAG_ML_ACCUMULATE : 0u);
    pc.depthTolerance = kDepthTolerance;
    pc.prevRenderSize = historyValid ? gpu::uvec2{prevRenderSize_.width, prevRenderSize_.height} : pc.renderSize;
    pc.prevJitter = {prevJitter_[0], prevJitter_[1]};
    pc.motionScale = {in.motionScaleX, in.motionScaleY};
    pc.cameraNear = in.cameraNear;
    pc.cameraFar = in.cameraFar;
    pc.depthTexelSize = {1.0f / float(desc_.maxRenderSize.width), 1.0f / float(desc_.maxRenderSize.height)};
    // ceil(render * 65536 / display): which workgroup writes which render pixel's linear depth
    // (upscaler_current.glsl, ownedRenderPixel); at most 65536 since the render size is at most the display's.
    auto ownerScale = [](uint32_t render, uint32_t display) { return uint32_t((uint64_t(render) * 65536u + display - 1) / display); };
    pc.depthOwnerScale = {ownerScale(in.renderSize.width, desc_.displaySize.width), ownerScale(in.renderSize.height, desc_.displaySize.height)};
    pc.maxHistoryWeight = network_ && historyWeightCap_ > 0.0f ? historyWeightCap_ : kMaxHistoryWeight;
    pc.movingHistoryWeight = network_ ? movingHistoryWeight_ : gpu::TAAU_MOVING_HISTORY_WEIGHT;
    pc.clampGammaMoving = kClampGammaMoving;
    pc.clampGammaStatic = kClampGammaStatic;
    pc.narrowFalloff = kNarrowFalloff;
    pc.sharpness = desc_.sharpness;
    pc.tensorWidth = tensorSize_.width;
    pc.tensorHeight = tensorSize_.height;
    pc.tensorUnshuffle = unshuffle_;
    pc.ratioFeatureMax = ratioFeatureMax_;
    auto dispatch = [&](const ComputePipeline& p, VkDescriptorSet set, VkExtent2D extent) {
        vk_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
        vk_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
        vk_.vkCmdPushConstants(cmd, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(pc), &pc);
        vk_.vkCmdDispatch(cmd, groups(extent.width), groups(extent.height), 1);
    };
    if (ml()) {
        {
            detail::StepScope step(in.steps, cmd, "ml_features");
            dispatch(features_, f.features, tensorSize_);
        }
        computeBarrier(vk_, cmd);
        {
            detail::StepScope step(in.steps, cmd, "network");
            MLP_TRY(network_->record(cmd));
        }
        computeBarrier(vk_, cmd);
        detail::StepScope step(in.steps, cmd, "ml_resolve");
        dispatch(mlResolve_, f.mlResolve, desc_.displaySize);
    } else {
        detail::StepScope step(in.steps, cmd, "taau_resolve");
        dispatch(resolve_, f.resolve, desc_.displaySize);
    }
    if (sharpening()) {
        computeBarrier(vk_, cmd);
        detail::StepScope step(in.steps, cmd, "sharpen");
        dispatch(sharpen_, f.sharpen, desc_.displaySize);
    }
    prevRenderSize_ = in.renderSize;
    prevJitter_[0] = in.jitterX;
    prevJitter_[1] = in.jitterY;
    historyValid_ = true;
    ++frameCount_;
    return {};
}

Status TemporalUpscaler::resize(VkExtent2D displaySize) {
    UpscalerDesc next = desc_;
    next.displaySize = displaySize;
    MLP_TRY(validateUpscalerDesc(next));
    if (displaySize.width == desc_.displaySize.width && displaySize.height == desc_.displaySize.height) return {};
    Retired old;
    old.releaseAtFrame = frameCount_ + desc_.framesInFlight;
    old.images = {history_[0], history_[1]};
    old.network = std::move(network_);
    history_[0] = history_[1] = {};
    desc_.displaySize = displaySize;
    if (Status s = createDisplayResources(); !s) {
        retired_.push_back(std::move(old));
        return s;
    }
    retired_.push_back(std::move(old));
    // The pipelines do not depend on the size; every set points at new images or tensors.
    for (auto& slot : sets_)
        for (FrameSets& f : slot) f.written = false;
    historyValid_ = false;
    return {};
}

void TemporalUpscaler::releaseRetired(bool all) {
    for (auto it = retired_.begin(); it != retired_.end();) {
        if (all || frameCount_ >= it->releaseAtFrame) {
            for (GpuImage& img : it->images) {
                tally_.deviceLocalBytes -= img.bytes;
                --tally_.allocations;
                img.destroy(vk_);
            }
            if (it->network) {
                tally_.deviceLocalBytes -= it->network->deviceLocalBytes();
                tally_.hostVisibleBytes -= it->network->hostVisibleBytes();
                tally_.allocations -= it->network->allocations();
            }
            it = retired_.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace

Result<std::unique_ptr<Upscaler>> Upscaler::create(const UpscalerDesc& desc) {
    MLP_TRY(validateUpscalerDesc(desc));
    auto vk = loadVulkanApi(desc.device);
    if (!vk) return Error{vk.error().code, "upscaler: " + vk.error().message, vk.error().vkResult};
    MLP_TRY(checkStorageImageFormat(*vk, desc.outputFormat, std::string("upscaler (") + toString(desc.mode) + ")"));
    std::vector<uint8_t> model;
    if (!desc.modelPath.empty()) {
        auto bytes = readModelFile(desc.modelPath, std::string("upscaler (") + toString(desc.mode) + ")");
        if (!bytes) return bytes.error();
        model = std::move(*bytes);
    } else {
        model.assign(desc.modelBytes.begin(), desc.modelBytes.end());
    }
    if (desc.mode == UpscalerMode::MlSingleFrame) return detail::createSingleFrameUpscaler(desc, *vk, std::move(model));
    auto upscaler = std::make_unique<TemporalUpscaler>(desc, *vk, std::move(model));
    MLP_TRY(upscaler->init());
    return std::unique_ptr<Upscaler>(std::move(upscaler));
}

}  // namespace effects
