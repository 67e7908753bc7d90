// Shared by every mlplugin compute shader.
//
// Buffers: the dispatchable's descriptor set has one binding, an array of storage buffers
// (kDescriptorsPerSet = 16 slots; see mlplugin/src/kernel.h for the slot numbering). It is
// declared once per element type, all aliasing binding 0, so a kernel reads fp32 or fp16 from
// any slot. Slot indices are specialization constants or push constants (dynamically uniform).
//
// Variants: every shader is built twice by CMake:
//   <name>_f32: no 16-bit types at all (runs on any device);
//   <name>_f16: HAS_F16 defined: 16-bit storage + fp16 arithmetic types available.
// Tensor element types are runtime parameters (spec/push constants): DTYPE_F32 or DTYPE_F16.
#ifndef MLP_COMMON_GLSL
#define MLP_COMMON_GLSL

#extension GL_EXT_scalar_block_layout : enable
#extension GL_EXT_control_flow_attributes : enable
#ifdef HAS_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif

#define MLP_SLOTS 16
#define PERSISTENT_SLOT 14
#define TEMPORARY_SLOT 15
#define DTYPE_F32 0u
#define DTYPE_F16 1u

layout(set = 0, binding = 0) buffer HeapF32 { float v[]; } heapF32[MLP_SLOTS];
layout(set = 0, binding = 0) buffer HeapVec4 { vec4 v[]; } heapVec4[MLP_SLOTS];
#ifdef HAS_F16
layout(set = 0, binding = 0) buffer HeapF16 { float16_t v[]; } heapF16[MLP_SLOTS];
layout(set = 0, binding = 0) buffer HeapF16x4 { f16vec4 v[]; } heapF16x4[MLP_SLOTS];
#endif

float loadElem(uint slot, uint dtype, uint index) {
#ifdef HAS_F16
    if (dtype == DTYPE_F16) return float(heapF16[slot].v[index]);
#endif
    return heapF32[slot].v[index];
}

void storeElem(uint slot, uint dtype, uint index, float value) {
#ifdef HAS_F16
    if (dtype == DTYPE_F16) { heapF16[slot].v[index] = float16_t(value); return; }
#endif
    heapF32[slot].v[index] = value;
}

// Linear invocation index for 1-D work spread over x and y (see detail::linearGroups).
// A macro, not a function: this file is included before the shader's local_size layout, and
// a function body here would see gl_WorkGroupSize as the default (1, 1, 1), so every workgroup
// row after the first would start at the wrong index.
#define linearInvocation() (gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x)

// Activation functions; ids match mlplugin::ActivationType.
#define ACT_NONE 0u
#define ACT_LINEAR 1u
#define ACT_RELU 2u
#define ACT_LEAKY_RELU 3u
#define ACT_ELU 4u
#define ACT_SELU 5u
#define ACT_SIGMOID 6u
#define ACT_HARD_SIGMOID 7u
#define ACT_TANH 8u
#define ACT_SOFTPLUS 9u
#define ACT_GELU 10u
#define ACT_SILU 11u
#define ACT_HARD_SWISH 12u
#define ACT_GELU_TANH 13u
// Internal (no ActivationType): tanh as 1 - 2 / (exp(2x) + 1), an exponential and a reciprocal
// instead of the driver's accurate tanh. Absolute error ~1e-7, so relative error grows near 0
// (~1e-4 at |x| = 1e-3): convolutions with fp16 outputs get it in place of ACT_TANH when
// AllowHalfPrecisionComputation is set (convolution.cpp has the measurements).
#define ACT_TANH_FAST 100u
// Builds with F16_ARITH (used only under AllowHalfPrecisionComputation) evaluate ACT_TANH_FAST as
// an fp16 tanh instead, which the hardware has as one instruction (H100: ESPCN x2 at 1080p 1.205
// -> 1.19 ms); its error (~1e-3 relative) is that of the fp16 output it is stored in.
#if defined(HAS_F16) && defined(F16_ARITH)
#define TANH_FAST(x) vec4(tanh(f16vec4(clamp(x, -15.0, 15.0))))
#define TANH_FAST1(x) float(tanh(float16_t(clamp(x, -15.0, 15.0))))
#else
#define TANH_FAST(x) (1.0 - 2.0 / (exp(2.0 * clamp(x, -15.0, 15.0)) + 1.0))
#define TANH_FAST1(x) TANH_FAST(x)
#endif

