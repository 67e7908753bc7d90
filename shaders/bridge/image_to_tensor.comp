#version 460
// Every graph input of an MlPass in one dispatch: each invocation reads one pixel of the
// (up to 4) source images once and scatters the selected components of each "slice" into the
// tensors. A slice is a run of tensor channels fed from one image; several slices into one
// tensor concatenate images along C. Tensor strides come from the graph's input descs, so the
// same shader writes NCHW, NHWC or any strided layout the network's first layer reads.
#extension GL_GOOGLE_include_directive : require
#include "tensor_io.glsl"

layout(local_size_x = 8, local_size_y = 8) in;

#define MAX_SLICES 16

struct Slice {
    vec4 scale;        // tensor = encode(image component) * scale + bias, per tensor channel
    vec4 bias;
    uvec4 components;  // image component of each tensor channel
    uint image;        // source0..3
    uint channelCount; // 1..4
    uint dtype;
    uint encoding;     // ENCODING_SRGB: linear -> sRGB on RGB components before scale/bias
    uint offset;       // element index of (n=0, c=first channel, y=0, x=0)
    uint strideC, strideH, strideW;
};

// Four bindings rather than an array: indexing a sampler array needs a device feature the
// engine does not enable. Unused ones repeat a used image.
layout(set = 0, binding = 0) uniform sampler2D source0;
layout(set = 0, binding = 1) uniform sampler2D source1;
layout(set = 0, binding = 2) uniform sampler2D source2;
layout(set = 0, binding = 3) uniform sampler2D source3;
layout(set = 0, binding = 4, scalar) writeonly buffer TensorsF32 { float v[]; } tensorsF32;
#ifdef HAS_F16
layout(set = 0, binding = 4, scalar) writeonly buffer TensorsF16 { float16_t v[]; } tensorsF16;
#endif
layout(set = 0, binding = 5, scalar) uniform Params {
    uint width, height, sliceCount, pad0;
    Slice slices[MAX_SLICES];
} params;

vec4 fetch(uint image, ivec2 p) {
    if (image == 0) return texelFetch(source0, p, 0);
    if (image == 1) return texelFetch(source1, p, 0);
    if (image == 2) return texelFetch(source2, p, 0);
    return texelFetch(source3, p, 0);
}

void main() {
    uvec2 p = gl_GlobalInvocationID.xy;
    if (p.x >= params.width || p.y >= params.height) return;
    for (uint s = 0; s < params.sliceCount; ++s) {
        Slice sl = params.slices[s];
        vec4 texel = fetch(sl.image, ivec2(p));
        if (sl.encoding == ENCODING_SRGB) texel = linearToSrgb(texel);
        uint base = sl.offset + p.y * sl.strideH + p.x * sl.strideW;
        for (uint c = 0; c < sl.channelCount; ++c) {
            float value = texel[sl.components[c]] * sl.scale[c] + sl.bias[c];
            uint index = base + c * sl.strideC;
#ifdef HAS_F16
            if (sl.dtype == DTYPE_F16) { tensorsF16.v[index] = float16_t(value); continue; }
#endif
            tensorsF32.v[index] = value;
        }
    }
}
