#version 460
// Frame graph end-to-end test: dst[i] = (useSrc ? src[i] : 0) * mul + add + i * indexMul.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Push { uint count; uint useSrc; uint mul; uint add; uint indexMul; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.count) return;
    uint v = pc.useSrc != 0u ? src[i] : 0u;
    dst[i] = v * pc.mul + pc.add + i * pc.indexMul;
}
