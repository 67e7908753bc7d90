#version 460
// G-buffer pass, background (see gbuffer_sky.vert): no surface, only motion.
layout(location = 0) noperspective in vec4 inPrevPixels;
layout(location = 1) noperspective in vec2 inPixels;
layout(location = 0) out vec4 outAlbedo;
layout(location = 1) out vec4 outNormal;
layout(location = 2) out vec2 outMotion;

void main() {
    outAlbedo = vec4(0.0);
    outNormal = vec4(0.0);
    outMotion = inPrevPixels.xy / inPrevPixels.w - inPixels;
}
