# Tests for operator family: elementwise
