# Operator family: convolution (sources under src/ops/, shaders under shaders/ml/).
