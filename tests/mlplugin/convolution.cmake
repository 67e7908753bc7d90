# Tests for operator family: convolution (GPU on lavapipe via the op harness, plus CPU-only
# checks of the plans, which include the plugin's internal kernel.h).
if(TARGET mlp_op_test)
  vkml_test(mlplugin_convolution_tests convolution_test.cpp LIBS mlp_op_test)
  target_include_directories(mlplugin_convolution_tests PRIVATE ${PROJECT_SOURCE_DIR}/mlplugin/src)
endif()
