# Tests for operator family: element-wise (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_elementwise_tests elementwise_test.cpp LIBS mlp_op_test)
endif()
