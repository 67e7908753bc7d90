# Tests for operator family: resample
