// This frame's samples around an output pixel, their reprojection and the history, shared by the
// TAAU resolve and the ML feature pass. Expects colorTex, depthTex, motionTex, prevLinearDepth,
// historyTex, reactiveTex (sampled), linearDepthOut (r32f storage image) and the ResolvePush `pc`
// to be declared.
//
// The reprojection runs here, per output pixel, on the render pixel holding its centre: the
// motion of the nearest surface in that pixel's 3x3 neighbourhood (thin foreground edges carry
// their own motion) and the history confidence (does the previous frame's linear depth at the
// reprojected position match, relative tolerance pc.depthTolerance, smooth?). It used to be a
// pass of its own at render resolution whose result the display passes read back: a dispatch and
// a pipeline drain more per frame, a render-size image written and read, and 14 texel fetches per
// render pixel (0.035 ms at 1080p on the H100, bench/RESULTS.md). Here the depth and motion are
// staged with the colours (below), the nearest-depth search takes three instructions per tap of
// the 3x3 loop the colours need anyway, and the depth test one gather. At 2x each render pixel is
// the centre of about four output pixels, so that work is repeated; a render-pixel phase between
// two barriers would avoid it, but put the depth test's fetch in series before the history fetch.
// Measured on an H200 at 1080p -> 4K: the temporal ML pass 1.040 -> 1.020 ms, TAAU unchanged at
// 0.269 ms (bench/RESULTS.md, "Twenty-eighth session").
#ifndef EFFECTS_UPSCALER_CURRENT_GLSL
#define EFFECTS_UPSCALER_CURRENT_GLSL

struct CurrentSamples {
    vec3 narrow;         // narrow-kernel average of the 3x3 samples (the new information)
    float narrowWeight;  // its total kernel weight: 1 when a sample sits on the pixel centre
    vec3 wide;           // wide-kernel average (spatial upsampling)
    vec3 boxLo, boxHi;   // neighbourhood box, YCoCg
    vec2 motion;         // render pixels
#ifdef FASTEST_MOTION
    float fastestMotion; // the longest motion among the 3x3 samples, render pixels (TAAU's history cap)
#endif
    float confidence;    // history confidence from the depth test
    ivec2 renderPixel;   // the render pixel holding the output pixel's centre
};

// The render pixel holding output pixel o's centre (jittered), clamped to the image.
ivec2 centreSample(ivec2 o) {
    vec2 p = (vec2(o) + 0.5) * (vec2(pc.renderSize) / vec2(pc.displaySize));
    return clamp(ivec2(floor(p + pc.jitter)), ivec2(0), ivec2(pc.renderSize) - 1);
}

// The application's depth as 0 near .. 1 far (non-finite counts as far; inverted depth flipped).
float nearToFar(float d) {
    if (isnan(d) || isinf(d)) d = 1.0;
    d = clamp(d, 0.0, 1.0);
    return (pc.flags & FLAG_DEPTH_INVERTED) != 0u ? 1.0 - d : d;
}

// Distance along the view axis of a nearToFar() depth; increases with it, so the nearest sample
// is found on the device depth and only the centre's needs the division.
float linearDepth(float nearToFarDepth) {
    if (pc.cameraFar <= 0.0) return pc.cameraNear / max(1.0 - nearToFarDepth, 1e-7);
    return pc.cameraNear * pc.cameraFar / max(pc.cameraFar - nearToFarDepth * (pc.cameraFar - pc.cameraNear), 1e-7);
}

// The application's motion value in render pixels (non-finite: none).
vec2 scaledMotion(vec2 value) {
    vec2 motion = value * pc.motionScale;
    return any(isnan(motion)) || any(isinf(motion)) ? vec2(0.0) : motion;
}

// How well the previous frame's linear depth around the position render pixel p (linear depth z)
// came from matches z: the best of the 2x2 texels there, 0 without history or off the previous
// frame. The four texels are one gather (sampler clamped to the edge, as the clamp below), except
// on the last half pixel of a previous render size smaller than the image, where the gather would
// clamp to the image's edge instead.
float historyConfidence(ivec2 p, vec2 motion, float z) {
    vec2 prevPos = vec2(p) + 0.5 - pc.jitter + motion + pc.prevJitter;
    bool inside = all(greaterThanEqual(prevPos, vec2(0.0))) && all(lessThan(prevPos, vec2(pc.prevRenderSize)));
    if ((pc.flags & FLAG_HISTORY_VALID) == 0u || !inside) return 0.0;
    ivec2 base = ivec2(floor(prevPos - 0.5)), last = ivec2(pc.prevRenderSize) - 1;
    vec4 zp;
    if (all(lessThanEqual(base + 1, last))) {
        zp = textureGather(prevLinearDepth, (vec2(base) + 1.0) * pc.depthTexelSize, 0);
    } else {
        zp = vec4(texelFetch(prevLinearDepth, clamp(base, ivec2(0), last), 0).r, texelFetch(prevLinearDepth, clamp(base + ivec2(1, 0), ivec2(0), last), 0).r,
                  texelFetch(prevLinearDepth, clamp(base + ivec2(0, 1), ivec2(0), last), 0).r, texelFetch(prevLinearDepth, clamp(base + 1, ivec2(0), last), 0).r);
    }
    // The confidence falls with the relative difference: the best texel is the least different one.
    vec4 relative = abs(zp - z) / max(min(zp, vec4(z)), vec4(1e-6));
    float least = min(min(relative.x, relative.y), min(relative.z, relative.w));
    return 1.0 - smoothstep(pc.depthTolerance, 2.0 * pc.depthTolerance, least);
}

