# Tests for operator family: gemm (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_gemm_tests gemm_test.cpp LIBS mlp_op_test)
endif()
