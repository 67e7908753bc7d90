#version 460
// Arithmetic ceiling for ml_bench: every invocation runs CHAINS independent vec4 FMA chains
// (enough independent work to hide FMA latency) for `iterations` steps, 4 unrolled per loop
// trip. Multiplier and addend come from push constants so nothing folds at compile time; the
// result is stored so nothing is dead. FP16: f16vec4 arithmetic (shaderFloat16).
#ifdef FP16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define VEC f16vec4
#define SCALAR float16_t
#else
#define VEC vec4
#define SCALAR float
#endif
#define CHAINS 8

layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) writeonly buffer Out { vec4 result[]; };
layout(push_constant) uniform Push {
    uint iterations;  // multiple of 4
    float multiplier;
    float addend;
} p;

void main() {
    VEC m = VEC(SCALAR(p.multiplier)), k = VEC(SCALAR(p.addend));
    VEC acc[CHAINS];
    for (int c = 0; c < CHAINS; ++c) acc[c] = VEC(SCALAR(float(gl_GlobalInvocationID.x & 255u) * 1e-3 + float(c)));
    for (uint i = 0; i < p.iterations; i += 4) {
        for (int c = 0; c < CHAINS; ++c) acc[c] = fma(acc[c], m, k);
        for (int c = 0; c < CHAINS; ++c) acc[c] = fma(acc[c], m, k);
        for (int c = 0; c < CHAINS; ++c) acc[c] = fma(acc[c], m, k);
        for (int c = 0; c < CHAINS; ++c) acc[c] = fma(acc[c], m, k);
    }
    VEC sum = acc[0];
    for (int c = 1; c < CHAINS; ++c) sum += acc[c];
    result[gl_GlobalInvocationID.x] = vec4(sum);
}
