# Tests for operator family: normalization (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_normalization_tests normalization_test.cpp LIBS mlp_op_test)
endif()
