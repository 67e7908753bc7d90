#include "ml_models.h"

#include "options.h"

namespace demo {

std::string defaultUpscalerModel() { return VKML_DEFAULT_UPSCALER_MODEL; }
std::string defaultDenoiserModel() { return VKML_DEFAULT_DENOISER_MODEL; }
std::string defaultTemporalModel() { return VKML_DEFAULT_TEMPORAL_MODEL; }

bridge::EffectUpscalerDesc temporalUpscalerDesc(const Options& o, engine::DeferredDeletion* retire) {
    bridge::EffectUpscalerDesc d;
    d.mode = o.mlTemporal ? effects::UpscalerMode::MlTemporal : effects::UpscalerMode::Taau;
    if (o.mlTemporal) d.modelPath = o.temporalModel.empty() ? defaultTemporalModel() : o.temporalModel;
    d.sharpness = o.sharpness;
    d.debugChecks = o.validation;
    d.retire = retire;
    return d;
}

// The renderer's colour is display-linear and the networks were trained on sRGB: encode their
// colour input, decode their output.
bridge::MlPassDesc mlUpscalerDesc(const std::string& model) {
    bridge::MlPassDesc d;
    d.name = "ml_upscale";
    d.onnxPath = model.empty() ? defaultUpscalerModel() : model;
    d.inputs = {{.name = "color", .channels = {{.image = bridge::FrameImage::Color, .components = "rgb", .encoding = bridge::Encoding::Srgb}}}};
    d.output = {.encoding = bridge::Encoding::Srgb};
    return d;
}

std::string mlDenoiserExtentProblem(VkExtent2D e) {
    if (e.width % 4 == 0 && e.height % 4 == 0) return {};
    return "the ML denoiser needs a render resolution that is a multiple of 4 in both dimensions (its U-Net halves it "
           "twice); this one is " + std::to_string(e.width) + "x" + std::to_string(e.height);
}

bridge::MlPassDesc mlDenoiserDesc(const std::string& model) {
    using bridge::FrameImage;
    bridge::MlPassDesc d;
    d.name = "ml_denoise";
    d.onnxPath = model.empty() ? defaultDenoiserModel() : model;
    d.inputs = {{.name = "color", .channels = {{.image = FrameImage::Color, .components = "rgb", .encoding = bridge::Encoding::Srgb}}},
                {.name = "albedo", .channels = {{.image = FrameImage::Albedo, .components = "rgb"}}},
                {.name = "normal", .channels = {{.image = FrameImage::Normal, .components = "xyz"}}},
                {.name = "depth", .channels = {{.image = FrameImage::Depth, .components = "r"}}}};
    d.output = {.encoding = bridge::Encoding::Srgb};
    return d;
}

}  // namespace demo
