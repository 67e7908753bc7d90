# Tests for operator family: data_movement
