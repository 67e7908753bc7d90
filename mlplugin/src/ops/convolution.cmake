# Operator family: convolution (sources under src/ops/, shaders under shaders/ml/).
list(APPEND MLP_SOURCES
  src/ops/convolution.cpp
  src/ops/convolution_igemm.cpp
  src/ops/convolution_winograd.cpp
  src/ops/convolution_validation.cpp
  src/ops/convolution_reference.cpp
  src/ops/weight_packing.cpp)
list(APPEND MLP_SHADERS
  SHADER conv2d_f32 SOURCE shaders/ml/conv2d.comp
  SHADER conv2d_f16 SOURCE shaders/ml/conv2d.comp DEFINES HAS_F16
  SHADER conv2d_tiled_f32 SOURCE shaders/ml/conv2d_tiled.comp
  SHADER conv2d_tiled_f16 SOURCE shaders/ml/conv2d_tiled.comp DEFINES HAS_F16
  SHADER conv2d_tiled_f16_arith SOURCE shaders/ml/conv2d_tiled.comp DEFINES HAS_F16 F16_ARITH
  SHADER conv2d_coopmat_f16 SOURCE shaders/ml/conv2d_coopmat.comp DEFINES HAS_F16
  SHADER conv2d_coopmat_mf8_f16 SOURCE shaders/ml/conv2d_coopmat.comp DEFINES HAS_F16 MAX_MF=8
  SHADER conv2d_coopmat_acc16_f16 SOURCE shaders/ml/conv2d_coopmat.comp DEFINES HAS_F16 MAX_MF=8 ACC_F16 F16_ARITH
  SHADER conv2d_coopmat_f16_arith SOURCE shaders/ml/conv2d_coopmat.comp DEFINES HAS_F16 F16_ARITH
  SHADER conv2d_igemm_f16 SOURCE shaders/ml/conv2d_igemm.comp DEFINES HAS_F16
  SHADER conv2d_igemm_f16_arith SOURCE shaders/ml/conv2d_igemm.comp DEFINES HAS_F16 F16_ARITH
  SHADER conv2d_igemm_acc16_f16 SOURCE shaders/ml/conv2d_igemm.comp DEFINES HAS_F16 ACC_F16 F16_ARITH
  SHADER conv2d_winograd_f16 SOURCE shaders/ml/conv2d_winograd.comp DEFINES HAS_F16
  SHADER conv2d_winograd_acc16_f16 SOURCE shaders/ml/conv2d_winograd.comp DEFINES HAS_F16 ACC_F16
  SHADER conv2d_winograd_portable_f16 SOURCE shaders/ml/conv2d_winograd.comp DEFINES HAS_F16 PORTABLE
  SHADER conv2d_winograd4_f16 SOURCE shaders/ml/conv2d_winograd.comp DEFINES HAS_F16 WINO_F4
  SHADER conv2d_winograd4_acc16_f16 SOURCE shaders/ml/conv2d_winograd.comp DEFINES HAS_F16 ACC_F16 WINO_F4
  SHADER conv2d_winograd4_portable_f16 SOURCE shaders/ml/conv2d_winograd.comp DEFINES HAS_F16 PORTABLE WINO_F4
  SHADER pack_conv_coopmat_f16 SOURCE shaders/ml/pack_conv_coopmat.comp DEFINES HAS_F16
  SHADER pack_conv_weights_f32 SOURCE shaders/ml/pack_conv_weights.comp
  SHADER pack_conv_weights_f16 SOURCE shaders/ml/pack_conv_weights.comp DEFINES HAS_F16
  SHADER pack_tensor_f32 SOURCE shaders/ml/pack_tensor.comp
  SHADER pack_tensor_f16 SOURCE shaders/ml/pack_tensor.comp DEFINES HAS_F16)
