# Operator family: resample (nearest / bilinear, ONNX Resize coordinate transforms).
list(APPEND MLP_SOURCES src/ops/resample.cpp)
list(APPEND MLP_SHADERS
  SHADER resample_f32 SOURCE shaders/ml/resample.comp
  SHADER resample_f16 SOURCE shaders/ml/resample.comp DEFINES HAS_F16)
