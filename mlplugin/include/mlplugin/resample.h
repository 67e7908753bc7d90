#pragma once
/// \file
/// Resample (upsample/downsample) of the two innermost dims of an NCHW tensor by arbitrary scales.
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <array>
#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// Nearest neighbour, bilinear or bicubic interpolation. Cubic is ONNX Resize's "cubic": a
/// separable 4x4-tap filter whose weights follow Keys' cubic convolution kernel with coefficient
/// ResampleDesc::cubicCoeffA (-0.75 as PyTorch's bicubic and ONNX's default; -0.5 is
/// Catmull-Rom / TensorFlow's).
enum class ResampleMode : uint32_t { Nearest, Linear, Cubic };
/// How an output coordinate maps to an input coordinate (ONNX Resize's coordinate_transformation_mode).
/// HalfPixelSymmetric (opset 19) shifts half_pixel by in/2 * (1 - out / (scale * in)), which
/// centres the sampling grid when the scale does not give a whole output size.
enum class CoordinateTransform : uint32_t { HalfPixel, AlignCorners, Asymmetric, PytorchHalfPixel, HalfPixelSymmetric };
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
    /// ResampleMode::Cubic only: the kernel's coefficient `a` (ONNX Resize's cubic_coeff_a). For
    /// a tap at distance t from the source coordinate the weight is
    /// (a+2)|t|^3 - (a+3)|t|^2 + 1 for |t| <= 1 and a|t|^3 - 5a|t|^2 + 8a|t| - 4a for 1 < |t| < 2.
    /// Must be finite.
    float cubicCoeffA = -0.75f;
    /// ResampleMode::Cubic only (ONNX Resize's exclude_outside). False: taps outside the input
    /// read the nearest border element (indices clamped). True: their weights become 0 and the
    /// remaining weights are divided by their sum.
    bool excludeOutside = false;
    /// Output/input scale per spatial dim; 0 means outSize / inSize. A given scale must agree
    /// with the sizes: outSize = floor(inSize * scale), or round(inSize * scale) (ONNX
    /// Resize-18's keep_aspect_ratio_policy); the coordinate transforms use the scale as given,
    /// and AlignCorners / PytorchHalfPixel the resized length inSize * scale (ONNX's definition;
    /// it differs from outSize when the scale does not give a whole size).
    std::array<float, 2> scales{0.0f, 0.0f};
};

}  // namespace mlplugin
MLPLUGIN_API_END
