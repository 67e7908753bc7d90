# ONNX loader tests (models and PyTorch outputs committed under tests/data/onnx).
if(TARGET mlplugin_onnx)
  add_library(onnx_test_models STATIC onnx_models.cpp)
  target_include_directories(onnx_test_models PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(onnx_test_models PUBLIC ONNX_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data/onnx")
  target_link_libraries(onnx_test_models PUBLIC mlplugin_onnx mlplugin_npy GTest::gtest)
  vkml_warnings(onnx_test_models)

  # CPU only: loading, reference evaluation against PyTorch, malformed and unsupported models.
  add_executable(mlplugin_onnx_load_tests onnx_load_test.cpp)
  target_link_libraries(mlplugin_onnx_load_tests PRIVATE onnx_test_models GTest::gtest_main)
  vkml_warnings(mlplugin_onnx_load_tests)
  gtest_discover_tests(mlplugin_onnx_load_tests DISCOVERY_TIMEOUT 60)
endif()