// This frame's linear depth, read by the next frame's depth test, is written by the display
// passes: each render pixel by exactly one invocation. Workgroup g of gl_WorkGroupSize display
// pixels along an axis owns the render pixels [P(g), P(g + 1)), P(g) = (g * size *
// pc.depthOwnerScale) >> 16 with the scale ceil(render * 65536 / display) <= 65536: monotone,
// P(0) = 0, P past the display >= the render size, and at most gl_WorkGroupSize apart, so one
// invocation per owned pixel suffices. Returns the pixel and whether this invocation owns one.
bool ownedRenderPixel(out ivec2 p) {
    const uvec2 size = gl_WorkGroupSize.xy, g = gl_WorkGroupID.xy;
    uvec2 first = (g * size * pc.depthOwnerScale) >> 16u, next = min(((g + 1u) * size * pc.depthOwnerScale) >> 16u, pc.renderSize);
    p = ivec2(first + gl_LocalInvocationID.xy);
    return all(lessThan(uvec2(p), next));
}

// The render samples of a workgroup's block of output pixels. With STAGED_CURRENT_SAMPLES (an
// 8x8 workgroup of output pixels): the samples the block's 3x3 neighbourhoods cover are fetched
// and converted once per workgroup into shared memory (colour in YCoCg working space, depth,
// motion) instead of nine texel fetches and conversions per output pixel (about 36 per render
// pixel at 2x). The weighted sums are then taken in YCoCg and converted back once (the conversion
// is linear, so the result is the same up to rounding). Only the block's own region is fetched:
// 6x6 or 7x7 render pixels at 2x, one texel of each image for at most one invocation. Blocks
// wider than STAGE_EDGE render pixels (render larger than display, which the effect's validation
// refuses) fetch directly. H100, 1080p -> 4K: the ML feature pass 0.344 -> 0.298 ms, the TAAU
// resolve 0.300 -> 0.269 ms (both passes use it).
struct SampleBlock {
    ivec2 origin;  // render pixel of stagedSamples[0]
    ivec2 extent;  // render pixels the block's neighbourhoods cover
    bool staged;   // uniform across the workgroup
};

#ifdef STAGED_CURRENT_SAMPLES
const int STAGE_EDGE = 10;  // 8 output pixels at render/display <= 1, plus the 3x3 halo
const int STAGE_TILES = (STAGE_EDGE + 7) / 8;  // per axis, of the 8x8 workgroup
shared vec4 stagedSamples[STAGE_EDGE * STAGE_EDGE];  // YCoCg working-space colour, nearToFar() depth
shared vec2 stagedMotion[STAGE_EDGE * STAGE_EDGE];   // scaledMotion()

SampleBlock sampleBlock() {
    ivec2 first = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy), last = first + ivec2(gl_WorkGroupSize.xy) - 1;
    ivec2 display = ivec2(pc.displaySize) - 1;
    ivec2 lo = centreSample(min(first, display)) - 1, hi = centreSample(min(last, display)) + 1;
    return SampleBlock(lo, hi - lo + 1, all(lessThanEqual(hi - lo + 1, ivec2(STAGE_EDGE))));
}

// The block's region in tiles of the workgroup (one tile at 2x, up to four at 1x), all of an
// invocation's fetches issued before the first conversion waits for one.
void stageSamples(SampleBlock b) {
    ivec2 size = ivec2(pc.renderSize);
    ivec2 at[STAGE_TILES * STAGE_TILES];
    vec3 colour[STAGE_TILES * STAGE_TILES];
    vec2 motion[STAGE_TILES * STAGE_TILES];
    float depth[STAGE_TILES * STAGE_TILES];
    for (int t = 0; t < STAGE_TILES * STAGE_TILES; ++t) {
        at[t] = ivec2(gl_LocalInvocationID.xy) + 8 * ivec2(t % STAGE_TILES, t / STAGE_TILES);
        if (all(lessThan(at[t], b.extent))) {
            ivec2 q = clamp(b.origin + at[t], ivec2(0), size - 1);
            colour[t] = texelFetch(colorTex, q, 0).rgb;
            depth[t] = texelFetch(depthTex, q, 0).r;
            motion[t] = texelFetch(motionTex, q, 0).rg;
        }
    }
    for (int t = 0; t < STAGE_TILES * STAGE_TILES; ++t) {
        if (all(lessThan(at[t], b.extent))) {
            int i = at[t].y * STAGE_EDGE + at[t].x;
            stagedSamples[i] = vec4(rgbToYCoCg(toWorkingSpace(colour[t], pc.flags, pc.exposure)), nearToFar(depth[t]));
            stagedMotion[i] = scaledMotion(motion[t]);
        }
    }
}
#endif

