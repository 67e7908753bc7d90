#version 450
#extension GL_GOOGLE_include_directive : require
// Initializer helper: copies the element span of a plugin-owned constant tensor (bound at its
// input slot) into the persistent resource as fp32 at an element offset. The span keeps the
// tensor's own strides, so kernels address the copy exactly as they would the original.
#include "common.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const uint SRC_SLOT = 0u;
layout(constant_id = 4) const uint SRC_DTYPE = DTYPE_F32;

layout(push_constant) uniform Push {
    uint count;    // elements in the span
    uint dstBase;  // element offset in the persistent resource
} pc;

void main() {
    uint i = linearInvocation();
    if (i >= pc.count) return;
    heapF32[PERSISTENT_SLOT].v[pc.dstBase + i] = loadElem(SRC_SLOT, SRC_DTYPE, i);
}
