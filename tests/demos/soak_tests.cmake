# The soak (docs/RELIABILITY.md): its CPU side, and two runs of tools/soak.sh (included from
# tests/CMakeLists.txt when the demo is built).
set(_demo ${PROJECT_SOURCE_DIR}/demos/upscale_demo)
vkml_test(demo_soak_tests demos/soak_test.cpp ${_demo}/soak.cpp ${_demo}/report.cpp ${_demo}/options.cpp LIBS mlplugin bridge)
target_include_directories(demo_soak_tests PRIVATE ${_demo})
vkml_test(demo_progress_tests demos/progress_test.cpp ${_demo}/progress.cpp)
target_include_directories(demo_progress_tests PRIVATE ${_demo})
if(TARGET mlplugin_onnx)
  set(_soak ${PROJECT_SOURCE_DIR}/tools/soak.sh)
  set(_out ${CMAKE_CURRENT_BINARY_DIR}/soak_out)
  # 5000 frames without the validation layer: device memory flat, resident memory within
  # 512 KiB per 1000 frames. The resident set wanders by about +-0.5 MiB between samples, which
  # over 20 samples leaves the slope a standard error of about 70 KB per 1000 frames (the
  # 100,000-frame run of tools/soak.sh keeps the default 64 KiB); a leak of 0.5 KB per frame —
  # a frame graph, a network or a driver object per rebuild — still fails it.
  # fp32 networks: on lavapipe the fp16 ones (the demo's default where a device has fp16) take
  # three times as long, and the soak is about what is kept, not how fast it runs.
  # Under AddressSanitizer freed blocks wait in its quarantine (up to 256 MB) before reuse, so the
  # resident set grows without a leak (1.6 MB per 1000 frames here): that build checks the slope
  # of device memory only, and LeakSanitizer checks the demo's heap at every exit instead.
  set(_rss_limit 524288)
  if(VKML_SANITIZE MATCHES "address")
    set(_rss_limit none)
  endif()
  add_test(NAME soak.ci COMMAND ${_soak} --frames 5000 --size 32x24 --step 25 --ml-precision fp32 --max-rss-slope ${_rss_limit} --out ${_out}/ci)
  # With validation and a device loss per cycle (10 cycles): no validation message through every
  # configuration and recovery, device memory flat. Resident memory is reported, not limited:
  # each new device adds driver threads, and with them glibc arenas and lavapipe/validation-layer
  # state, in steps of up to 12 MiB for the first few dozen devices (an engine::Context loop alone
  # does the same; docs/RELIABILITY.md).
  add_test(NAME soak.ci_validation
           COMMAND ${_soak} --frames 320 --size 32x24 --step 4 --validation --device-loss --ml-precision fp32 --max-rss-slope none
                   --out ${_out}/validation)
  set_tests_properties(soak.ci soak.ci_validation PROPERTIES ENVIRONMENT "DEMO=$<TARGET_FILE:upscale_demo>" TIMEOUT 900)
  set_tests_properties(soak.ci PROPERTIES COST 56)  # seconds in a cold clean clone: started early (bench/CMakeLists.txt)
  set_tests_properties(soak.ci_validation PROPERTIES COST 15)
endif()
