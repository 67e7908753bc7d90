# Operator family: normalization (sources under src/ops/, shaders under shaders/ml/).
