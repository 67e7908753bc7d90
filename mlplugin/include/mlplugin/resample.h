#pragma once
/// \file
/// Resample (upsample/downsample) of the two innermost dims of an NCHW tensor by arbitrary scales.
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <array>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// Nearest neighbour or bilinear interpolation.
enum class ResampleMode : uint32_t { Nearest, Linear };
/// How an output coordinate maps to an input coordinate (ONNX Resize's coordinate_transformation_mode).
enum class CoordinateTransform : uint32_t { HalfPixel, AlignCorners, Asymmetric, PytorchHalfPixel };
/// How ResampleMode::Nearest rounds the input coordinate (ONNX Resize's nearest_mode).
enum class NearestRounding : uint32_t { RoundPreferFloor, RoundPreferCeil, Floor, Ceil };

/// Resamples the two innermost dims (DML_RESAMPLE_OPERATOR_DESC, ONNX Resize).
struct ResampleDesc {
    std::string name;  ///< for messages and reports
    TensorDesc input;   ///< [N, C, H, W]
    TensorDesc output;  ///< [N, C, outH, outW]
    ResampleMode mode = ResampleMode::Nearest;  ///< interpolation
    CoordinateTransform transform = CoordinateTransform::HalfPixel;  ///< output -> input coordinates
    NearestRounding rounding = NearestRounding::RoundPreferFloor;  ///< ResampleMode::Nearest only
    /// Output/input scale per spatial dim; 0 means outSize / inSize.
    std::array<float, 2> scales{0.0f, 0.0f};
};

}  // namespace mlplugin
MLPLUGIN_API_END
