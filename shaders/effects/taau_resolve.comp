#version 460
// The TAAU resolve, at display resolution: reproject the history along the motion with a
// Catmull-Rom fetch, clip it to the current neighbourhood (YCoCg mean +- gamma sigma), and
// accumulate this frame's jittered samples with a kernel weighted by their sub-pixel distance to
// the output pixel, luma-weighted against flicker, up to an accumulated weight that is far lower
// for moving pixels than for still ones (upscaler_current.glsl has the reprojection and writes
// this frame's linear depth for the next frame). History: rgb linear colour, a accumulated
// sample weight.
#extension GL_GOOGLE_include_directive : require
#include "upscaler_shared.h"
#include "upscaler_common.glsl"

#ifndef OUTPUT_FORMAT
#define OUTPUT_FORMAT rgba16f
#endif

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D colorTex;         // application, nearest
layout(set = 0, binding = 1) uniform sampler2D depthTex;         // application, nearest
layout(set = 0, binding = 2) uniform sampler2D motionTex;        // application, nearest
layout(set = 0, binding = 3) uniform sampler2D prevLinearDepth;  // effect, previous frame, nearest
layout(set = 0, binding = 4) uniform sampler2D historyTex;       // effect, previous frame, linear filter
layout(set = 0, binding = 5) uniform sampler2D reactiveTex;      // application (or a black texel)
layout(set = 0, binding = 6, r32f) uniform writeonly image2D linearDepthOut;
layout(set = 0, binding = 7, rgba16f) uniform writeonly image2D historyOut;
layout(set = 0, binding = 8, OUTPUT_FORMAT) uniform writeonly image2D outputImage;
layout(push_constant) uniform Push { ResolvePush pc; };

#define HISTORY_FETCH_5_TAPS
#define STAGED_CURRENT_SAMPLES
#define FASTEST_MOTION  // the moving pixels' history cap (upscaler_shared.h); the ML feature pass has no use for it
#include "upscaler_current.glsl"

void main() {
    const SampleBlock block = beginBlock();
    ivec2 o = ivec2(gl_GlobalInvocationID.xy);
    if (o.x >= int(pc.displaySize.x) || o.y >= int(pc.displaySize.y)) return;
    CurrentSamples cur = gatherCurrent(o, block);
    HistorySample hist = fetchHistory(o, cur);

    float historyWeight = hist.weight;
    vec3 base = hist.clipped;
    if (historyWeight <= 0.0) {  // no usable history: start from the spatial estimate
        base = cur.wide;
        historyWeight = 0.15;
    }
    // Luma weights (Karis): a bright outlier sample cannot dominate the blend, so it does not flicker.
    float wh = historyWeight / (1.0 + luma(base));
    float wc = cur.narrowWeight / (1.0 + luma(cur.narrow));
    vec3 color = (base * wh + cur.narrow * wc) / max(wh + wc, 1e-6);
    // Moving pixels keep far fewer samples than still ones (upscaler_shared.h says why).
    float weight = min(historyWeight + cur.narrowWeight, movingHistoryCap(cur));
    imageStore(historyOut, o, vec4(color, weight));
    if ((pc.flags & FLAG_WRITE_OUTPUT) != 0u) imageStore(outputImage, o, vec4(fromWorkingSpace(color, pc.flags, pc.exposure), 1.0));
}
