# Tests for operator family: pooling (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_pooling_tests pooling_test.cpp LIBS mlp_op_test)
endif()
