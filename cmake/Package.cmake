# Installing the libraries as a CMake package (vkmlConfig.cmake, targets vkml::<library>), a
# pkg-config file for mlplugin, the demos and models, and Debian packages (CPack). docs/PACKAGING.md
# describes the result; adding a library to the package is one call:
#
#   add_library(effects src/...)
#   target_link_libraries(effects PUBLIC mlplugin Vulkan::Headers PRIVATE $<BUILD_INTERFACE:effects_shaders>)
#   vkml_package_library(effects DESCRIPTION "upscaler and denoiser effects" DEPENDENCIES "Vulkan")
#
# vkml_package_library(<target> DESCRIPTION <text> [HEADERS <dir> | NO_HEADERS]
#                      [EXTRA_HEADERS <subdir> <file>...] [DEPENDENCIES <find_dependency arguments>...])
#   DESCRIPTION     one line for the target list in vkmlConfig.cmake (and its error messages).
#   HEADERS         the public header tree (default: include/ of the calling directory), put on the
#                   target's include path in the build tree and installed under
#                   include/vkml-<major>.<minor>/. Its first level names the library's header
#                   directory (include/effects/...): <dir>/<target>/export.h is generated there.
#   NO_HEADERS      the library declares its API in another library's headers (mlplugin_onnx).
#   EXTRA_HEADERS   headers that live elsewhere in the source tree, installed into <subdir>/.
#   DEPENDENCIES    each a find_dependency() argument string ("glfw3 CONFIG"), written into
#                   vkmlConfig.cmake so consumers find what the target links.
# It builds the target with hidden symbol visibility (the public headers' <LIB>_API_BEGIN/END
# region exports the API), position-independent code, the output name vkml_<target>, the
# shared-library version, and installs it into the export set vkmlTargets.
#
# Internal static helpers (shader libraries) are OBJECT libraries linked as
# $<BUILD_INTERFACE:...>: their objects are folded into the library, consumers never see them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Headers are installed into a directory named for the version with a compatible ABI, so headers
# left from an older installation are never on a newer consumer's include path.
set(VKML_ABI_VERSION "${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR}")
set(VKML_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/vkml-${VKML_ABI_VERSION}")
set(VKML_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/vkml")
set(VKML_INSTALL_MODELDIR "${CMAKE_INSTALL_DATADIR}/vkml/models")
# Installed executables find shared libraries relative to themselves (a moved prefix works).
file(RELATIVE_PATH _vkml_bin_to_lib "/${CMAKE_INSTALL_BINDIR}" "/${CMAKE_INSTALL_LIBDIR}")
if(BUILD_SHARED_LIBS)
  set(CMAKE_INSTALL_RPATH "$ORIGIN/${_vkml_bin_to_lib}")
endif()

function(vkml_package_library target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_HEADERS" "HEADERS;DESCRIPTION" "EXTRA_HEADERS;DEPENDENCIES")
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_DESCRIPTION)
    message(FATAL_ERROR "vkml_package_library(${target}): needs DESCRIPTION; unexpected arguments: '${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME vkml_${target}
    EXPORT_NAME ${target}
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    POSITION_INDEPENDENT_CODE ON
    VERSION ${PROJECT_VERSION}
    SOVERSION ${VKML_ABI_VERSION}
    # No <target>_EXPORTS define: export.h needs none, and without it a shared and a static build
    # compile every file with the same flags (ccache serves one from the other).
    DEFINE_SYMBOL "")

  if(NOT ARG_NO_HEADERS)
    if(NOT ARG_HEADERS)
      set(ARG_HEADERS ${CMAKE_CURRENT_SOURCE_DIR}/include)
    endif()
    vkml_generate_export_header(${target} ${CMAKE_CURRENT_BINARY_DIR}/generated/include)
    target_include_directories(${target} PUBLIC
      $<BUILD_INTERFACE:${ARG_HEADERS}>
      $<BUILD_INTERFACE:${CMAKE_CURRENT_BINARY_DIR}/generated/include>)
    install(DIRECTORY ${ARG_HEADERS}/ ${CMAKE_CURRENT_BINARY_DIR}/generated/include/
            DESTINATION ${VKML_INSTALL_INCLUDEDIR} COMPONENT dev)
    set_property(GLOBAL APPEND PROPERTY VKML_PACKAGE_HEADER_DIRS ${ARG_HEADERS} ${CMAKE_CURRENT_BINARY_DIR}/generated/include)
  endif()
  if(ARG_EXTRA_HEADERS)
    list(POP_FRONT ARG_EXTRA_HEADERS subdir)
    install(FILES ${ARG_EXTRA_HEADERS} DESTINATION ${VKML_INSTALL_INCLUDEDIR}/${subdir} COMPONENT dev)
  endif()
  target_include_directories(${target} INTERFACE $<INSTALL_INTERFACE:${VKML_INSTALL_INCLUDEDIR}>)

  install(TARGETS ${target} EXPORT vkmlTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)

  set_property(GLOBAL APPEND PROPERTY VKML_PACKAGE_TARGETS ${target})
  set_property(GLOBAL APPEND PROPERTY VKML_PACKAGE_TARGET_LINES "#   vkml::${target}: ${ARG_DESCRIPTION}")
  set_property(GLOBAL APPEND PROPERTY VKML_PACKAGE_DEPENDENCIES ${ARG_DEPENDENCIES})
endfunction()

# <dir>/<target>/export.h: <TARGET>_API_BEGIN / <TARGET>_API_END around the declarations of a
# public header give them default visibility; everything else in the library stays hidden. One
# region per header instead of a macro per declaration, so an API added later cannot be forgotten.
function(vkml_generate_export_header target dir)
  string(TOUPPER ${target} prefix)
  file(CONFIGURE OUTPUT ${dir}/${target}/export.h CONTENT
"// Generated by cmake/Package.cmake. Do not edit.
#pragma once
/// \\file
/// Symbol visibility of the ${target} library. It is built with hidden visibility; declarations
/// between ${prefix}_API_BEGIN and ${prefix}_API_END (the public headers) are exported.
#if defined(__GNUC__) || defined(__clang__)
/// Starts the exported region of a public header.
#define ${prefix}_API_BEGIN _Pragma(\"GCC visibility push(default)\")
/// Ends the exported region of a public header.
#define ${prefix}_API_END _Pragma(\"GCC visibility pop\")
#else
#define ${prefix}_API_BEGIN
#define ${prefix}_API_END
#endif
" @ONLY)
endfunction()

# After every library called vkml_package_library: the config and version files, the export set,
# the pkg-config file and the Debian packages.
function(vkml_package_finalize)
  get_property(targets GLOBAL PROPERTY VKML_PACKAGE_TARGETS)
  get_property(dependencies GLOBAL PROPERTY VKML_PACKAGE_DEPENDENCIES)
  get_property(header_dirs GLOBAL PROPERTY VKML_PACKAGE_HEADER_DIRS)
  list(REMOVE_DUPLICATES dependencies)
  set(VKML_FIND_DEPENDENCIES "")
  foreach(d IN LISTS dependencies)
    string(APPEND VKML_FIND_DEPENDENCIES "find_dependency(${d})\n")
  endforeach()
  set(VKML_PACKAGE_TARGETS "${targets}")
  get_property(lines GLOBAL PROPERTY VKML_PACKAGE_TARGET_LINES)
  list(JOIN lines "\n" VKML_PACKAGE_TARGET_LINES)

  install(EXPORT vkmlTargets NAMESPACE vkml:: DESTINATION ${VKML_INSTALL_CMAKEDIR} COMPONENT dev)
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vkmlConfig.cmake.in
    ${PROJECT_BINARY_DIR}/package/vkmlConfig.cmake
    INSTALL_DESTINATION ${VKML_INSTALL_CMAKEDIR}
    PATH_VARS VKML_INSTALL_MODELDIR)
  # 0.x: every minor version may break the API (a 0.2 consumer refuses 0.1 and 0.3); from 1.0 on,
  # any version with the requested major version and at least the requested minor one.
  if(PROJECT_VERSION_MAJOR EQUAL 0)
    set(compatibility SameMinorVersion)
  else()
    set(compatibility SameMajorVersion)
  endif()
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/vkmlConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY ${compatibility})
  install(FILES ${PROJECT_BINARY_DIR}/package/vkmlConfig.cmake ${PROJECT_BINARY_DIR}/package/vkmlConfigVersion.cmake
          DESTINATION ${VKML_INSTALL_CMAKEDIR} COMPONENT dev)

  # pkg-config: relocatable through ${pcfiledir}.
  set(pcdir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  file(RELATIVE_PATH VKML_PC_TO_PREFIX "/${pcdir}" "/")
  string(REGEX REPLACE "/$" "" VKML_PC_TO_PREFIX "${VKML_PC_TO_PREFIX}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/vkml-mlplugin.pc.in ${PROJECT_BINARY_DIR}/package/vkml-mlplugin.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/package/vkml-mlplugin.pc DESTINATION ${pcdir} COMPONENT dev)

  include(${PROJECT_SOURCE_DIR}/cmake/Docs.cmake)
  include(${PROJECT_SOURCE_DIR}/cmake/Debian.cmake)
endfunction()
