# Operator family: reduction (reduce over axes, softmax / log-softmax).
list(APPEND MLP_SOURCES src/ops/reduction.cpp)
list(APPEND MLP_SHADERS
  SHADER reduce_f32 SOURCE shaders/ml/reduce.comp
  SHADER reduce_f16 SOURCE shaders/ml/reduce.comp DEFINES HAS_F16
  SHADER softmax_f32 SOURCE shaders/ml/softmax.comp
  SHADER softmax_f16 SOURCE shaders/ml/softmax.comp DEFINES HAS_F16)
