# Tests for operator family: normalization
