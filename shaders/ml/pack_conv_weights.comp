#version 450
#extension GL_GOOGLE_include_directive : require
// Initializer: copies a convolution filter from its input slot into the persistent resource,
// converted to DST_DTYPE and re-laid out as [outC / BLOCK][inC/g * kH * kW][BLOCK] (output
// channels padded with zeros to a multiple of BLOCK), the order conv2d_tiled.comp stages it.
// The source address formula is the one in conv2d_params.glsl, so ordinary and transposed
// filters with any strides pack the same way. Constant ids mirror PackConst in convolution.cpp.
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const uint OUT_C = 1;
layout(constant_id = 4) const uint GROUP_IN_C = 1;
layout(constant_id = 5) const uint K_H = 1;
layout(constant_id = 6) const uint K_W = 1;
layout(constant_id = 7) const uint BLOCK = 16;
layout(constant_id = 8) const uint SRC_SLOT = 1;
layout(constant_id = 9) const uint SRC_DTYPE = 0;
layout(constant_id = 10) const uint SRC_BLOCK = 1;
layout(constant_id = 11) const uint SRC_BLOCK_STRIDE = 0;
layout(constant_id = 12) const uint SRC_LANE_STRIDE = 0;
layout(constant_id = 13) const uint SRC_IC_STRIDE = 0;
layout(constant_id = 14) const uint SRC_KY_STRIDE = 0;
layout(constant_id = 15) const uint SRC_KX_STRIDE = 0;
layout(constant_id = 16) const uint DST_DTYPE = 0;
layout(constant_id = 17) const uint DST_OFFSET = 0;

void main() {
    const uint taps = K_H * K_W;
    const uint k = GROUP_IN_C * taps;  // reduction length per output channel
    uint index = linearInvocation();
    uint blocks = (OUT_C + BLOCK - 1) / BLOCK;
    if (index >= blocks * k * BLOCK) return;
    uint lane = index % BLOCK;
    uint rest = index / BLOCK;
    uint kk = rest % k;
    uint oc = (rest / k) * BLOCK + lane;
    float value = 0.0;
    if (oc < OUT_C) {
        uint icl = kk / taps, tap = kk % taps;
        uint src = (oc / SRC_BLOCK) * SRC_BLOCK_STRIDE + (oc % SRC_BLOCK) * SRC_LANE_STRIDE + icl * SRC_IC_STRIDE +
                   (tap / K_W) * SRC_KY_STRIDE + (tap % K_W) * SRC_KX_STRIDE;
        value = loadElem(SRC_SLOT, SRC_DTYPE, src);
    }
    storeElem(PERSISTENT_SLOT, DST_DTYPE, DST_OFFSET + index, value);
}
