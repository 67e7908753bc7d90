# Tests for operator family: element-wise (GPU on lavapipe via the op harness), plus CPU-only
# planner checks for the element-wise, normalization and reduction families.
if(TARGET mlp_op_test)
  vkml_test(mlplugin_elementwise_tests elementwise_test.cpp elementwise_plan_test.cpp LIBS mlp_op_test)
  target_include_directories(mlplugin_elementwise_tests PRIVATE ${PROJECT_SOURCE_DIR}/mlplugin/src)
endif()
