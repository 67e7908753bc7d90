#pragma once
// Grid sample (ONNX GridSample, PyTorch grid_sample): samples an NCHW input at the normalized
// positions of a grid, e.g. to warp a previous frame by motion vectors.
//
//   input  [N, C, H, W]
//   grid   [N, outH, outW, 2]: (x, y) per output pixel; -1 is the left/top edge of the input,
//          +1 the right/bottom one (pixel centres with alignCorners, pixel edges without)
//   output [N, C, outH, outW]
//
// A grid position maps to input pixel coordinates as
//   alignCorners: x' = (x + 1) / 2 * (W - 1)        otherwise: x' = ((x + 1) * W - 1) / 2
// (y likewise with H), computed in fp32 by both the GPU kernel and the CPU reference so
// nearest-neighbour decisions agree; interpolation is fp32 on the GPU, double in the reference.
// Positions outside the input follow `padding`:
//   Zeros:      taps outside read 0;
//   Border:     the position is clamped to [0, W - 1];
//   Reflection: the position is reflected about the borders (the pixel centres at 0 and W - 1
//               with alignCorners, the edges -0.5 and W - 0.5 without) until it lies inside,
//               then clamped to [0, W - 1].
// Linear blends the 4 nearest pixels; Nearest takes the pixel at the position rounded half to
// even. Any strides; fp32 or fp16 per tensor.
#include "mlplugin/tensor_desc.h"

#include <string>

namespace mlplugin {

enum class GridSampleMode : uint32_t { Linear, Nearest };
enum class GridSamplePadding : uint32_t { Zeros, Border, Reflection };

struct GridSampleDesc {
    std::string name;
    TensorDesc input;   // [N, C, H, W]
    TensorDesc grid;    // [N, outH, outW, 2]
    TensorDesc output;  // [N, C, outH, outW]
    GridSampleMode mode = GridSampleMode::Linear;
    GridSamplePadding padding = GridSamplePadding::Zeros;
    bool alignCorners = false;
};

}  // namespace mlplugin
