# Tests for operator family: pooling
