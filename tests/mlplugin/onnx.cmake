# ONNX loader tests (models and PyTorch outputs committed under tests/data/onnx).
if(TARGET mlplugin_onnx)
  add_library(onnx_test_models STATIC onnx_models.cpp onnx_node_cases.cpp)
  target_include_directories(onnx_test_models PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_definitions(onnx_test_models PUBLIC ONNX_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data/onnx"
                                                     ONNX_NODE_TEST_DIR="${PROJECT_SOURCE_DIR}/tests/data/onnx_node")
  target_link_libraries(onnx_test_models PUBLIC mlplugin_onnx mlplugin_npy GTest::gtest PRIVATE mlplugin_onnx_proto)
  vkml_warnings(onnx_test_models)

  # CPU only: loading, reference evaluation against PyTorch; malformed, hostile and unsupported
  # models (crafted with the protobuf classes).
  add_executable(mlplugin_onnx_load_tests onnx_load_test.cpp onnx_error_test.cpp onnx_converter_error_test.cpp onnx_external_data_test.cpp
                                          npy_test.cpp)
  target_link_libraries(mlplugin_onnx_load_tests PRIVATE onnx_test_models mlplugin_onnx_proto GTest::gtest_main)
  vkml_warnings(mlplugin_onnx_load_tests)
  vkml_register_gtests(mlplugin_onnx_load_tests)

  # GPU: every model through compileGraph and the recorder, fp32 and fp16, against PyTorch.
  vkml_test(mlplugin_onnx_gpu_tests onnx_gpu_test.cpp LIBS onnx_test_models bridge mlp_op_test)
  # Resize cubic: a model built in the test, CPU reference and GPU against PyTorch's bicubic.
  vkml_test(mlplugin_onnx_resize_cubic_tests onnx_resize_cubic_test.cpp LIBS onnx_test_models bridge mlp_op_test mlplugin_onnx_proto)
  # ONNX's backend node tests (tests/data/onnx_node, ~570 cases): CPU (load + reference) and GPU
  # (fp32). One ctest each: a process per case would spend 20 times the run time starting up
  # (18 s vs 1 s on CPU, 2 min vs 7 s on lavapipe); the gtest output names every failing case.
  add_executable(mlplugin_onnx_node_tests onnx_node_test.cpp)
  target_link_libraries(mlplugin_onnx_node_tests PRIVATE onnx_test_models GTest::gtest_main)
  vkml_warnings(mlplugin_onnx_node_tests)
  add_test(NAME mlplugin_onnx_node_tests COMMAND mlplugin_onnx_node_tests)
  add_executable(mlplugin_onnx_node_gpu_tests onnx_node_gpu_test.cpp)
  target_link_libraries(mlplugin_onnx_node_gpu_tests PRIVATE test_support onnx_test_models bridge mlp_op_test)
  vkml_warnings(mlplugin_onnx_node_gpu_tests)
  add_test(NAME mlplugin_onnx_node_gpu_tests COMMAND mlplugin_onnx_node_gpu_tests)
  set_tests_properties(mlplugin_onnx_node_gpu_tests PROPERTIES ENVIRONMENT "VK_LOADER_DEBUG=none")

  if(TARGET mlrun)

    # The mlrun tool end to end: run a model, compare its .npy outputs with PyTorch's
    # (npy_compare, a tiny checker), and bad command lines/inputs give clear errors.
    add_executable(npy_compare npy_compare.cpp)
    target_link_libraries(npy_compare PRIVATE mlplugin_npy)
    vkml_warnings(npy_compare)
    set(data ${PROJECT_SOURCE_DIR}/tests/data/onnx)
    set(out ${CMAKE_CURRENT_BINARY_DIR}/mlrun_out)
    # model^data stem^precision^tolerance
    foreach(run "unet_op13^unet^fp32^1e-4" "normsoftmax_op9^normsoftmax^fp16^1e-2" "espcn_op17^espcn^fp32^1e-4")
      string(REPLACE "^" ";" fields "${run}")
      list(GET fields 0 model)
      list(GET fields 1 stem)
      list(GET fields 2 precision)
      list(GET fields 3 tolerance)
      set(dir ${out}/${model}_${precision})
      add_test(NAME mlrun_${model}_${precision}
        COMMAND mlrun ${data}/${model}.onnx --input input=${data}/${stem}_input.npy --output-dir ${dir}
                --precision ${precision} --iterations 2 --validation)
      set_tests_properties(mlrun_${model}_${precision} PROPERTIES FIXTURES_SETUP mlrun_${model}_${precision}
        PASS_REGULAR_EXPRESSION "median GPU")
      add_test(NAME mlrun_${model}_${precision}_check
        COMMAND npy_compare ${dir}/output.npy ${data}/${stem}_output.npy ${tolerance})
      set_tests_properties(mlrun_${model}_${precision}_check PROPERTIES FIXTURES_REQUIRED mlrun_${model}_${precision})
    endforeach()
    # A float16 input file (values rounded to fp16: looser tolerance).
    add_test(NAME mlrun_f16_input
      COMMAND mlrun ${data}/unet_op13.onnx --input input=${data}/unet_input_f16.npy --output-dir ${out}/f16_input)
    set_tests_properties(mlrun_f16_input PROPERTIES FIXTURES_SETUP mlrun_f16_input)
    add_test(NAME mlrun_f16_input_check COMMAND npy_compare ${out}/f16_input/output.npy ${data}/unet_output.npy 1e-2)
    set_tests_properties(mlrun_f16_input_check PROPERTIES FIXTURES_REQUIRED mlrun_f16_input)

    # Free dims from the given input's shape, with an explicit override on top.
    add_test(NAME mlrun_free_dims
      COMMAND mlrun ${data}/espcn_dynamic_op13.onnx --input input=${data}/espcn_dynamic_input.npy --free-dim height=5
              --output-dir ${out}/dynamic)
    set_tests_properties(mlrun_free_dims PROPERTIES FIXTURES_SETUP mlrun_free_dims PASS_REGULAR_EXPRESSION "fp32\\[1,1,10,14\\]")
    add_test(NAME mlrun_free_dims_check COMMAND npy_compare ${out}/dynamic/output.npy ${data}/espcn_dynamic_output.npy 1e-4)
    set_tests_properties(mlrun_free_dims_check PROPERTIES FIXTURES_REQUIRED mlrun_free_dims)

    # --pipeline-cache: the first run writes the file, the second restores it, a file of
    # something else is ignored with the reason and the run still succeeds.
    set(cache ${out}/pipelines.bin)
    add_test(NAME mlrun_pipeline_cache_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${cache})
    set_tests_properties(mlrun_pipeline_cache_clean PROPERTIES FIXTURES_SETUP mlrun_cache_clean)
    add_test(NAME mlrun_pipeline_cache_write
      COMMAND mlrun ${data}/espcn_op17.onnx --input input=${data}/espcn_input.npy --output-dir ${out}/cache --pipeline-cache ${cache})
    set_tests_properties(mlrun_pipeline_cache_write PROPERTIES FIXTURES_REQUIRED mlrun_cache_clean FIXTURES_SETUP mlrun_cache_written
      PASS_REGULAR_EXPRESSION "pipeline cache: wrote" FAIL_REGULAR_EXPRESSION "restored from")
    add_test(NAME mlrun_pipeline_cache_restore
      COMMAND mlrun ${data}/espcn_op17.onnx --input input=${data}/espcn_input.npy --output-dir ${out}/cache --pipeline-cache ${cache})
    set_tests_properties(mlrun_pipeline_cache_restore PROPERTIES FIXTURES_REQUIRED mlrun_cache_written
      PASS_REGULAR_EXPRESSION "pipeline cache: restored from")
    add_test(NAME mlrun_pipeline_cache_foreign_file COMMAND ${CMAKE_COMMAND} -E copy ${data}/espcn_input.npy ${out}/foreign_cache.bin)
    set_tests_properties(mlrun_pipeline_cache_foreign_file PROPERTIES FIXTURES_SETUP mlrun_cache_foreign)
    add_test(NAME mlrun_pipeline_cache_foreign
      COMMAND mlrun ${data}/espcn_op17.onnx --input input=${data}/espcn_input.npy --output-dir ${out}/cache_foreign
              --pipeline-cache ${out}/foreign_cache.bin)
    set_tests_properties(mlrun_pipeline_cache_foreign PROPERTIES FIXTURES_REQUIRED mlrun_cache_foreign
      PASS_REGULAR_EXPRESSION "ignored, pipeline cache data rejected: not written by Device::pipelineCacheData")

    # --tuning: the table file is written (entries only where the device has tensor-core
    # candidates to time; lavapipe has none) and the run with it still matches PyTorch.
    set(tuning ${out}/tuning.txt)
    add_test(NAME mlrun_tuning_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${tuning})
    set_tests_properties(mlrun_tuning_clean PROPERTIES FIXTURES_SETUP mlrun_tuning_clean)
    add_test(NAME mlrun_tuning
      COMMAND mlrun ${data}/espcn_op17.onnx --input input=${data}/espcn_input.npy --output-dir ${out}/tuning --tuning ${tuning} --validation)
    set_tests_properties(mlrun_tuning PROPERTIES FIXTURES_REQUIRED mlrun_tuning_clean FIXTURES_SETUP mlrun_tuning
      PASS_REGULAR_EXPRESSION "tuning: wrote .*tuning.txt \\([0-9]+ entries, [0-9]+ new\\)")
    add_test(NAME mlrun_tuning_check COMMAND npy_compare ${out}/tuning/output.npy ${data}/espcn_output.npy 1e-4)
    set_tests_properties(mlrun_tuning_check PROPERTIES FIXTURES_REQUIRED mlrun_tuning)
    file(WRITE ${out}/bad_tuning.txt "conv k3x3 some key\tigemm_t16x16_w4x2_f4x2\t0.5\nno tabs on this line\n")

    # Bad input (name^arguments, '|'-separated^message): each must exit non-zero saying why.
    set(model ${data}/unet_op13.onnx)
    set(bad_cases
      "missing_file^--input|input=/nonexistent/x.npy^cannot open '/nonexistent/x.npy'"
      "fortran_order^--input|input=${data}/bad_fortran.npy^Fortran-order arrays are not supported"
      "wrong_dtype^--input|input=${data}/bad_float64.npy^dtype '<f8' is not supported"
      "wrong_shape^--input|input=${data}/espcn_input.npy^dim 1 is 3, the given shape says 1"
      "unknown_input^--input|other=${data}/unet_input.npy^has no such input"
      "unknown_flag^--frobnicate^unknown option '--frobnicate'"
      "bad_precision^--precision|fp8^--precision expects fp32 or fp16"
      "malformed_tuning_file^--input|input=${data}/unet_input.npy|--tuning|${out}/bad_tuning.txt^bad_tuning.txt:2: expected 'key<TAB>candidate<TAB>milliseconds'"
      "unwritable_tuning_file^--input|input=${data}/unet_input.npy|--tuning|/nonexistent/dir/tuning.txt^/nonexistent/dir/tuning.txt: cannot be written")
    foreach(case IN LISTS bad_cases)
      string(REPLACE "^" ";" fields "${case}")
      list(GET fields 0 name)
      list(GET fields 1 args)
      list(GET fields 2 message)
      add_test(NAME mlrun_bad_${name}
        COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:mlrun> "-DARGS=${model}|${args}|--output-dir|${out}/bad" "-DEXPECT=${message}"
                -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.cmake)
    endforeach()
    add_test(NAME mlrun_help COMMAND mlrun --help)
    set_tests_properties(mlrun_help PROPERTIES PASS_REGULAR_EXPRESSION "usage: mlrun MODEL.onnx")
    add_test(NAME mlrun_list_devices COMMAND mlrun --list-devices)
    set_tests_properties(mlrun_list_devices PROPERTIES PASS_REGULAR_EXPRESSION "0: ")
  endif()
endif()
