#version 450
#extension GL_GOOGLE_include_directive : require
// Element-wise operators: out = activation(op(a * scale + bias, b * scale + bias)).
//
// Two paths, chosen by the planner through PACKED:
//   generic: one output element per invocation; the linear output index is split into up to
//            8 coordinates (dims already collapsed by the planner; the inner 5 in push
//            constants, the outer 3 as specialization constants, loop_dims.glsl) and each
//            tensor is addressed with its own strides (0 where an input broadcasts).
//   packed:  every tensor is packed with the output's sizes: 4 elements per invocation with
//            vec4 loads/stores; the last invocation handles a count that is not a multiple of 4
//            element by element.
//   per-channel: a and out packed, b broadcast but along one dim (a [1, C, 1, 1] slope, scale or
//            bias), the dims inside it a multiple of 4: vec4 a/out, one b per 4 elements at
//            ((first / inner) % channels) * stride (push constants reuse sizes[0..2]).
// Slots: a = 0, b = 1 (bound empty for unary ops), out = OUT_SLOT.
#include "common.glsl"
#include "loop_dims.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

// Op ids match mlplugin::ElementWiseOp.
#define OP_IDENTITY 0u
#define OP_SQRT 1u
#define OP_RECIPROCAL 2u
#define OP_EXP 3u
#define OP_LOG 4u
#define OP_ABS 5u
#define OP_NEGATE 6u
#define OP_CLIP 7u
#define OP_ACTIVATION 8u
#define OP_ADD 9u
#define OP_SUBTRACT 10u
#define OP_MULTIPLY 11u
#define OP_DIVIDE 12u
#define OP_MIN 13u
#define OP_MAX 14u
#define OP_POW 15u
#define OP_PRELU 16u

layout(constant_id = 3) const uint OP = OP_IDENTITY;
layout(constant_id = 4) const uint DTYPE_A = DTYPE_F32;
layout(constant_id = 5) const uint DTYPE_B = DTYPE_F32;
layout(constant_id = 6) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 7) const uint OUT_SLOT = 2u;
layout(constant_id = 8) const uint ACT_TYPE = ACT_NONE;
layout(constant_id = 9) const float ACT_ALPHA = 0.0;
layout(constant_id = 10) const float ACT_BETA = 0.0;
layout(constant_id = 11) const float IN_SCALE = 1.0;
layout(constant_id = 12) const float IN_BIAS = 0.0;
layout(constant_id = 13) const float CLIP_MIN = 0.0;
layout(constant_id = 14) const float CLIP_MAX = 0.0;
layout(constant_id = 15) const bool PACKED = false;
layout(constant_id = 16) const uint RANK = 5u;  // dims actually used by the generic path
layout(constant_id = 17) const bool PER_CHANNEL = false;
OUTER_ARRAY(OUTER_SIZE, 18, 19, 20, 1u)
OUTER_ARRAY(OUTER_STRIDE_A, 21, 22, 23, 0u)
OUTER_ARRAY(OUTER_STRIDE_B, 24, 25, 26, 0u)
OUTER_ARRAY(OUTER_STRIDE_OUT, 27, 28, 29, 0u)

layout(push_constant) uniform Push {
    uint count;        // output elements
    uint sizes[PUSH_DIMS];     // inner output sizes, innermost last (generic path)
    uint strideA[PUSH_DIMS];
    uint strideB[PUSH_DIMS];
    uint strideOut[PUSH_DIMS];
} pc;

const bool BINARY = OP >= OP_ADD;

// pow() is undefined for a negative base in GLSL; give the real result for integer exponents.
float powReal(float a, float b) {
    float r = pow(abs(a), b);
    if (a >= 0.0) return r;
    if (fract(b) != 0.0) return uintBitsToFloat(0x7fc00000u);  // NaN, as std::pow
    return mod(b, 2.0) == 1.0 ? -r : r;
}

