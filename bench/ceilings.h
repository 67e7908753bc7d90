#pragma once
// Device ceilings ml_bench measures itself, so every result can be stated as a fraction of
// what this device reaches: copy bandwidth (vkCmdCopyBuffer and a vec4 compute copy), FMA
// throughput (fp32, fp16 when the device has fp16 arithmetic) and tensor-core GEMM.
#include "engine/context.h"

#include <optional>

namespace bench {

struct Ceilings {
    double copyBufferGBs = 0;       // vkCmdCopyBuffer, bytes read + written per second
    double computeCopyGBs = 0;      // copy_vec4.comp, bytes read + written per second
    double fp32FmaTflops = 0;       // fma_peak.comp, 2 flop per FMA
    std::optional<double> fp16FmaTflops;   // when shaderFloat16 is enabled
    // fp16 cooperative-matrix GEMM through Vulkan, fp32 accumulators (coop_gemm_ceiling.h);
    // empty without VK_NV_cooperative_matrix (reported as null in the JSON).
    std::optional<double> coopGemmTflops;
};

// `smoke`: tiny sizes (lavapipe), the numbers mean nothing.
Ceilings measureCeilings(engine::Context& ctx, bool smoke);

}  // namespace bench
