# The demos' run-time model lookup (included from tests/CMakeLists.txt when the demos are built).
vkml_test(demo_model_dir_tests demos/model_dir_test.cpp LIBS demo_models)

# The tools find the shipped models at run time (build tree: build/demos/share/vkml/models);
# a missing or wrong model directory is an error naming the places looked.
if(TARGET mlrun)
  add_test(NAME mlrun_list_models COMMAND mlrun --list-models)
  set_tests_properties(mlrun_list_models PROPERTIES PASS_REGULAR_EXPRESSION "model directory: .*/demos/share/vkml/models\n.*upscaler_x2.onnx")
  add_test(NAME mlrun_model_dir_override_missing
    COMMAND ${CMAKE_COMMAND} -E env VKML_MODEL_DIR=/nonexistent/models
            ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:mlrun> "-DARGS=upscaler_x2|--output-dir|${CMAKE_CURRENT_BINARY_DIR}/mlrun_no_models"
            "-DEXPECT=cannot find upscaler_x2.onnx: VKML_MODEL_DIR=/nonexistent/models is not a directory"
            -P ${PROJECT_SOURCE_DIR}/tests/mlplugin/expect_failure.cmake)
  add_test(NAME mlrun_model_not_shipped
    COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:mlrun> "-DARGS=no_such_model|--output-dir|${CMAKE_CURRENT_BINARY_DIR}/mlrun_no_models"
            "-DEXPECT=cannot find no_such_model.onnx: the model directory"
            -P ${PROJECT_SOURCE_DIR}/tests/mlplugin/expect_failure.cmake)
endif()
if(TARGET upscale_demo AND TARGET mlplugin_onnx)
  set(_cmd "$<TARGET_FILE:upscale_demo>|--headless|--mode|ml|--out|${CMAKE_CURRENT_BINARY_DIR}/demo_no_models")
  add_test(NAME demo_cli.ml_model_dir_missing
           COMMAND ${CMAKE_COMMAND} -E env VKML_MODEL_DIR=/nonexistent/models
                   ${CMAKE_COMMAND} "-DCOMMAND=${_cmd}" -DEXPECT_EXIT=nonzero
                   "-DEXPECT_OUTPUT=cannot find upscaler_x2.onnx: VKML_MODEL_DIR=/nonexistent/models is not a directory \\(it does not exist\\)"
                   -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
endif()
