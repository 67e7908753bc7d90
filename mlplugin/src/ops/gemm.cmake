# Operator family: gemm (sources under src/ops/, shaders under shaders/ml/).
list(APPEND MLP_SOURCES src/ops/gemm.cpp)
