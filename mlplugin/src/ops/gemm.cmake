# Operator family: gemm (sources under src/ops/, shaders under shaders/ml/). Shares
# weight_packing.cpp and pack_tensor.comp with the convolution family.
list(APPEND MLP_SOURCES
  src/ops/gemm.cpp
  src/ops/gemm_validation.cpp
  src/ops/gemm_reference.cpp)
list(APPEND MLP_SHADERS
  SHADER gemm_f32 SOURCE shaders/ml/gemm.comp
  SHADER gemm_f16 SOURCE shaders/ml/gemm.comp DEFINES HAS_F16)
