# Operator family: pooling (max, average, Lp; windowed and global).
list(APPEND MLP_SOURCES src/ops/pooling.cpp)
list(APPEND MLP_SHADERS
  SHADER pool2d_f32 SOURCE shaders/ml/pool2d.comp
  SHADER pool2d_f16 SOURCE shaders/ml/pool2d.comp DEFINES HAS_F16
  SHADER global_pool_f32 SOURCE shaders/ml/global_pool.comp
  SHADER global_pool_f16 SOURCE shaders/ml/global_pool.comp DEFINES HAS_F16)
