# Operator family: normalization (batch, instance, mean-variance).
list(APPEND MLP_SOURCES src/ops/normalization.cpp src/ops/normalization_common.cpp src/ops/row_plan.cpp)
list(APPEND MLP_SHADERS
  SHADER batchnorm_f32 SOURCE shaders/ml/batchnorm.comp
  SHADER batchnorm_f16 SOURCE shaders/ml/batchnorm.comp DEFINES HAS_F16
  SHADER batchnorm_fold_f32 SOURCE shaders/ml/batchnorm_fold.comp
  SHADER batchnorm_fold_f16 SOURCE shaders/ml/batchnorm_fold.comp DEFINES HAS_F16
  SHADER mvn_f32 SOURCE shaders/ml/mvn.comp
  SHADER mvn_f16 SOURCE shaders/ml/mvn.comp DEFINES HAS_F16
  SHADER normalization_pack_f32 SOURCE shaders/ml/normalization_pack.comp
  SHADER normalization_pack_f16 SOURCE shaders/ml/normalization_pack.comp DEFINES HAS_F16)
