# Operator family: normalization (sources under src/ops/, shaders under shaders/ml/).
list(APPEND MLP_SOURCES src/ops/normalization.cpp)
