# Operator family: reduction (sources under src/ops/, shaders under shaders/ml/).
