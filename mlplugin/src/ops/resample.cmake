# Operator family: resample (sources under src/ops/, shaders under shaders/ml/).
