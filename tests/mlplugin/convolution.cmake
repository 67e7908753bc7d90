# Tests for operator family: convolution
