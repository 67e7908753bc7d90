# Corpus replay in the normal test build (included from tests/CMakeLists.txt): each fuzz target's
# entry point linked with replay_main.cpp instead of libFuzzer, run by ctest over its committed
# corpus fuzz/corpus/<name>/ (seeds and regression inputs). Needs no clang; the structured
# target's FuzzedDataProvider.h (a header of clang's libFuzzer) is taken from an installed clang
# and that one replay is skipped without it.
file(GLOB _vkml_fdp_dirs /usr/lib/llvm-*/lib/clang/*/include)
find_path(VKML_FUZZED_DATA_PROVIDER_DIR fuzzer/FuzzedDataProvider.h PATHS ${_vkml_fdp_dirs})

function(vkml_fuzz_replay name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LIBS")
  set(dir ${PROJECT_SOURCE_DIR}/fuzz)
  add_executable(fuzz_replay_${name} ${dir}/replay_main.cpp ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(fuzz_replay_${name} PRIVATE ${ARG_LIBS})
  vkml_warnings(fuzz_replay_${name})
  add_test(NAME fuzz_corpus_${name} COMMAND fuzz_replay_${name} ${dir}/corpus/${name})
endfunction()

set(_vkml_fuzz ${PROJECT_SOURCE_DIR}/fuzz)
add_library(fuzz_replay_checks STATIC ${_vkml_fuzz}/fuzz_checks.cpp)
target_include_directories(fuzz_replay_checks PUBLIC ${_vkml_fuzz} ${PROJECT_SOURCE_DIR}/mlplugin/src)
target_link_libraries(fuzz_replay_checks PUBLIC mlplugin)
vkml_warnings(fuzz_replay_checks)

vkml_fuzz_replay(npy ${_vkml_fuzz}/npy_fuzz.cpp LIBS mlplugin_npy)
vkml_fuzz_replay(image_io ${_vkml_fuzz}/image_io_fuzz.cpp LIBS engine)
vkml_fuzz_replay(gltf ${_vkml_fuzz}/gltf_fuzz.cpp LIBS engine)
vkml_fuzz_replay(camera_path ${_vkml_fuzz}/camera_path_fuzz.cpp LIBS engine)
if(TARGET mlplugin_onnx)
  vkml_fuzz_replay(onnx ${_vkml_fuzz}/onnx_fuzz.cpp LIBS mlplugin_onnx fuzz_replay_checks)
endif()
if(VKML_FUZZED_DATA_PROVIDER_DIR)
  # The header alone: clang's resource directory (stddef.h, ...) must not reach GCC.
  configure_file(${VKML_FUZZED_DATA_PROVIDER_DIR}/fuzzer/FuzzedDataProvider.h
                 ${CMAKE_CURRENT_BINARY_DIR}/fuzz_include/fuzzer/FuzzedDataProvider.h COPYONLY)
  vkml_fuzz_replay(operator_desc ${_vkml_fuzz}/operator_desc_fuzz.cpp LIBS fuzz_replay_checks)
  vkml_fuzz_replay(effect_desc ${_vkml_fuzz}/effect_desc_fuzz.cpp LIBS effects)
  target_include_directories(fuzz_replay_operator_desc PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/fuzz_include)
  target_include_directories(fuzz_replay_effect_desc PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/fuzz_include)
else()
  message(STATUS "fuzz corpus replay: no clang FuzzedDataProvider.h, the operator_desc and effect_desc replays are not built")
endif()
