#version 460
// The demo's view pass (output resolution, after the output stage): split-screen A/B, zoom lens
// and the text overlay, composed into the output image. A is the frame as the output stage left
// it (copied to `frameA` first, so the lens can read pixels this pass overwrites); B is a
// built-in filter of the render-resolution colour, computed here for the right half.
#extension GL_GOOGLE_include_directive : require
#include "resample.glsl"
#include "view_shared.h"

layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D frameA;    // nearest
layout(set = 0, binding = 1) uniform sampler2D lowRes;    // linear (bilinear B)
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D destination;
// The font (view_pass.cpp: 5x7 ASCII, characters 32..126, five column bytes per glyph with bit 0
// the top row, packed as (columns 0-3, column 4)), then the text, row-major. A buffer rather than
// a constant array: dynamically indexed constant arrays are copied per invocation on some drivers.
layout(set = 0, binding = 3) readonly buffer Text { uint font[VIEW_FONT_WORDS]; uint chars[]; };

layout(push_constant) uniform Push { ViewPush pc; };

bool glyphPixel(uint c, ivec2 cell) {  // cell: 0..4 x 0..6
    if (c < 32u || c > 126u) return false;
    uint i = (c - 32u) * 2u;
    uint column = cell.x < 4 ? (font[i] >> (8u * uint(cell.x))) & 0xFFu : font[i + 1u];
    return ((column >> uint(cell.y)) & 1u) != 0u;
}

vec3 sideB(ivec2 p) {
    vec2 uv = (vec2(p) + 0.5) / vec2(pc.outWidth, pc.outHeight);
    if ((pc.flags & VIEW_B_BICUBIC) != 0u) return sampleCatmullRom(lowRes, uv, ivec2(pc.lowWidth, pc.lowHeight)).rgb;
    return textureLod(lowRes, uv, 0.0).rgb;
}

vec3 composite(ivec2 p) {
    if ((pc.flags & VIEW_SPLIT) != 0u && p.x >= pc.splitX) return sideB(p);
    return texelFetch(frameA, p, 0).rgb;
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(pc.outWidth) || p.y >= int(pc.outHeight)) return;
    vec3 color = composite(p);
    if ((pc.flags & VIEW_SPLIT) != 0u && (p.x == pc.splitX || p.x == pc.splitX - 1)) color = vec3(1.0, 0.85, 0.2);

    if ((pc.flags & VIEW_ZOOM) != 0u) {
        ivec2 centre = ivec2(pc.zoomX, pc.zoomY), d = p - centre;
        int r = pc.zoomRadius;
        if (max(abs(d.x), abs(d.y)) <= r) {
            // Nearest neighbour: each source pixel becomes a zoomFactor x zoomFactor block.
            ivec2 src = clamp(centre + ivec2(floor(vec2(d) / float(pc.zoomFactor))), ivec2(0), ivec2(pc.outWidth, pc.outHeight) - 1);
            color = max(abs(d.x), abs(d.y)) >= r - 1 ? vec3(1.0) : composite(src);
        }
    }

    if ((pc.flags & VIEW_OVERLAY) != 0u) {
        ivec2 cellSize = ivec2(6, 9) * pc.textScale;
        ivec2 origin = ivec2(4);
        ivec2 t = p - origin;
        if (all(greaterThanEqual(t, ivec2(-2))) && t.x < int(pc.textColumns) * cellSize.x + 2 && t.y < int(pc.textRows) * cellSize.y + 2) {
            color *= 0.35;  // darkened box behind the text
            ivec2 cell = t / cellSize, inCell = (t % cellSize) / pc.textScale;
            if (all(greaterThanEqual(t, ivec2(0))) && cell.x < int(pc.textColumns) && cell.y < int(pc.textRows) &&
                inCell.x < 5 && inCell.y < 7 && glyphPixel(chars[cell.y * int(pc.textColumns) + cell.x], inCell))
                color = vec3(1.0);
        }
    }
    imageStore(destination, p, vec4(color, 1.0));
}
