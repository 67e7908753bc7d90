#pragma once
// Reference networks for benchmarks and tests, with deterministic weights that
// bench/peer_torch.py reproduces exactly (see detWeights), so both sides run the same model.
#include "mlplugin/graph_builder.h"

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// w[i] = (frac(((i + seed * 1000003) * 2654435761) / 2^32) - 0.5) * 2 * scale  (uint64 math)
std::vector<float> detWeights(uint32_t seed, size_t count, float scale);

struct Network {
    std::string name;
    mlplugin::GraphDesc graph;
    double gflop = 0;        // multiply-adds x 2 over all convolutions/GEMMs
    uint32_t outWidth = 0, outHeight = 0;
};

// ESPCN x2: conv 5x5 3->64 + tanh, conv 3x3 64->32 + tanh, conv 3x3 32->12, depth-to-space 2.
Network espcn(mlplugin::DataType type, uint32_t width, uint32_t height);
// The same layers for another scale s: conv3 32 -> 3 s^2, depth-to-space s ("espcn_xS").
Network espcnScaled(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t scale);
// FSRCNN x2 (d=56, s=12, m=4) on one channel: conv 5x5 1->56, 1x1 56->12, 4x 3x3 12->12,
// 1x1 12->56 (each + PReLU), transposed 9x9 56->1 stride 2 (pad 4, output padding 1).
Network fsrcnn(mlplugin::DataType type, uint32_t width, uint32_t height);
// SRVGG-compact x2 (realesr-animevideov3's shape): conv 3x3 3->64 + PReLU, 16 x (conv 3x3 64->64
// + PReLU), conv 3x3 64->12, pixel shuffle (CRD, as torch), plus the nearest x2 upsampled input.
// PReLU slopes 0.25 (torch's initialization).
Network srvggCompact(mlplugin::DataType type, uint32_t width, uint32_t height);
// The SRVGG-compact family with other sizes: `channels` features, `bodies` body convolutions,
// scale s (last conv -> 3 s^2, pixel shuffle s, nearest x s input). Named "srvgg_xS_cCnB".
Network srvggVariant(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t channels, uint32_t bodies, uint32_t scale);
// OIDN's U-Net (5 levels; 9 input channels; encoder 32, 32, 48, 64, 80, 96, 96; decoder 112, 96, 64,
// 64 + 32 -> 3): 3x3 convs + ReLU, 2x2 max pools, nearest x2 upsampling, concat with the skip.
// width and height multiples of 16.
Network unetOidn(mlplugin::DataType type, uint32_t width, uint32_t height);
// The same U-Net with other widths: `input` channels, encoder enc[0..6], decoder dec[0..7] (the
// skips' channel counts follow). Name "unet_" + tag.
struct UnetWidths {
    uint32_t input = 9;
    uint32_t enc[7] = {32, 32, 48, 64, 80, 96, 96};
    uint32_t dec[8] = {112, 112, 96, 96, 64, 64, 64, 32};
};
Network unetVariant(mlplugin::DataType type, uint32_t width, uint32_t height, const UnetWidths& widths, const std::string& tag);
// Networks of the benchmarked kinds in sizes that no kernel or heuristic was tuned on (ml_bench's
// group "unseen", mirrored in peer_torch.py): ESPCN x3, SRVGG 48 channels x 12 bodies x2 and
// 32 x 16 x4, a colour-only U-Net with narrower levels.
const UnetWidths kUnetSmall{3, {24, 24, 32, 48, 64, 80, 80}, {96, 96, 80, 80, 48, 48, 32, 24}};
// The same network with its graph inputs and outputs channels-last (timing comparisons with a
// channels_last peer; only convolutions directly at the boundary are patched). Name + " nhwc".
Network channelsLastIo(Network net);
// One convolution (kernel k, cin -> cout, same padding) at width x height.
Network singleConv(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t k, uint32_t cin, uint32_t cout);

// Single operators for the sweep, on a [1, channels, height, width] input.
Network singleConvActivation(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t k, uint32_t cin, uint32_t cout,
                             mlplugin::Activation activation);
Network depthToSpaceOp(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t channels, uint32_t block);
Network addOp(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t channels);
// PReLU with a per-channel slope ([1, C, 1, 1] constant), as in FSRCNN.
Network preluOp(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t channels);
Network resizeBilinearX2(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t channels);
Network transposedConv(mlplugin::DataType type, uint32_t width, uint32_t height, uint32_t cin, uint32_t cout, uint32_t k, uint32_t stride);

double graphGflop(const mlplugin::GraphDesc& g);

}  // namespace bench
