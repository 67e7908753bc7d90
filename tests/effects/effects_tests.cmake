# effects suites (included from tests/CMakeLists.txt): the engine-agnostic effect API, fed by
# test-owned images on the test context.
vkml_test(effects_upscaler_tests effects/upscaler_test.cpp effects/effect_harness.cpp LIBS effects bridge mlplugin_onnx)
target_compile_definitions(effects_upscaler_tests PRIVATE VKML_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
  VKML_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
vkml_test(effects_denoiser_tests effects/denoiser_test.cpp effects/effect_harness.cpp LIBS effects bridge mlplugin_onnx)
target_compile_definitions(effects_denoiser_tests PRIVATE VKML_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
  VKML_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")

# demos/effect_sample: a plain Vulkan program upscales a sequence upscale_demo wrote (colour, depth,
# motion, frames.json), with the validation layer on.
if(TARGET effect_sample AND TARGET upscale_demo)
  set(_fx_out ${CMAKE_CURRENT_BINARY_DIR}/effect_sample_out)
  add_test(NAME effect_sample.write_sequence
           COMMAND upscale_demo --headless --width 64 --height 40 --frames 5 --mode taau --channels color,depth,motion --out ${_fx_out}/sequence)
  set_tests_properties(effect_sample.write_sequence PROPERTIES FIXTURES_SETUP effect_sequence)
  add_test(NAME effect_sample.upscales_the_sequence
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:effect_sample>|--input|${_fx_out}/sequence|--out|${_fx_out}/upscaled|--validation"
                   -DEXPECT_EXIT=zero "-DEXPECT_OUTPUT=upscaled 5 frame\\(s\\)" "-DEXPECT_FILES=${_fx_out}/upscaled/frame_00004.png"
                   -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
  set_tests_properties(effect_sample.upscales_the_sequence PROPERTIES FIXTURES_REQUIRED effect_sequence FAIL_REGULAR_EXPRESSION "Validation (Error|Warning)")
  # The temporal ML mode, on a device the sample creates from mlplugin::queryDeviceSupport and
  # DeviceFeatureChain (tensor cores where offered), with a tuning table of another GPU's entries
  # (never matched here: the run is unchanged).
  file(WRITE ${_fx_out}/other_gpu_tuning.txt "Some GPU|Some driver|conv k3x3 s1x1 d1x1 in1x32v out32v arith\tigemm_t16x16_w4x2_f4x1_ky1\t1.25\n")
  # A temporal ML run of the sequence into upscaled_<name>/ under validation; ARGN: extra arguments.
  function(effect_sample_ml_temporal_test name)
    string(JOIN "|" _extra ${ARGN})
    if(_extra)
      set(_extra "|${_extra}")
    endif()
    add_test(NAME effect_sample.${name}
             COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:effect_sample>|--input|${_fx_out}/sequence|--out|${_fx_out}/upscaled_${name}|--mode|ml-temporal|--validation${_extra}"
                     -DEXPECT_EXIT=zero "-DEXPECT_OUTPUT=upscaler ml-temporal: 32x20 -> 64x40.*upscaled 5 frame\\(s\\)" "-DEXPECT_FILES=${_fx_out}/upscaled_${name}/frame_00004.png"
                     -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
    set_tests_properties(effect_sample.${name} PROPERTIES FIXTURES_REQUIRED effect_sequence FAIL_REGULAR_EXPRESSION "Validation (Error|Warning)")
  endfunction()
  effect_sample_ml_temporal_test(ml_temporal --model ${PROJECT_SOURCE_DIR}/assets/upscaler_temporal.onnx --tuning ${_fx_out}/other_gpu_tuning.txt)
  # The performance model (its "vkml.history_taps" 5 selects the 5-tap feature pass).
  effect_sample_ml_temporal_test(ml_temporal_fast --model ${PROJECT_SOURCE_DIR}/assets/upscaler_temporal_fast.onnx)
  # --time-steps: timestamps written by the effect's step callbacks, a mean per step.
  add_test(NAME effect_sample.time_steps
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:effect_sample>|--input|${_fx_out}/sequence|--out|${_fx_out}/upscaled_time_steps|--mode|ml-temporal|--time-steps|--validation"
                   -DEXPECT_EXIT=zero "-DEXPECT_OUTPUT=upscaled 5 frame\\(s\\).*step ml_features +[0-9.]+ ms \\(mean of 5 frames\\).*step network .*step ml_resolve "
                   -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
  set_tests_properties(effect_sample.time_steps PROPERTIES FIXTURES_REQUIRED effect_sequence FAIL_REGULAR_EXPRESSION "Validation (Error|Warning)")
  add_test(NAME effect_sample.tuning_missing
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:effect_sample>|--input|x|--out|y|--tuning|/nonexistent/tuning.txt"
                   -DEXPECT_EXIT=nonzero "-DEXPECT_OUTPUT=--tuning: no tuning table at '/nonexistent/tuning.txt' \\(write one on this GPU with: mlrun MODEL.onnx --tuning FILE\\)"
                   -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
  add_test(NAME effect_sample.missing_frames_json
           COMMAND ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:effect_sample>|--input|${_fx_out}/nonexistent|--out|${_fx_out}/none"
                   -DEXPECT_EXIT=nonzero "-DEXPECT_OUTPUT=cannot open '.*nonexistent/frames.json'" -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
  # Without --model: the shipped model of the model directory (the build tree's links to assets/),
  # or an error naming every place looked.
  effect_sample_ml_temporal_test(ml_temporal_default_model)
  add_test(NAME effect_sample.ml_temporal_without_a_model
           COMMAND ${CMAKE_COMMAND} -E env VKML_MODEL_DIR=/nonexistent/models
                   ${CMAKE_COMMAND} "-DCOMMAND=$<TARGET_FILE:effect_sample>|--input|x|--out|y|--mode|ml-temporal"
                   -DEXPECT_EXIT=nonzero "-DEXPECT_OUTPUT=--mode ml-temporal without --model FILE: cannot find upscaler_temporal.onnx: VKML_MODEL_DIR=/nonexistent/models is not a directory"
                   -P ${PROJECT_SOURCE_DIR}/tests/engine/run_and_check.cmake)
endif()
