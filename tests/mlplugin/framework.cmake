# Tests for the framework (device, binding tables, recorder, initializer) and the operator
# conformance harness every family's tests link.
# op_test_graph.cpp is only linked into binaries that call checkGraph (static-library semantics).
add_library(mlp_op_test STATIC op_test.cpp op_test_graph.cpp)
target_include_directories(mlp_op_test PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(mlp_op_test PUBLIC test_support mlplugin engine)
vkml_warnings(mlp_op_test)

vkml_test(mlplugin_framework_tests device_test.cpp device_support_test.cpp pipeline_cache_test.cpp binding_test.cpp recorder_test.cpp initializer_test.cpp op_test_test.cpp
  threading_test.cpp LIBS mlp_op_test GTest::gmock Threads::Threads)
target_include_directories(mlplugin_framework_tests PRIVATE ${PROJECT_SOURCE_DIR}/mlplugin/src)

# The minimal sample app runs as a test: validation layer on, non-zero exit on any message or
# wrong result.
if(TARGET ml_minimal)
  add_test(NAME ml_minimal COMMAND ml_minimal --validation)
endif()

# Allocation counting replaces global operator new: its own binary, without the validation layer.
add_executable(mlplugin_record_alloc_tests record_alloc_test.cpp)
target_link_libraries(mlplugin_record_alloc_tests PRIVATE mlplugin engine vkutil GTest::gtest_main)
vkml_warnings(mlplugin_record_alloc_tests)
vkml_register_gtests(mlplugin_record_alloc_tests)
