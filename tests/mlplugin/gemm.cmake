# Tests for operator family: gemm
