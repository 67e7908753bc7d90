#version 460
// Compute-shader copy ceiling for ml_bench: 16-byte loads and stores, grid-stride loop, so
// the harness measures what a bandwidth-bound kernel can reach (vkCmdCopyBuffer often cannot).
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Src { vec4 src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { vec4 dst[]; };
layout(push_constant) uniform Push { uint count; } p;  // vec4 elements

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < p.count; i += stride) dst[i] = src[i];
}
