# Operator family: gemm (sources under src/ops/, shaders under shaders/ml/).
