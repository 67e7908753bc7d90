# Operator family: resample (nearest / bilinear, ONNX Resize coordinate transforms) and grid
# sample (ONNX GridSample: sampling at per-pixel normalized positions).
list(APPEND MLP_SOURCES src/ops/resample.cpp src/ops/grid_sample.cpp)
list(APPEND MLP_SHADERS
  SHADER resample_f32 SOURCE shaders/ml/resample.comp
  SHADER resample_f16 SOURCE shaders/ml/resample.comp DEFINES HAS_F16
  SHADER grid_sample_f32 SOURCE shaders/ml/grid_sample.comp
  SHADER grid_sample_f16 SOURCE shaders/ml/grid_sample.comp DEFINES HAS_F16)
