# Operator family: data_movement (sources under src/ops/, shaders under shaders/ml/).
