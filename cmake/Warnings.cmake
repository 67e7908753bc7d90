# vkml_warnings(target): the project's warning set, applied per target (no global flags).
function(vkml_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wnon-virtual-dtor -Wno-missing-field-initializers)
  # GCC's -Wshadow=local has no clang spelling (the fuzz build uses clang).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -Wshadow=local)
  endif()
  # GCC 12 reports a bogus -Wrestrict in libstdc++'s operator+(const char*, std::string&&) at -O2
  # (GCC bug 105329, fixed in GCC 13); it fires on ordinary message building.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  # __FILE__ (error messages name the failing call's source) and debug info must not carry the
  # checkout's absolute path into installed binaries: tools/check_package.sh rejects any that do.
  target_compile_options(${target} PRIVATE
    -ffile-prefix-map=${PROJECT_SOURCE_DIR}/=
    -ffile-prefix-map=${PROJECT_BINARY_DIR}/=build/)
endfunction()
