// This frame's samples around an output pixel and the reprojected history, shared by the TAAU
// resolve and the ML feature pass. Expects colorTex, reprojectionTex, historyTex, reactiveTex and
// the ResolvePush `pc` to be declared.
#ifndef EFFECTS_UPSCALER_CURRENT_GLSL
#define EFFECTS_UPSCALER_CURRENT_GLSL

struct CurrentSamples {
    vec3 narrow;         // narrow-kernel average of the 3x3 samples (the new information)
    float narrowWeight;  // its total kernel weight: 1 when a sample sits on the pixel centre
    vec3 wide;           // wide-kernel average (spatial upsampling)
    vec3 boxLo, boxHi;   // neighbourhood box, YCoCg
    vec2 motion;         // render pixels
    float confidence;    // history confidence from the depth test
    ivec2 renderPixel;   // the render pixel holding the output pixel's centre
};

// The render pixel holding output pixel o's centre (jittered), clamped to the image.
ivec2 centreSample(ivec2 o) {
    vec2 p = (vec2(o) + 0.5) * (vec2(pc.renderSize) / vec2(pc.displaySize));
    return clamp(ivec2(floor(p + pc.jitter)), ivec2(0), ivec2(pc.renderSize) - 1);
}

#ifdef STAGED_CURRENT_SAMPLES
// With STAGED_CURRENT_SAMPLES (an 8x8 workgroup of output pixels that calls stageCurrentSamples()
// in uniform control flow first): the render samples the block's 3x3 neighbourhoods cover are
// fetched and converted once per workgroup into shared memory, in YCoCg working space, instead of
// nine texel fetches and conversions per output pixel (about 36 per render pixel at 2x). The
// weighted sums are then taken in YCoCg and converted back once (the conversion is linear, so
// the result is the same up to rounding). Blocks wider than STAGE_EDGE render pixels (render
// larger than display, which the effect's validation refuses) fetch directly. H100, 1080p -> 4K:
// the ML feature pass 0.344 -> 0.298 ms, the TAAU resolve 0.300 -> 0.269 ms (both passes use it).
const int STAGE_EDGE = 10;  // 8 output pixels at render/display <= 1, plus the 3x3 halo
shared vec3 stagedYCoCg[STAGE_EDGE * STAGE_EDGE];

struct StagedBlock {
    ivec2 origin;  // render pixel of stagedYCoCg[0]
    bool staged;
};

StagedBlock stagedBlock() {
    ivec2 first = ivec2(gl_WorkGroupID.xy * gl_WorkGroupSize.xy), last = first + ivec2(gl_WorkGroupSize.xy) - 1;
    ivec2 display = ivec2(pc.displaySize) - 1;
    ivec2 lo = centreSample(min(first, display)) - 1, hi = centreSample(min(last, display)) + 1;
    return StagedBlock(lo, all(lessThan(hi - lo, ivec2(STAGE_EDGE))));
}

void stageCurrentSamples() {
    StagedBlock b = stagedBlock();
    if (!b.staged) return;  // uniform across the workgroup
    ivec2 size = ivec2(pc.renderSize);
    for (uint i = gl_LocalInvocationIndex; i < uint(STAGE_EDGE * STAGE_EDGE); i += gl_WorkGroupSize.x * gl_WorkGroupSize.y) {
        ivec2 q = clamp(b.origin + ivec2(int(i) % STAGE_EDGE, int(i) / STAGE_EDGE), ivec2(0), size - 1);
        stagedYCoCg[i] = rgbToYCoCg(toWorkingSpace(texelFetch(colorTex, q, 0).rgb, pc.flags, pc.exposure));
    }
    barrier();
}
#endif

CurrentSamples gatherCurrent(ivec2 o) {
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
#ifdef STAGED_CURRENT_SAMPLES
    StagedBlock block = stagedBlock();
    if (block.staged) {
        ivec2 at = c - block.origin;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                vec3 y = stagedYCoCg[(at.y + dy) * STAGE_EDGE + at.x + dx];
                float wn = narrowX[dx + 1] * narrowY[dy + 1], ww = wideX[dx + 1] * wideY[dy + 1];
                sumNarrow += y * wn;
                sumWide += y * ww;
                wNarrow += wn;
                wWide += ww;
                m1 += y;
                m2 += y * y;
            }
        sumNarrow = yCoCgToRgb(sumNarrow);
        sumWide = yCoCgToRgb(sumWide);
    } else
#endif
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
        }
    s.wide = sumWide / max(wWide, 1e-6);
    s.narrow = wNarrow > 1e-4 ? sumNarrow / wNarrow : s.wide;
    s.narrowWeight = wNarrow;
    vec4 r = texelFetch(reprojectionTex, c, 0);
    s.motion = r.xy;
    // Static content keeps what it accumulated (disocclusion is the depth test's job); moving
    // content is clipped tightly, since resampling the history smears it.
    float moving = clamp(length(s.motion / renderPerDisplay), 0.0, 1.0);
    float gamma = mix(pc.clampGammaStatic, pc.clampGammaMoving, moving);
    vec3 mean = m1 / 9.0, sigma = sqrt(max(m2 / 9.0 - mean * mean, vec3(0.0)));
    s.boxLo = mean - gamma * sigma;
    s.boxHi = mean + gamma * sigma;
    s.confidence = r.z;
    s.renderPixel = c;
    return s;
}

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
#ifdef HISTORY_FETCH_5_TAPS
    vec4 fetched = catmullRom5(historyTex, prevUv, vec2(pc.displaySize));
#else
    vec4 fetched = catmullRom(historyTex, prevUv, vec2(pc.displaySize));  // what temporal.py mirrors
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
