# Operator family: elementwise (sources under src/ops/, shaders under shaders/ml/).
list(APPEND MLP_SOURCES src/ops/elementwise.cpp)
