#version 460
// Frame graph end-to-end test: copies the source texel to the attachment with r and b swapped
// (so the result can only come from this draw).
layout(set = 0, binding = 0) uniform sampler2D src;
layout(location = 0) out vec4 color;

void main() {
    color = texelFetch(src, ivec2(gl_FragCoord.xy), 0).bgra;
}
