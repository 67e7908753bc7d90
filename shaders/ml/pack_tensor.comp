#version 450
#extension GL_GOOGLE_include_directive : require
// Initializer: copies an up-to-4-D tensor (any strides) from its input slot into the
// persistent resource, packed row-major and converted to DST_DTYPE. Used for biases and GEMM
// operands owned by the plugin. Constant ids mirror PackTensorConst in mlplugin/src/ops/weight_packing.cpp.
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const uint SIZE0 = 1;  // sizes, outermost first, left-padded with 1
layout(constant_id = 4) const uint SIZE1 = 1;
layout(constant_id = 5) const uint SIZE2 = 1;
layout(constant_id = 6) const uint SIZE3 = 1;
layout(constant_id = 7) const uint STRIDE0 = 0;  // source strides in elements
layout(constant_id = 8) const uint STRIDE1 = 0;
layout(constant_id = 9) const uint STRIDE2 = 0;
layout(constant_id = 10) const uint STRIDE3 = 0;
layout(constant_id = 11) const uint SRC_SLOT = 0;
layout(constant_id = 12) const uint SRC_DTYPE = 0;
layout(constant_id = 13) const uint DST_DTYPE = 0;
layout(constant_id = 14) const uint DST_OFFSET = 0;

void main() {
    uint index = linearInvocation();
    if (index >= SIZE0 * SIZE1 * SIZE2 * SIZE3) return;
    uint i3 = index % SIZE3;
    uint rest = index / SIZE3;
    uint i2 = rest % SIZE2;
    rest /= SIZE2;
    uint i1 = rest % SIZE1;
    uint i0 = rest / SIZE1;
    float value = loadElem(SRC_SLOT, SRC_DTYPE, i0 * STRIDE0 + i1 * STRIDE1 + i2 * STRIDE2 + i3 * STRIDE3);
    storeElem(PERSISTENT_SLOT, DST_DTYPE, DST_OFFSET + index, value);
}
