#pragma once
// The demo's networks as bridge::MlPass descriptions: the tensor contracts of the x2 upscaler
// and the denoiser trained by tools/train (docs/BRIDGE.md).
#include "bridge/effect_upscaler.h"
#include "bridge/ml_pass.h"
#include "model_dir.h"
#include "options.h"

#include <memory>
#include <optional>
#include <string>

namespace demo {

// The shipped models (assets/, installed into share/vkml/models; demos/common/model_dir.h).
inline constexpr const char* kUpscalerModel = "upscaler_x2.onnx";
inline constexpr const char* kDenoiserModel = "denoiser.onnx";
inline constexpr const char* kTemporalModel = "upscaler_temporal.onnx";

// The model file to load: `given` when not empty (it must exist), else `shipped` from the model
// directory. On failure, `problem` names what was expected and where it was looked for.
ModelLocation resolveModel(const std::string& given, const char* shipped);

// Input 'color' [1,3,H,W] sRGB 0..1 -> [1,3,2H,2W] sRGB, from the ONNX file `model`.
// `precision`: the tensors' type (fp16 with fp16 arithmetic); unset: MlPass's default.
bridge::MlPassDesc mlUpscalerDesc(const std::string& model, std::optional<mlplugin::DataType> precision = std::nullopt);
// Inputs color (noisy, sRGB), albedo, normal (-1..1), depth (0..1), all [1,C,H,W] with H and W
// multiples of 4 -> [1,3,H,W] sRGB, from the ONNX file `model`.
bridge::MlPassDesc mlDenoiserDesc(const std::string& model, std::optional<mlplugin::DataType> precision = std::nullopt);

struct Options;
// The effect upscaler of a temporal mode (taau, ml-temporal).
bridge::EffectUpscalerDesc temporalUpscalerDesc(const Options& o, engine::DeferredDeletion* retire);

// Empty when the denoiser can run at this render extent, else a sentence saying why not.
std::string mlDenoiserExtentProblem(VkExtent2D renderExtent);

// The plugin device of the ML passes, its pipeline cache restored from --pipeline-cache when
// that file exists and fits (a file that does not is reported and ignored).
std::unique_ptr<mlplugin::Device> createMlDevice(engine::Context& ctx, const Options& o);
// Saves the device's pipeline cache to --pipeline-cache (nothing without it).
void savePipelineCache(const mlplugin::Device& device, const Options& o);

}  // namespace demo
