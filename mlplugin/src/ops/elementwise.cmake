# Operator family: element-wise (and the shape helpers the other families share).
list(APPEND MLP_SOURCES src/ops/elementwise.cpp src/ops/strided_loop.cpp)
list(APPEND MLP_SHADERS
  SHADER elementwise_f32 SOURCE shaders/ml/elementwise.comp
  SHADER elementwise_f16 SOURCE shaders/ml/elementwise.comp DEFINES HAS_F16)
