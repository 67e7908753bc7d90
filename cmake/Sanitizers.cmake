# Sanitizer and fuzzing builds (docs/RELIABILITY.md). Both instrument every target of the
# project, so they are global compile/link options set before any target is created, and each
# belongs in a build directory of its own:
#
#   cmake -S . -B build-asan -G Ninja -DVKML_SANITIZE=address,undefined   # tools/sanitize.sh
#   cmake -S . -B build-tsan -G Ninja -DVKML_SANITIZE=thread
#   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DVKML_FUZZ=ON   # tools/fuzz.sh
#
# Undefined behaviour aborts (-fno-sanitize-recover=all), so a test that triggers it fails.
# The runtime options and the few suppressions (third-party code only) are compiled into every
# executable by vkml_sanitizer_defaults() (cmake/sanitizer_defaults.cpp): a test binary run by
# hand behaves exactly as under ctest, without environment variables.
set(VKML_SANITIZE "" CACHE STRING "Sanitizers for every target: address,undefined | address | undefined | thread (empty: none)")
option(VKML_FUZZ "Build the libFuzzer targets of fuzz/ (clang only; implies VKML_SANITIZE=address,undefined)" OFF)

if(VKML_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "VKML_FUZZ needs clang (libFuzzer): configure a separate build directory with "
                        "-DCMAKE_CXX_COMPILER=clang++ (Debian: clang, libfuzzer-14-dev, libclang-rt-14-dev)")
  endif()
  if(NOT VKML_SANITIZE)
    set(VKML_SANITIZE "address,undefined" CACHE STRING "" FORCE)
  endif()
  if(VKML_SANITIZE MATCHES "thread")
    message(FATAL_ERROR "VKML_FUZZ runs with address,undefined; ThreadSanitizer is a build of its own")
  endif()
  # Coverage feedback for libFuzzer in every library the targets call; the fuzz targets
  # themselves link the libFuzzer driver (-fsanitize=fuzzer, fuzz/CMakeLists.txt).
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(VKML_SANITIZE)
  string(REPLACE "," ";" _vkml_sanitizers "${VKML_SANITIZE}")
  foreach(s IN LISTS _vkml_sanitizers)
    if(NOT s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "VKML_SANITIZE: unknown sanitizer '${s}' (address, undefined, thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _vkml_sanitizers AND "address" IN_LIST _vkml_sanitizers)
    message(FATAL_ERROR "VKML_SANITIZE: thread and address cannot be combined; use two build directories")
  endif()
  # Frame pointers and line tables: reports name the file and line without a debug build.
  # Asserts stay on (-UNDEBUG): an internal invariant that breaks is a finding too. libstdc++'s
  # assertions bound-check operator[] of std::array/vector/span, which ASan cannot see inside an
  # object (TensorDesc::sizes[rank] with a bad rank reads its neighbour field).
  add_compile_options(-fsanitize=${VKML_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer
                      $<IF:$<CXX_COMPILER_ID:Clang>,-gline-tables-only,-g1> -UNDEBUG -D_GLIBCXX_ASSERTIONS)
  add_link_options(-fsanitize=${VKML_SANITIZE})
  message(STATUS "vkml: sanitizers ${VKML_SANITIZE}")
endif()

# vkml_sanitizer_defaults(): adds the runtime options and suppressions to every executable
# defined so far (called once, at the end of the top-level CMakeLists.txt).
function(vkml_sanitizer_defaults)
  if(NOT VKML_SANITIZE)
    return()
  endif()
  vkml_targets_under(targets ${PROJECT_SOURCE_DIR})
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_sources(${t} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/sanitizer_defaults.cpp)
    endif()
  endforeach()
endfunction()
