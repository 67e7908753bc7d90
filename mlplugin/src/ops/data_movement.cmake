# Operator family: data_movement (sources under src/ops/, shaders under shaders/ml/).
list(APPEND MLP_SOURCES src/ops/data_movement.cpp)
