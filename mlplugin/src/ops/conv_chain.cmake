# Fused convolution chains (graph compilation only; see src/ops/conv_chain.cpp).
list(APPEND MLP_SOURCES src/ops/conv_chain.cpp)
list(APPEND MLP_SHADERS
  SHADER conv_chain_f32 SOURCE shaders/ml/conv_chain.comp
  SHADER conv_chain_f16 SOURCE shaders/ml/conv_chain.comp DEFINES HAS_F16)
