# Tests for operator family: framework
