#pragma once
// Tensor-core ceiling for ml_bench: fp16 GEMM through VK_NV_cooperative_matrix
// (shaders/bench/coop_gemm.comp, 128x256 shared-memory tiles), in TFLOP/s.
#include "engine/context.h"

#include <optional>

namespace bench {

// TFLOP/s with fp32 accumulators (what conv2d_coopmat uses). Empty when the context did not
// enable VK_NV_cooperative_matrix with 16-bit storage and shaderFloat16, or the device offers no
// 16x16x16 fp16 shape with fp32 accumulators. `smoke`: tiny sizes (lavapipe), meaningless.
std::optional<double> measureCoopGemmTflops(engine::Context& ctx, bool smoke);

}  // namespace bench
