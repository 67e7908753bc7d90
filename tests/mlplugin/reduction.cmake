# Tests for operator family: reduction
