# Operator family: pooling (sources under src/ops/, shaders under shaders/ml/).
