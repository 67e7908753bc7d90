#ifndef ENGINE_SRGB_GLSL
#define ENGINE_SRGB_GLSL
vec3 linearToSrgb(vec3 c) {
    return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
}
#endif