float evaluate(float a, float b) {
    a = a * IN_SCALE + IN_BIAS;
    if (BINARY) b = b * IN_SCALE + IN_BIAS;
    float y;
    switch (OP) {
    case OP_SQRT: y = sqrt(a); break;
    case OP_RECIPROCAL: y = 1.0 / a; break;
    case OP_EXP: y = exp(a); break;
    case OP_LOG: y = log(a); break;
    case OP_ABS: y = abs(a); break;
    case OP_NEGATE: y = -a; break;
    case OP_CLIP: y = clamp(a, CLIP_MIN, CLIP_MAX); break;
    case OP_ADD: y = a + b; break;
    case OP_SUBTRACT: y = a - b; break;
    case OP_MULTIPLY: y = a * b; break;
    case OP_DIVIDE: y = a / b; break;
    case OP_MIN: y = min(a, b); break;
    case OP_MAX: y = max(a, b); break;
    case OP_POW: y = powReal(a, b); break;
    case OP_PRELU: y = a >= 0.0 ? a : b * a; break;
    default: y = a; break;  // identity; OP_ACTIVATION is the activation below
    }
    return applyActivation(ACT_TYPE, ACT_ALPHA, ACT_BETA, y);
}

vec4 loadVec4(uint slot, uint dtype, uint index4) {
#ifdef HAS_F16
    if (dtype == DTYPE_F16) return vec4(heapF16x4[slot].v[index4]);
#endif
    return heapVec4[slot].v[index4];
}

void storeVec4(uint slot, uint dtype, uint index4, vec4 value) {
#ifdef HAS_F16
    if (dtype == DTYPE_F16) { heapF16x4[slot].v[index4] = f16vec4(value); return; }
#endif
    heapVec4[slot].v[index4] = value;
}

void runPacked(uint invocation) {
    uint first = invocation * 4u;
    if (first >= pc.count) return;
    if (first + 4u <= pc.count) {
        vec4 a = loadVec4(0u, DTYPE_A, invocation);
        vec4 b = BINARY ? loadVec4(1u, DTYPE_B, invocation) : vec4(0.0);
        vec4 y = vec4(evaluate(a.x, b.x), evaluate(a.y, b.y), evaluate(a.z, b.z), evaluate(a.w, b.w));
        storeVec4(OUT_SLOT, DTYPE_OUT, invocation, y);
        return;
    }
    // Tail: vec4 access would read past the bound ranges.
    for (uint i = first; i < pc.count; ++i) {
        float a = loadElem(0u, DTYPE_A, i);
        float b = BINARY ? loadElem(1u, DTYPE_B, i) : 0.0;
        storeElem(OUT_SLOT, DTYPE_OUT, i, evaluate(a, b));
    }
}

void runPerChannel(uint invocation) {
    uint first = invocation * 4u;
    if (first >= pc.count) return;
    uint inner = pc.sizes[0], channels = pc.sizes[1], strideB = pc.sizes[2];
    float b = loadElem(1u, DTYPE_B, ((first / inner) % channels) * strideB);
    vec4 a = loadVec4(0u, DTYPE_A, invocation);
    storeVec4(OUT_SLOT, DTYPE_OUT, invocation, vec4(evaluate(a.x, b), evaluate(a.y, b), evaluate(a.z, b), evaluate(a.w, b)));
}

void runGeneric(uint index) {
    if (index >= pc.count) return;
    uint offsetA = 0u, offsetB = 0u, offsetOut = 0u;
    uint rest = index;
    [[unroll]] for (int d = PUSH_DIMS - 1; d >= max(PUSH_DIMS - int(RANK), 0); --d) {
        uint coord = rest % pc.sizes[d];
        rest /= pc.sizes[d];
        offsetA += coord * pc.strideA[d];
        offsetB += coord * pc.strideB[d];
        offsetOut += coord * pc.strideOut[d];
    }
    [[unroll]] for (int d = OUTER_DIMS - 1; d >= LOOP_DIMS - int(RANK); --d) {
        uint coord = rest % OUTER_SIZE(d);
        rest /= OUTER_SIZE(d);
        offsetA += coord * OUTER_STRIDE_A(d);
        offsetB += coord * OUTER_STRIDE_B(d);
        offsetOut += coord * OUTER_STRIDE_OUT(d);
    }
    float a = loadElem(0u, DTYPE_A, offsetA);
    float b = BINARY ? loadElem(1u, DTYPE_B, offsetB) : 0.0;
    storeElem(OUT_SLOT, DTYPE_OUT, offsetOut, evaluate(a, b));
}

void main() {
    if (PACKED) runPacked(linearInvocation());
    else if (PER_CHANNEL) runPerChannel(linearInvocation());
    else runGeneric(linearInvocation());
}
