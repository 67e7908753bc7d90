# Tests for operator family: data movement (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_data_movement_tests data_movement_test.cpp LIBS mlp_op_test)
endif()
