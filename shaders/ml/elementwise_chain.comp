#version 450
#extension GL_GOOGLE_include_directive : require
// A chain of up to 3 element-wise operators fused into one dispatch (graph compilation):
//   r = step0(a0, b0); r = step1(r, b1); r = step2(r, b2); out = r
// Each step is out = activation(op(scale * x + bias, scale * y + bias)) as in elementwise.comp;
// the running value stays in a register (fp32) instead of a round trip through memory.
// Slots: a0 = 0, b0 = 1, b1 = 2, b2 = 3 (empty when a step is unary), out = 4.
// One output element per invocation; coordinates from the collapsed loop (inner 5 dims in push
// constants, outer 3 as specialization constants: loop_dims.glsl).
#include "common.glsl"
#include "loop_dims.glsl"

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;

layout(constant_id = 3) const uint STEPS = 1u;
layout(constant_id = 4) const uint RANK = 5u;
layout(constant_id = 5) const uint DTYPE_OUT = DTYPE_F32;
layout(constant_id = 6) const uint DTYPE_A0 = DTYPE_F32;
// Per step s (ids 7 + 11 s ...): op, dtype of its b, binary?, activation type/alpha/beta,
// input scale/bias, clip min/max, spare.
layout(constant_id = 7) const uint OP0 = 0u;
layout(constant_id = 8) const uint DTYPE_B0 = DTYPE_F32;
layout(constant_id = 9) const bool BINARY0 = false;
layout(constant_id = 10) const uint ACT0 = ACT_NONE;
layout(constant_id = 11) const float ALPHA0 = 0.0;
layout(constant_id = 12) const float BETA0 = 0.0;
layout(constant_id = 13) const float SCALE0 = 1.0;
layout(constant_id = 14) const float BIAS0 = 0.0;
layout(constant_id = 15) const float CLIPMIN0 = 0.0;
layout(constant_id = 16) const float CLIPMAX0 = 0.0;
layout(constant_id = 18) const uint OP1 = 0u;
layout(constant_id = 19) const uint DTYPE_B1 = DTYPE_F32;
layout(constant_id = 20) const bool BINARY1 = false;
layout(constant_id = 21) const uint ACT1 = ACT_NONE;
layout(constant_id = 22) const float ALPHA1 = 0.0;
layout(constant_id = 23) const float BETA1 = 0.0;
layout(constant_id = 24) const float SCALE1 = 1.0;
layout(constant_id = 25) const float BIAS1 = 0.0;
layout(constant_id = 26) const float CLIPMIN1 = 0.0;
layout(constant_id = 27) const float CLIPMAX1 = 0.0;
layout(constant_id = 29) const uint OP2 = 0u;
layout(constant_id = 30) const uint DTYPE_B2 = DTYPE_F32;
layout(constant_id = 31) const bool BINARY2 = false;
layout(constant_id = 32) const uint ACT2 = ACT_NONE;
layout(constant_id = 33) const float ALPHA2 = 0.0;
layout(constant_id = 34) const float BETA2 = 0.0;
layout(constant_id = 35) const float SCALE2 = 1.0;
layout(constant_id = 36) const float BIAS2 = 0.0;
layout(constant_id = 37) const float CLIPMIN2 = 0.0;
layout(constant_id = 38) const float CLIPMAX2 = 0.0;
OUTER_ARRAY(OUTER_SIZE, 40, 41, 42, 1u)
// Outer strides of a0, b0, b1, b2, out.
OUTER_ARRAY(OUTER_STRIDE_0, 43, 44, 45, 0u)
OUTER_ARRAY(OUTER_STRIDE_1, 46, 47, 48, 0u)
OUTER_ARRAY(OUTER_STRIDE_2, 49, 50, 51, 0u)
OUTER_ARRAY(OUTER_STRIDE_3, 52, 53, 54, 0u)
OUTER_ARRAY(OUTER_STRIDE_4, 55, 56, 57, 0u)

layout(push_constant) uniform Push {
    uint count;
    uint sizes[PUSH_DIMS];
    uint stride[5][PUSH_DIMS];  // a0, b0, b1, b2, out
} pc;

// Op ids match mlplugin::ElementWiseOp (see elementwise.comp).
float powReal(float a, float b) {
    float r = pow(abs(a), b);
    if (a >= 0.0) return r;
    if (fract(b) != 0.0) return uintBitsToFloat(0x7fc00000u);
    return mod(b, 2.0) == 1.0 ? -r : r;
}

float step(uint op, bool binary, float x, float y, float scale, float bias, float clipMin, float clipMax, uint act, float alpha, float beta) {
    x = x * scale + bias;
    if (binary) y = y * scale + bias;
    float r;
    switch (op) {
    case 1u: r = sqrt(x); break;
    case 2u: r = 1.0 / x; break;
    case 3u: r = exp(x); break;
    case 4u: r = log(x); break;
    case 5u: r = abs(x); break;
    case 6u: r = -x; break;
    case 7u: r = clamp(x, clipMin, clipMax); break;
    case 9u: r = x + y; break;
    case 10u: r = x - y; break;
    case 11u: r = x * y; break;
    case 12u: r = x / y; break;
    case 13u: r = min(x, y); break;
    case 14u: r = max(x, y); break;
    case 15u: r = powReal(x, y); break;
    case 16u: r = x >= 0.0 ? x : y * x; break;
    default: r = x; break;
    }
    return applyActivation(act, alpha, beta, r);
}

void main() {
    uint index = linearInvocation();
    if (index >= pc.count) return;
    uint offset[5] = uint[5](0u, 0u, 0u, 0u, 0u);
    uint rest = index;
    [[unroll]] for (int d = PUSH_DIMS - 1; d >= max(PUSH_DIMS - int(RANK), 0); --d) {
        uint coord = rest % pc.sizes[d];
        rest /= pc.sizes[d];
        [[unroll]] for (uint t = 0u; t < 5u; ++t) offset[t] += coord * pc.stride[t][d];
    }
    [[unroll]] for (int d = OUTER_DIMS - 1; d >= LOOP_DIMS - int(RANK); --d) {
        uint coord = rest % OUTER_SIZE(d);
        rest /= OUTER_SIZE(d);
        offset[0] += coord * OUTER_STRIDE_0(d);
        offset[1] += coord * OUTER_STRIDE_1(d);
        offset[2] += coord * OUTER_STRIDE_2(d);
        offset[3] += coord * OUTER_STRIDE_3(d);
        offset[4] += coord * OUTER_STRIDE_4(d);
    }
    float r = loadElem(0u, DTYPE_A0, offset[0]);
    r = step(OP0, BINARY0, r, BINARY0 ? loadElem(1u, DTYPE_B0, offset[1]) : 0.0, SCALE0, BIAS0, CLIPMIN0, CLIPMAX0, ACT0, ALPHA0, BETA0);
    if (STEPS > 1u)
        r = step(OP1, BINARY1, r, BINARY1 ? loadElem(2u, DTYPE_B1, offset[2]) : 0.0, SCALE1, BIAS1, CLIPMIN1, CLIPMAX1, ACT1, ALPHA1, BETA1);
    if (STEPS > 2u)
        r = step(OP2, BINARY2, r, BINARY2 ? loadElem(3u, DTYPE_B2, offset[3]) : 0.0, SCALE2, BIAS2, CLIPMIN2, CLIPMAX2, ACT2, ALPHA2, BETA2);
    storeElem(4u, DTYPE_OUT, offset[4], r);
}
