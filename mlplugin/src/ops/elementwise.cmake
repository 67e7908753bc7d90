# Operator family: elementwise (sources under src/ops/, shaders under shaders/ml/).
