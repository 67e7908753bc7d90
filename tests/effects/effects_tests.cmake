# effects suites (included from tests/CMakeLists.txt): the engine-agnostic effect API, fed by
# test-owned images on the test context.
vkml_test(effects_upscaler_tests effects/upscaler_test.cpp effects/effect_harness.cpp LIBS effects)
target_compile_definitions(effects_upscaler_tests PRIVATE VKML_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data")
