# The API reference: `cmake --build build --target docs` runs Doxygen (Debian package doxygen) over
# the public headers of every packaged library (vkml_package_library) into build/docs/html.
# Warnings fail the build (FAIL_ON_WARNINGS: like WARN_AS_ERROR=YES, after listing all of them),
# and an undocumented class, function, member or enum value is a warning, so the reference stays
# complete as the API grows. Included by vkml_package_finalize(); `header_dirs` and `targets` come
# from there.
find_package(Doxygen QUIET)
if(NOT DOXYGEN_FOUND)
  message(STATUS "docs: doxygen not found; the 'docs' target (API reference) is not available")
else()

  set(DOXYGEN_PROJECT_NAME vkml)
  set(DOXYGEN_PROJECT_NUMBER ${PROJECT_VERSION})
  set(DOXYGEN_PROJECT_BRIEF "ML inference interleaved with rendering on one Vulkan queue")
  set(DOXYGEN_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/docs)
  set(DOXYGEN_FILE_PATTERNS *.h)
  set(DOXYGEN_RECURSIVE YES)
  set(DOXYGEN_STRIP_FROM_PATH ${header_dirs})
  set(DOXYGEN_STRIP_FROM_INC_PATH ${header_dirs})
  set(DOXYGEN_FULL_PATH_NAMES YES)
  set(DOXYGEN_EXTRACT_ALL NO)
  set(DOXYGEN_EXTRACT_STATIC YES)
  set(DOXYGEN_WARN_IF_UNDOCUMENTED YES)
  set(DOXYGEN_WARN_IF_DOC_ERROR YES)
  set(DOXYGEN_WARN_IF_INCOMPLETE_DOC YES)
  set(DOXYGEN_WARN_NO_PARAMDOC NO)  # parameters are described in prose, not one \param each
  set(DOXYGEN_WARN_AS_ERROR FAIL_ON_WARNINGS)
  set(DOXYGEN_QUIET YES)
  set(DOXYGEN_GENERATE_HTML YES)
  set(DOXYGEN_GENERATE_LATEX NO)
  set(DOXYGEN_HAVE_DOT NO)
  set(DOXYGEN_DISTRIBUTE_GROUP_DOC YES)  # a documented member group (\name ... //@{) documents its members
  set(DOXYGEN_SORT_MEMBER_DOCS NO)  # declaration order: the headers are written to be read in order
  set(DOXYGEN_JAVADOC_AUTOBRIEF YES)
  set(DOXYGEN_MARKDOWN_SUPPORT YES)
  set(DOXYGEN_BUILTIN_STL_SUPPORT YES)
  set(DOXYGEN_ENABLE_PREPROCESSING YES)
  set(DOXYGEN_MACRO_EXPANSION YES)
  set(DOXYGEN_EXPAND_ONLY_PREDEF YES)
  # The visibility regions of the generated export headers expand to nothing for the reference.
  set(DOXYGEN_PREDEFINED)
  foreach(t IN LISTS targets)
    string(TOUPPER ${t} prefix)
    list(APPEND DOXYGEN_PREDEFINED "${prefix}_API_BEGIN=" "${prefix}_API_END=")
  endforeach()
  set(DOXYGEN_EXCLUDE_PATTERNS */export.h)

  doxygen_add_docs(docs ${header_dirs} COMMENT "API reference (Doxygen) -> ${PROJECT_BINARY_DIR}/docs/html")
endif()
