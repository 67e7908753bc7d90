#pragma once
// Resample (upsample/downsample) of the two innermost dims of an NCHW tensor by arbitrary scales.
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <array>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

enum class ResampleMode : uint32_t { Nearest, Linear };
// How an output coordinate maps to an input coordinate (ONNX Resize's coordinate_transformation_mode).
enum class CoordinateTransform : uint32_t { HalfPixel, AlignCorners, Asymmetric, PytorchHalfPixel };
enum class NearestRounding : uint32_t { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

struct ResampleDesc {
    std::string name;
    TensorDesc input;   // [N, C, H, W]
    TensorDesc output;  // [N, C, outH, outW]
    ResampleMode mode = ResampleMode::Nearest;
    CoordinateTransform transform = CoordinateTransform::HalfPixel;
    NearestRounding rounding = NearestRounding::RoundPreferFloor;
    // Output/input scale per spatial dim; 0 means outSize / inSize.
    std::array<float, 2> scales{0.0f, 0.0f};
};

}  // namespace mlplugin
MLPLUGIN_API_END
