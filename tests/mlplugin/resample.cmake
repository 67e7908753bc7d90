# Tests for operator family: resample (GPU on lavapipe via the op harness).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_resample_tests resample_test.cpp resample_cubic_test.cpp grid_sample_test.cpp LIBS mlp_op_test)
endif()
