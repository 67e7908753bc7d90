# CPU-only checks of the plugin's core types (no Vulkan device needed).
add_executable(mlplugin_core_tests tensor_desc_test.cpp graph_plan_test.cpp graph_builder_test.cpp conv_chain_plan_test.cpp
  graph_reshape_check_test.cpp invalid_desc_test.cpp)
target_link_libraries(mlplugin_core_tests PRIVATE mlplugin GTest::gtest_main)
target_include_directories(mlplugin_core_tests PRIVATE ${PROJECT_SOURCE_DIR}/mlplugin/src)
vkml_warnings(mlplugin_core_tests)
vkml_register_gtests(mlplugin_core_tests)

# Compiled graphs on the GPU (needs the conformance harness).
vkml_test(mlplugin_graph_tests graph_test.cpp conv_chain_test.cpp LIBS mlp_op_test)
# reshapeGraph through bridge::GraphSession (fp32/fp16 against the reference, weights kept).
vkml_test(mlplugin_graph_reshape_tests graph_reshape_test.cpp LIBS mlp_op_test bridge GTest::gmock)

# The README's plugin example, kept compiling and running.
vkml_test(mlplugin_readme_example_tests readme_example_test.cpp LIBS mlp_op_test)
