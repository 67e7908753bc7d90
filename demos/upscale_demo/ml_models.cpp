#include "ml_models.h"

#include "bridge/graph_session.h"
#include "bridge/pipeline_cache_file.h"
#include "options.h"

#include <cstdio>
#include <system_error>

namespace demo {

std::unique_ptr<mlplugin::Device> createMlDevice(engine::Context& ctx, const Options& o) {
    const std::vector<uint8_t> cache = o.pipelineCache.empty() ? std::vector<uint8_t>{} : bridge::readPipelineCacheFile(o.pipelineCache);
    std::unique_ptr<mlplugin::Device> device = bridge::createDevice(ctx, o.validation, cache);
    if (device->pipelineCacheOrigin() == mlplugin::PipelineCacheOrigin::Rejected)
        std::printf("pipeline cache: %s ignored, %s\n", o.pipelineCache.c_str(), device->pipelineCacheRejection().c_str());
    if (o.tuning) device->setTuningTable(o.tuning);
    return device;
}

void savePipelineCache(const mlplugin::Device& device, const Options& o) {
    if (!o.pipelineCache.empty()) bridge::writePipelineCacheFile(o.pipelineCache, device);
}

ModelLocation resolveModel(const std::string& given, const char* shipped) {
    if (given.empty()) return findModel(shipped, ModelSearch::fromProcess());
    std::error_code ec;
    if (!std::filesystem::exists(given, ec)) return {{}, "no model at " + given};
    return {given, {}};
}

bridge::EffectUpscalerDesc temporalUpscalerDesc(const Options& o, engine::DeferredDeletion* retire) {
    bridge::EffectUpscalerDesc d;
    d.mode = o.mlTemporal ? effects::UpscalerMode::MlTemporal : effects::UpscalerMode::Taau;
    if (o.mlTemporal) d.modelPath = o.temporalModel;  // main.cpp resolves the shipped one
    d.sharpness = o.sharpness;
    d.debugChecks = o.validation;
    d.retire = retire;
    d.tuning = o.tuning;
    // --ml-precision fp32 holds for the temporal network too (auto and fp16: fp16 where offered).
    d.preferFp16 = o.mlPrecision != mlplugin::DataType::Float32;
    return d;
}

// The renderer's colour is display-linear and the networks were trained on sRGB: encode their
// colour input, decode their output.
namespace {

void setPrecision(bridge::MlPassDesc& d, std::optional<mlplugin::DataType> precision) {
    d.dataType = precision;
    if (precision == mlplugin::DataType::Float16) d.compileFlags |= mlplugin::ExecutionFlagAllowHalfPrecisionComputation;
}

}  // namespace

bridge::MlPassDesc mlUpscalerDesc(const std::string& model, std::optional<mlplugin::DataType> precision) {
    bridge::MlPassDesc d;
    setPrecision(d, precision);
    d.name = "ml_upscale";
    d.onnxPath = model;
    d.inputs = {{.name = "color", .channels = {{.image = bridge::FrameImage::Color, .components = "rgb", .encoding = bridge::Encoding::Srgb}}}};
    d.output = {.encoding = bridge::Encoding::Srgb};
    return d;
}

std::string mlDenoiserExtentProblem(VkExtent2D e) {
    if (e.width % 4 == 0 && e.height % 4 == 0) return {};
    return "the ML denoiser needs a render resolution that is a multiple of 4 in both dimensions (its U-Net halves it "
           "twice); this one is " + std::to_string(e.width) + "x" + std::to_string(e.height);
}

bridge::MlPassDesc mlDenoiserDesc(const std::string& model, std::optional<mlplugin::DataType> precision) {
    using bridge::FrameImage;
    bridge::MlPassDesc d;
    setPrecision(d, precision);
    d.name = "ml_denoise";
    d.onnxPath = model;
    d.inputs = {{.name = "color", .channels = {{.image = FrameImage::Color, .components = "rgb", .encoding = bridge::Encoding::Srgb}}},
                {.name = "albedo", .channels = {{.image = FrameImage::Albedo, .components = "rgb"}}},
                {.name = "normal", .channels = {{.image = FrameImage::Normal, .components = "xyz"}}},
                {.name = "depth", .channels = {{.image = FrameImage::Depth, .components = "r"}}}};
    d.output = {.encoding = bridge::Encoding::Srgb};
    return d;
}

}  // namespace demo
