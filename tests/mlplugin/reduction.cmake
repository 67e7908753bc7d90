# Tests for operator family: reduction (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_reduction_tests reduction_test.cpp LIBS mlp_op_test)
endif()
