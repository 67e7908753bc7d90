# Operator family: data movement (depth<->space, concat/split, slice, pad, transpose). All but
# pad are one generic strided copy (src/ops/strided_copy.h).
list(APPEND MLP_SOURCES
  src/ops/strided_copy.cpp
  src/ops/depth_space.cpp
  src/ops/concat_split.cpp
  src/ops/slice.cpp
  src/ops/transpose.cpp
  src/ops/pad.cpp)
list(APPEND MLP_SHADERS
  SHADER strided_copy_f32 SOURCE shaders/ml/strided_copy.comp
  SHADER strided_copy_f16 SOURCE shaders/ml/strided_copy.comp DEFINES HAS_F16
  SHADER transpose_tiled_f32 SOURCE shaders/ml/transpose_tiled.comp
  SHADER transpose_tiled_f16 SOURCE shaders/ml/transpose_tiled.comp DEFINES HAS_F16
  SHADER pad_f32 SOURCE shaders/ml/pad.comp
  SHADER pad_f16 SOURCE shaders/ml/pad.comp DEFINES HAS_F16)
