# bridge suites (included from tests/CMakeLists.txt).
vkml_test(bridge_ml_pass_tests bridge/ml_pass_test.cpp LIBS bridge)
target_compile_definitions(bridge_ml_pass_tests PRIVATE VKML_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
  VKML_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
# The binding plan needs no GPU (bridge/src/binding_plan.h).
vkml_test(bridge_binding_plan_tests bridge/binding_plan_test.cpp LIBS bridge)
target_include_directories(bridge_binding_plan_tests PRIVATE ${PROJECT_SOURCE_DIR}/bridge/src)
vkml_test(bridge_error_tests bridge/error_paths_test.cpp LIBS bridge)
if(TARGET mlplugin_onnx)
  target_compile_definitions(bridge_error_tests PRIVATE VKML_TEST_HAS_ONNX=1)
endif()

# upscale_demo --mode ml: the headless demo with an ONNX upscaler of the assets contract
# (tests/bridge/make_upscaler_model.py) as the renderer's upscaler; report.json lists its passes.
if(TARGET upscale_demo AND TARGET mlplugin_onnx)
  set(_out ${CMAKE_CURRENT_BINARY_DIR}/bridge_demo_out)
  # With --tuning: a table of another GPU's entries (never matched here) is read and handed to
  # the plugin device; the run is unchanged.
  file(WRITE ${_out}/other_gpu_tuning.txt "Some GPU|Some driver|conv k3x3 s1x1 d1x1 in1x32v out32v arith\tigemm_t16x16_w4x2_f4x1_ky1\t1.25\n")
  set(_cmd "$<TARGET_FILE:upscale_demo>|--headless|--frames|3|--width|64|--height|40|--mode|ml|--model|${PROJECT_SOURCE_DIR}/tests/data/onnx/bridge_upscaler_x2.onnx|--validation|--out|${_out}/ml|--pipeline-cache|${_out}/ml/pipelines.bin|--tuning|${_out}/other_gpu_tuning.txt")
  add_test(NAME demo_cli.ml_upscaler
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${_cmd}" -DEXPECT_EXIT=zero "-DEXPECT_OUTPUT=rendered 3 frame\\(s\\) 32x20 -> 64x40 \\(ml\\)"
                   "-DEXPECT_FILES=${_out}/ml/frame_00002.png|${_out}/ml/report.json|${_out}/ml/pipelines.bin" -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
  set_tests_properties(demo_cli.ml_upscaler PROPERTIES FAIL_REGULAR_EXPRESSION "\\[vulkan")
  # Device loss with both networks in the frame: the plugin device, the networks and their
  # weights are made again on the new context.
  set(_cmd "$<TARGET_FILE:upscale_demo>|--headless|--frames|5|--width|64|--height|48|--mode|ml|--denoise|ml|--ml-precision|fp32|--simulate-device-loss|2|--validation|--no-images|--out|${_out}/lost_ml")
  add_test(NAME demo_cli.device_lost_ml
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${_cmd}" -DEXPECT_EXIT=0
                   "-DEXPECT_OUTPUT=device lost at frame 2 \\(simulated\\).*recovered: recreated the device and every resource in [0-9.]+ s; continuing with frame 3.*rendered 2 frame\\(s\\) 32x24 -> 64x48 \\(ml\\), denoise ml"
                   "-DEXPECT_FILE_CONTENT=${_out}/lost_ml/report.json|\"name\": \"ml_denoise.network\".*\"name\": \"ml_upscale.network\".*\"device_losses\": \\[\n    {\"frame\": 2, \"recovered\": true"
                   -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
  set_tests_properties(demo_cli.device_lost_ml PROPERTIES FAIL_REGULAR_EXPRESSION "\\[vulkan")
  set(_cmd "$<TARGET_FILE:upscale_demo>|--headless|--mode|ml|--model|/nonexistent/model.onnx|--out|${_out}/missing")
  add_test(NAME demo_cli.ml_missing_model
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${_cmd}" -DEXPECT_EXIT=nonzero "-DEXPECT_OUTPUT=cannot open the model file '/nonexistent/model.onnx'"
                   -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
endif()
# bridge::tuneGraph: the candidate choice with made-up timings (bridge/src/candidate_selection.h)
# and one tuning on the test device.
vkml_test(bridge_tuning_tests bridge/tuning_test.cpp LIBS bridge mlp_op_test)
target_include_directories(bridge_tuning_tests PRIVATE ${PROJECT_SOURCE_DIR}/bridge/src)
