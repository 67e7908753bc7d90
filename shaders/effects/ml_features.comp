#version 460
// Temporal ML, before the network, at display resolution: the reprojection and the network's
// input features per output pixel (upscaler_current.glsl), written pixel-unshuffled into the
// feature tensor (docs/EFFECTS.md lists them), and this frame's linear depth for the next frame.
// Padding pixels of the tensor (beyond the display size) repeat the edge. Colours are
// sRGB-encoded working-space values (the network sees perceptual values).
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "upscaler_common.glsl"
#include "tensor_buffer.glsl"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D colorTex;         // application, nearest
layout(set = 0, binding = 1) uniform sampler2D depthTex;         // application, nearest
layout(set = 0, binding = 2) uniform sampler2D motionTex;        // application, nearest
layout(set = 0, binding = 3) uniform sampler2D prevLinearDepth;  // effect, previous frame, nearest
layout(set = 0, binding = 4) uniform sampler2D historyTex;       // effect, previous frame, linear filter
layout(set = 0, binding = 5) uniform sampler2D reactiveTex;      // application (or a black texel)
layout(set = 0, binding = 6, r32f) uniform writeonly image2D linearDepthOut;
layout(set = 0, binding = 7, std430) writeonly buffer Features { TENSOR_T features[]; };
layout(set = 0, binding = 7, std430) writeonly buffer FeatureQuads { TENSOR_QUAD featureQuads[]; };  // the same buffer
layout(push_constant) uniform Push { ResolvePush pc; };

#define STAGED_CURRENT_SAMPLES
#include "upscaler_current.glsl"

// The features of display pixel o (docs/EFFECTS.md lists them).
void computeFeatures(ivec2 o, SampleBlock block, out float f[ML_FEATURES]) {
    CurrentSamples cur = gatherCurrent(o, block);
    HistorySample hist = fetchHistory(o, cur);
    vec3 v = linearToSrgb(cur.narrow);
    f[0] = v.r; f[1] = v.g; f[2] = v.b;
    f[3] = cur.narrowWeight;
    v = linearToSrgb(cur.wide);
    f[4] = v.r; f[5] = v.g; f[6] = v.b;
    v = linearToSrgb(hist.raw);
    f[7] = v.r; f[8] = v.g; f[9] = v.b;
    v = linearToSrgb(hist.clipped);
    f[10] = v.r; f[11] = v.g; f[12] = v.b;
    f[13] = hist.valid;
    f[14] = hist.valid * clamp(hist.state, 0.0, 1.0);
    f[15] = min(float(pc.renderSize.x) / float(pc.displaySize.x), pc.ratioFeatureMax);
}

#ifdef TENSOR_F16
uvec4 packQuad(float f[ML_FEATURES], uint i) {
    return uvec4(packHalf2x16(vec2(f[8u * i], f[8u * i + 1u])), packHalf2x16(vec2(f[8u * i + 2u], f[8u * i + 3u])),
                 packHalf2x16(vec2(f[8u * i + 4u], f[8u * i + 5u])), packHalf2x16(vec2(f[8u * i + 6u], f[8u * i + 7u])));
}

// Pixel-major fp16 tensors (r = 2 or 4) leave the workgroup through shared memory. A display
// pixel's 16 values are 32 bytes, one memory sector, but a lane stores at most 16 bytes at a time:
// stored from its own lane, each of the subgroup's two store instructions writes half of 32
// sectors. The feature pass with only its stores left ran at 1.5 TB/s on the H100, half the rate
// at which the resolve moves its bytes (bench/RESULTS.md, "Where the temporal pass's time goes");
// with ECC memory (H100, H200) an L2 that sees many partially written sectors may fill them from
// DRAM, which would double the traffic. The 8x8 block's values are instead 8 / r contiguous runs
// of 8 r pixels (one per tensor row), so the workgroup writes them in memory order: every store
// instruction covers 512 contiguous bytes, whole sectors. The tensor size is a multiple of 4 r >=
// 8, so every workgroup is full and reaches the barrier.
shared uvec4 blockQuads[2u * gl_WorkGroupSize.x * gl_WorkGroupSize.y];

void storePixelMajorBlock(uvec2 t, float f[ML_FEATURES]) {
    const uint r = pc.tensorUnshuffle, shift = uint(findLSB(r)), mask = r - 1u;
    const uvec2 local = gl_LocalInvocationID.xy;
    const uint runQuads = 2u * 8u * r;  // 8 / r tensor pixels of r * r display pixels, 2 quads each
    const uint inRun = ((((local.x >> shift) << (2u * shift)) + ((local.y & mask) << shift) + (local.x & mask)) << 1u);
    const uint at = (local.y >> shift) * runQuads + inRun;
    blockQuads[at] = packQuad(f, 0u);
    blockQuads[at + 1u] = packQuad(f, 1u);
    barrier();
    const uvec2 firstTensorPixel = (gl_WorkGroupID.xy * gl_WorkGroupSize.xy) >> shift;
    const uint tensorRowPixels = pc.tensorWidth >> shift;
    for (uint q = gl_LocalInvocationIndex; q < 2u * gl_WorkGroupSize.x * gl_WorkGroupSize.y; q += gl_WorkGroupSize.x * gl_WorkGroupSize.y) {
        const uint run = q >> (shift + 4u), quadInRun = q & (runQuads - 1u);  // runQuads = 16 r
        const uint runStart = ((firstTensorPixel.y + run) * tensorRowPixels + firstTensorPixel.x) << (2u * shift + 1u);
        featureQuads[runStart + quadInRun] = blockQuads[q];
    }
}
#endif

void main() {
    const SampleBlock block = beginBlock();
    const uvec2 t = gl_GlobalInvocationID.xy;
    const bool inside = t.x < pc.tensorWidth && t.y < pc.tensorHeight;
    float f[ML_FEATURES];
    if (inside) computeFeatures(min(ivec2(t), ivec2(pc.displaySize) - 1), block, f);
#ifdef TENSOR_F16
    const uint pixelMajor = FLAG_TENSORS_NHWC | FLAG_TENSORS_PIXEL_MAJOR;
    if ((pc.flags & pixelMajor) == pixelMajor && pc.tensorUnshuffle > 1u) {  // uniform
        storePixelMajorBlock(t, f);
        return;
    }
#endif
    if (!inside) return;
    const TensorPixel at = tensorPixel(t, ML_FEATURES, pc.tensorWidth, pc.tensorHeight, pc.tensorUnshuffle, pc.flags);
    if (at.stride == 1u) {  // pixel-major: the 16 values in 16-byte stores (base is a multiple of 16 values)
        const uint q = at.base / TENSOR_QUAD_VALUES;
#ifdef TENSOR_F16
        for (uint i = 0u; i < ML_FEATURES / 8u; ++i) featureQuads[q + i] = packQuad(f, i);
#else
        for (uint i = 0u; i < ML_FEATURES / 4u; ++i) featureQuads[q + i] = vec4(f[4u * i], f[4u * i + 1u], f[4u * i + 2u], f[4u * i + 3u]);
#endif
    } else {
        for (uint c = 0u; c < ML_FEATURES; ++c) features[at.base + c * at.stride] = TENSOR_T(f[c]);
    }
}
