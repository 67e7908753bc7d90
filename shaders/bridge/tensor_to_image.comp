#version 460
// The network's output tensor -> an RGBA16F frame-graph image: 1 channel is replicated to RGB,
// 3 or 4 channels map to RGB; alpha is always 1 (the renderer's colour images are opaque).
#extension GL_GOOGLE_include_directive : require
#include "tensor_io.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, scalar) readonly buffer TensorF32 { float v[]; } tensorF32;
#ifdef HAS_F16
layout(set = 0, binding = 0, scalar) readonly buffer TensorF16 { float16_t v[]; } tensorF16;
#endif
layout(set = 0, binding = 1, rgba16f) uniform writeonly image2D destination;

layout(push_constant, scalar) uniform Push {
    vec4 scale;      // image = decode(tensor * scale + bias), per tensor channel
    vec4 bias;
    uint width, height;
    uint channelCount;
    uint dtype;
    uint encoding;   // ENCODING_SRGB: the tensor holds sRGB values, decoded to linear
    uint offset;
    uint strideC, strideH, strideW;
} pc;

float load(uint index) {
#ifdef HAS_F16
    if (pc.dtype == DTYPE_F16) return float(tensorF16.v[index]);
#endif
    return tensorF32.v[index];
}

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= pc.width || p.y >= pc.height) return;
    uint base = pc.offset + p.y * pc.strideH + p.x * pc.strideW;
    vec4 t = vec4(0.0);
    for (uint c = 0; c < min(pc.channelCount, 3u); ++c) t[c] = load(base + c * pc.strideC) * pc.scale[c] + pc.bias[c];
    if (pc.channelCount == 1) t = t.rrrr;
    t.a = 1.0;
    if (pc.encoding == ENCODING_SRGB) t = srgbToLinear(clamp(t, 0.0, 1.0));
    imageStore(destination, ivec2(p), t);
}
