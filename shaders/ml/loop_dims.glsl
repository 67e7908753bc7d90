// Strided loops of up to 8 dims (mlplugin::kMaxTensorRank), right-aligned: loop dim 7 is the
// innermost. The inner PUSH_DIMS dims travel in the kernel's push constants (its sizes[5] and
// stride arrays, index d - OUTER_DIMS), the outer OUTER_DIMS as specialization constants
// declared with OUTER_ARRAY (size 1 / stride 0 when unused). See detail::appendOuterLoop in
// mlplugin/src/ops/strided_loop.h: only loops that stay above 5 dims after collapsing use them,
// so only those get shape-specialized pipelines.
#ifndef MLP_LOOP_DIMS_GLSL
#define MLP_LOOP_DIMS_GLSL

#define LOOP_DIMS 8
#define PUSH_DIMS 5
#define OUTER_DIMS 3

// Three specialization constants (ids id0..id2, default `init`) and name(d), the one of outer
// loop dim d (glslang takes no arrays of specialization constants; in unrolled loops d is
// constant and the selects fold away).
#define OUTER_ARRAY(name, id0, id1, id2, init)                                  \
    layout(constant_id = id0) const uint name##_0 = init;                       \
    layout(constant_id = id1) const uint name##_1 = init;                       \
    layout(constant_id = id2) const uint name##_2 = init;                       \
    uint name(int d) { return d == 0 ? name##_0 : (d == 1 ? name##_1 : name##_2); }

#endif
