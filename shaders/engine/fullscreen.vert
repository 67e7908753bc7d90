#version 460
// One triangle covering the screen; uv in [0,1] with (0,0) at the top-left.
layout(location = 0) out vec2 outUv;
void main() {
    outUv = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(outUv * 2.0 - 1.0, 0.0, 1.0);
}
