#pragma once
/// \file
/// Grid sample (ONNX GridSample, PyTorch grid_sample): samples an NCHW input at the normalized
/// positions of a grid, e.g. to warp a previous frame by motion vectors.
///
///   input  [N, C, H, W]
///   grid   [N, outH, outW, 2]: (x, y) per output pixel; -1 is the left/top edge of the input,
///          +1 the right/bottom one (pixel centres with alignCorners, pixel edges without)
///   output [N, C, outH, outW]
///
/// A grid position maps to input pixel coordinates as
///   alignCorners: x' = (x + 1) / 2 * (W - 1)        otherwise: x' = ((x + 1) * W - 1) / 2
/// (y likewise with H), computed in fp32 by both the GPU kernel and the CPU reference so
/// nearest-neighbour decisions agree; interpolation is fp32 on the GPU, double in the reference.
/// Any strides; fp32 or fp16 per tensor. Positions that are NaN or infinite read nothing (0 with
/// Zeros padding); they never address memory outside the input.
#include "mlplugin/export.h"
#include "mlplugin/tensor_desc.h"

#include <string>

MLPLUGIN_API_BEGIN
namespace mlplugin {

/// How the input is interpolated at a grid position.
enum class GridSampleMode : uint32_t {
    Linear,   ///< bilinear: the 4 nearest pixels, weighted
    Nearest,  ///< the pixel at the position rounded half to even
};

/// What positions outside the input read.
enum class GridSamplePadding : uint32_t {
    Zeros,       ///< taps outside the input read 0
    Border,      ///< the position is clamped to [0, W - 1] x [0, H - 1]
    Reflection,  ///< reflected about the borders (pixel centres 0 and W - 1 with alignCorners, edges -0.5 and W - 0.5 without) until inside, then clamped
};

/// GridSample: output[n, c, y, x] = input[n, c] sampled at grid[n, y, x].
struct GridSampleDesc {
    std::string name;   ///< for messages and reports
    TensorDesc input;   ///< [N, C, H, W]
    TensorDesc grid;    ///< [N, outH, outW, 2]: (x, y) normalized positions
    TensorDesc output;  ///< [N, C, outH, outW]
    GridSampleMode mode = GridSampleMode::Linear;  ///< interpolation
    GridSamplePadding padding = GridSamplePadding::Zeros;  ///< positions outside the input
    bool alignCorners = false;  ///< -1 and +1 are the corner pixels' centres (else their outer edges)
};

}  // namespace mlplugin
MLPLUGIN_API_END
