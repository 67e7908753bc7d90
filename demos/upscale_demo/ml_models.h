#pragma once
// The demo's networks as bridge::MlPass descriptions: the tensor contracts of the x2 upscaler
// and the denoiser trained by tools/train (docs/BRIDGE.md).
#include "bridge/effect_upscaler.h"
#include "bridge/ml_pass.h"

#include <string>

namespace demo {

// Input 'color' [1,3,H,W] sRGB 0..1 -> [1,3,2H,2W] sRGB. Empty path: assets/upscaler_x2.onnx.
bridge::MlPassDesc mlUpscalerDesc(const std::string& model);
// Inputs color (noisy, sRGB), albedo, normal (-1..1), depth (0..1), all [1,C,H,W] with H and W
// multiples of 4 -> [1,3,H,W] sRGB. Empty path: assets/denoiser.onnx.
bridge::MlPassDesc mlDenoiserDesc(const std::string& model);

struct Options;
// The effect upscaler of a temporal mode (taau, ml-temporal).
bridge::EffectUpscalerDesc temporalUpscalerDesc(const Options& o, engine::DeferredDeletion* retire);

// Empty when the denoiser can run at this render extent, else a sentence saying why not.
std::string mlDenoiserExtentProblem(VkExtent2D renderExtent);

std::string defaultUpscalerModel();
std::string defaultTemporalModel();  // assets/upscaler_temporal.onnx
std::string defaultDenoiserModel();

}  // namespace demo
