#version 460
// Frame graph end-to-end test: texel (x, y) = (x, y, tag, 255) / 255.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D dst;
layout(push_constant) uniform Push { uint tag; } pc;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(dst)))) return;
    imageStore(dst, p, vec4(float(p.x), float(p.y), float(pc.tag), 255.0) / 255.0);
}