// Call first, from every invocation of the workgroup: writes this frame's linear depth (the
// pixel this invocation owns, if any) and, with STAGED_CURRENT_SAMPLES, stages the block's
// samples. The owned pixel's depth is fetched before the staged texels, so that one wait covers
// them all.
SampleBlock beginBlock() {
    ivec2 owned;
    const bool owns = ownedRenderPixel(owned);
    float ownedDepth = 0.0;
    if (owns) ownedDepth = texelFetch(depthTex, owned, 0).r;
#ifdef STAGED_CURRENT_SAMPLES
    SampleBlock b = sampleBlock();
    if (b.staged) stageSamples(b);
#else
    SampleBlock b = SampleBlock(ivec2(0), ivec2(0), false);
#endif
    if (owns) imageStore(linearDepthOut, owned, vec4(linearDepth(nearToFar(ownedDepth))));
    if (b.staged) barrier();  // uniform
    return b;
}

CurrentSamples gatherCurrent(ivec2 o, SampleBlock block) {
    CurrentSamples s;
    vec2 renderPerDisplay = vec2(pc.renderSize) / vec2(pc.displaySize);
    vec2 p = (vec2(o) + 0.5) * renderPerDisplay;  // output pixel centre, unjittered render pixels
    ivec2 size = ivec2(pc.renderSize);
    ivec2 c = centreSample(o);
    vec3 sumNarrow = vec3(0.0), sumWide = vec3(0.0), m1 = vec3(0.0), m2 = vec3(0.0);
    float wNarrow = 0.0, wWide = 0.0;
    vec3 narrowX, narrowY, wideX, wideY;
    for (int k = 0; k < 3; ++k) {
        vec2 toCentre = vec2(c + ivec2(k - 1)) + 0.5 - pc.jitter - p;
        vec2 n = narrowWeightXY(toCentre, renderPerDisplay, pc.narrowFalloff), w = wideWeightXY(toCentre);
        narrowX[k] = n.x; narrowY[k] = n.y;
        wideX[k] = w.x; wideY[k] = w.y;
    }
    // The nearest surface among the 3x3 samples (the first in scan order on ties, the centre
    // before all) carries the motion.
    float centreDepth, nearestDepth;
#ifdef FASTEST_MOTION
    float largest = 0.0;
#endif
#ifdef STAGED_CURRENT_SAMPLES
    if (block.staged) {
        ivec2 at = c - block.origin;
        int centre = at.y * STAGE_EDGE + at.x, nearest = centre;
        centreDepth = nearestDepth = stagedSamples[centre].w;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                int i = centre + dy * STAGE_EDGE + dx;
                vec4 staged = stagedSamples[i];
                vec3 y = staged.xyz;
                float wn = narrowX[dx + 1] * narrowY[dy + 1], ww = wideX[dx + 1] * wideY[dy + 1];
                sumNarrow += y * wn;
                sumWide += y * ww;
                wNarrow += wn;
                wWide += ww;
                m1 += y;
                m2 += y * y;
#ifdef FASTEST_MOTION
                largest = max(largest, dot(stagedMotion[i], stagedMotion[i]));
#endif
                if (staged.w < nearestDepth) {
                    nearestDepth = staged.w;
                    nearest = i;
                }
            }
        sumNarrow = yCoCgToRgb(sumNarrow);
        sumWide = yCoCgToRgb(sumWide);
        s.motion = stagedMotion[nearest];
    } else
#endif
    {
        ivec2 nearest = c;
        centreDepth = nearestDepth = nearToFar(texelFetch(depthTex, c, 0).r);
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                ivec2 q = clamp(c + ivec2(dx, dy), ivec2(0), size - 1);
                vec3 colour = toWorkingSpace(texelFetch(colorTex, q, 0).rgb, pc.flags, pc.exposure);
                float wn = narrowX[dx + 1] * narrowY[dy + 1], ww = wideX[dx + 1] * wideY[dy + 1];
                sumNarrow += colour * wn;
                sumWide += colour * ww;
                wNarrow += wn;
                wWide += ww;
                vec3 y = rgbToYCoCg(colour);
                m1 += y;
                m2 += y * y;
#ifdef FASTEST_MOTION
                vec2 mq = scaledMotion(texelFetch(motionTex, q, 0).rg);
                largest = max(largest, dot(mq, mq));
#endif
                float d = nearToFar(texelFetch(depthTex, q, 0).r);
                if (d < nearestDepth) {
                    nearestDepth = d;
                    nearest = q;
                }
            }
        s.motion = scaledMotion(texelFetch(motionTex, nearest, 0).rg);
    }