// tanh without the NaN some drivers give for large |x| (exp overflow).
#define SAFE_TANH(x) tanh(clamp(x, -15.0, 15.0))

float mlpErf(float x) {
    // Abramowitz-Stegun 7.1.26 is too coarse for fp32 tolerances; use a rational approximation
    // with max abs error ~1.2e-7 (W. J. Cody style, via erfc for |x| > 0.5).
    float ax = abs(x);
    float t = 1.0 / (1.0 + 0.5 * ax);
    float y = t * exp(-ax * ax - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
              t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 +
              t * (-0.82215223 + t * 0.17087277)))))))));
    return sign(x) * (1.0 - y);
}

vec4 mlpErf4(vec4 x) {
    vec4 ax = abs(x);
    vec4 t = 1.0 / (1.0 + 0.5 * ax);
    vec4 y = t * exp(-ax * ax - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
             t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 +
             t * (-0.82215223 + t * 0.17087277)))))))));
    return sign(x) * (1.0 - y);
}

// applyActivation on four values at once. Kernels that keep many accumulators per invocation
// apply it once to their vec4s (one switch, vector math) rather than once per stored element.
vec4 applyActivation4(uint type, float alpha, float beta, vec4 x) {
    switch (type) {
    case ACT_LINEAR: return alpha * x + beta;
    case ACT_RELU: return max(x, vec4(0.0));
    case ACT_LEAKY_RELU: return mix(alpha * x, x, greaterThanEqual(x, vec4(0.0)));
    case ACT_ELU: return mix(alpha * (exp(x) - 1.0), x, greaterThanEqual(x, vec4(0.0)));
    case ACT_SELU: return beta * mix(alpha * (exp(x) - 1.0), x, greaterThan(x, vec4(0.0)));
    case ACT_SIGMOID: return 1.0 / (1.0 + exp(-x));
    case ACT_HARD_SIGMOID: return clamp(alpha * x + beta, 0.0, 1.0);
    case ACT_TANH: return tanh(clamp(x, -15.0, 15.0));
    case ACT_TANH_FAST: return TANH_FAST(x);
    case ACT_SOFTPLUS: {
        vec4 s = alpha * x;
        return (max(s, vec4(0.0)) + log(1.0 + exp(-abs(s)))) / alpha;
    }
    case ACT_GELU: return 0.5 * x * (1.0 + mlpErf4(x * 0.70710678118654752));
    case ACT_SILU: return x / (1.0 + exp(-x));
    case ACT_HARD_SWISH: return x * clamp(x / 6.0 + 0.5, 0.0, 1.0);
    case ACT_GELU_TANH: return 0.5 * x * (1.0 + SAFE_TANH(0.79788456080286536 * (x + 0.044715 * x * x * x)));
    default: return x;
    }
}

float applyActivation(uint type, float alpha, float beta, float x) {
    switch (type) {
    case ACT_LINEAR: return alpha * x + beta;
    case ACT_RELU: return max(x, 0.0);
    case ACT_LEAKY_RELU: return x >= 0.0 ? x : alpha * x;
    case ACT_ELU: return x >= 0.0 ? x : alpha * (exp(x) - 1.0);
    case ACT_SELU: return beta * (x > 0.0 ? x : alpha * (exp(x) - 1.0));
    case ACT_SIGMOID: return 1.0 / (1.0 + exp(-x));
    case ACT_HARD_SIGMOID: return clamp(alpha * x + beta, 0.0, 1.0);
    case ACT_TANH: {
        // tanh() of large |x| can produce NaN on some drivers (exp overflow); clamp first.
        float c = clamp(x, -15.0, 15.0);
        return tanh(c);
    }
    case ACT_TANH_FAST: return TANH_FAST1(x);
    case ACT_SOFTPLUS: {
        float s = alpha * x;
        // log(1 + exp(s)) without overflow.
        return (max(s, 0.0) + log(1.0 + exp(-abs(s)))) / alpha;
    }
    case ACT_GELU: return 0.5 * x * (1.0 + mlpErf(x * 0.70710678118654752));
    case ACT_SILU: return x / (1.0 + exp(-x));
    case ACT_HARD_SWISH: return x * clamp(x / 6.0 + 0.5, 0.0, 1.0);
    case ACT_GELU_TANH: return 0.5 * x * (1.0 + SAFE_TANH(0.79788456080286536 * (x + 0.044715 * x * x * x)));
    default: return x;
    }
}

#endif
