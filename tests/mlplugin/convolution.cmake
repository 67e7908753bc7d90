# Tests for operator family: convolution (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_convolution_tests convolution_test.cpp LIBS mlp_op_test)
endif()