#ifdef FASTEST_MOTION
    s.fastestMotion = sqrt(largest);
#endif
    s.wide = sumWide / max(wWide, 1e-6);
    s.narrow = wNarrow > 1e-4 ? sumNarrow / wNarrow : s.wide;
    s.narrowWeight = wNarrow;
    // Static content keeps what it accumulated (disocclusion is the depth test's job); moving
    // content is clipped tightly, since resampling the history smears it.
    float moving = clamp(length(s.motion / renderPerDisplay), 0.0, 1.0);
    float gamma = mix(pc.clampGammaStatic, pc.clampGammaMoving, moving);
    vec3 mean = m1 / 9.0, sigma = sqrt(max(m2 / 9.0 - mean * mean, vec3(0.0)));
    s.boxLo = mean - gamma * sigma;
    s.boxHi = mean + gamma * sigma;
    s.confidence = historyConfidence(c, s.motion, linearDepth(centreDepth));
    s.renderPixel = c;
    return s;
}

#ifdef FASTEST_MOTION
// The cap of this pixel's accumulated sample weight: pc.maxHistoryWeight where the content is
// still, pc.movingHistoryWeight once the fastest of its 3x3 samples moves MOVING_FULL_MOTION
// display pixels per frame, linear between (upscaler_shared.h says why). Render and display share
// one aspect ratio up to rounding, so one axis's scale converts the length.
float movingHistoryCap(CurrentSamples cur) {
    float displayMotion = cur.fastestMotion * float(pc.displaySize.x) / float(pc.renderSize.x);
    return mix(pc.maxHistoryWeight, pc.movingHistoryWeight, clamp(displayMotion / MOVING_FULL_MOTION, 0.0, 1.0));
}
#endif

struct HistorySample {
    vec3 raw;       // reprojected history colour (working space)
    vec3 clipped;   // clipped to the neighbourhood box
    float weight;   // accumulated weight (TAAU) or learned state (ML) x validity; 0 = no history
    float state;    // the history's alpha as stored
    float valid;    // 0..1: history exists, lies inside the frame, passes the depth test, not reactive
};

HistorySample fetchHistory(ivec2 o, CurrentSamples cur) {
    HistorySample h;
    vec2 renderPerDisplay = vec2(pc.renderSize) / vec2(pc.displaySize);
    vec2 prevUv = (vec2(o) + 0.5 + cur.motion / renderPerDisplay) / vec2(pc.displaySize);
    bool inside = all(greaterThanEqual(prevUv, vec2(0.0))) && all(lessThanEqual(prevUv, vec2(1.0)));
    // The TAAU resolve fetches with 5 taps; the ML feature pass as the model's "vkml.history_taps"
    // says (its features were trained with that fetch; tools/train/temporal.py mirrors both).
#ifdef HISTORY_FETCH_5_TAPS
    vec4 fetched = catmullRom5(historyTex, prevUv, vec2(pc.displaySize));
#else
    vec4 fetched = catmullRom(historyTex, prevUv, vec2(pc.displaySize));
#endif
    // Without valid history (first frame, reset) nothing of the old images is used, not even as
    // a feature: a reset frame depends on this frame's inputs alone.
    if ((pc.flags & FLAG_HISTORY_VALID) == 0u || !finite3(fetched.rgb) || isnan(fetched.a) || isinf(fetched.a)) fetched = vec4(0.0);
    h.raw = clamp(fetched.rgb, vec3(0.0), vec3(1.0));
    h.clipped = yCoCgToRgb(clipToBox(rgbToYCoCg(h.raw), cur.boxLo, cur.boxHi));
    h.clipped = clamp(h.clipped, vec3(0.0), vec3(1.0));
    h.state = clamp(fetched.a, 0.0, 1e4);
    float valid = ((pc.flags & FLAG_HISTORY_VALID) != 0u && inside) ? cur.confidence : 0.0;
    if ((pc.flags & FLAG_HAS_REACTIVE) != 0u) {
        float reactive = texelFetch(reactiveTex, cur.renderPixel, 0).r;
        valid *= isnan(reactive) ? 0.0 : 1.0 - clamp(reactive, 0.0, 1.0);
    }
    h.valid = valid;
    h.weight = h.state * valid;
    return h;
}

#endif
