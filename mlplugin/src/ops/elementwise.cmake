# Operator family: element-wise (and the shape helpers the other families share), plus the fused
# element-wise chains graph compilation produces.
list(APPEND MLP_SOURCES src/ops/elementwise.cpp src/ops/elementwise_chain.cpp src/ops/strided_loop.cpp)
list(APPEND MLP_SHADERS
  SHADER elementwise_f32 SOURCE shaders/ml/elementwise.comp
  SHADER elementwise_f16 SOURCE shaders/ml/elementwise.comp DEFINES HAS_F16
  SHADER elementwise_chain_f32 SOURCE shaders/ml/elementwise_chain.comp
  SHADER elementwise_chain_f16 SOURCE shaders/ml/elementwise_chain.comp DEFINES HAS_F16)
