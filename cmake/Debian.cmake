# Debian packages from the install components (cpack -G DEB in the build directory):
#   libvkml<abi>  runtime: the shared libraries (BUILD_SHARED_LIBS=ON builds only)
#   libvkml-dev   dev: headers, static libraries or .so links, CMake config, pkg-config file
#   vkml-tools    tools: upscale_demo, mlrun and the models they load (share/vkml/models)
# Included by vkml_package_finalize(); `dependencies` holds the find_dependency() arguments of
# the packaged libraries, mapped here to the Debian packages that provide them.
set(_vkml_debian_dev_packages_Vulkan libvulkan-dev)
set(_vkml_debian_dev_packages_Threads "")
set(_vkml_debian_dev_packages_glm libglm-dev)
set(_vkml_debian_dev_packages_glfw3 libglfw3-dev)
set(_vkml_debian_dev_packages_Protobuf libprotobuf-dev)
set(_vkml_debian_dev_packages_ONNX libonnx-dev)
set(_vkml_debian_dev_packages_TinyGLTF libtinygltf-dev)

set(dev_depends)
foreach(d IN LISTS dependencies)
  string(REGEX MATCH "^[^ ]+" package "${d}")
  if(NOT DEFINED _vkml_debian_dev_packages_${package})
    message(FATAL_ERROR "cmake/Debian.cmake: no Debian package known for the dependency '${package}'; add it to the table")
  endif()
  list(APPEND dev_depends ${_vkml_debian_dev_packages_${package}})
endforeach()
list(REMOVE_DUPLICATES dev_depends)

set(runtime_package libvkml${VKML_ABI_VERSION})
set(CPACK_PACKAGE_NAME vkml)
set(CPACK_PACKAGE_VENDOR "vkml")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ML inference interleaved with rendering on one Vulkan queue")
set(CPACK_PACKAGE_CONTACT "vkml maintainers <maintainers@users.noreply.a-seed-d2422229.example>" CACHE STRING
    "Maintainer field of the Debian packages")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)  # CI time: xz is several times slower on the static libraries
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_COMPONENTS_ALL dev tools)

if(BUILD_SHARED_LIBS)
  list(PREPEND CPACK_COMPONENTS_ALL runtime)
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${runtime_package})
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
  set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "vkml shared libraries: mlplugin (ML operators on the application's Vulkan device), engine, bridge")
  list(PREPEND dev_depends "${runtime_package} (= ${PROJECT_VERSION})")
endif()

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libvkml-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
list(JOIN dev_depends ", " CPACK_DEBIAN_DEV_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_DEV_PACKAGE_SUGGESTS "pkg-config, cmake")
set(CPACK_DEBIAN_DEV_DESCRIPTION "vkml development files: headers, libraries, CMake package (find_package(vkml)) and pkg-config file (vkml-mlplugin)")

# Shared builds: dpkg-shlibdeps meets our own libraries in the tools and between the libraries;
# it finds them in the build tree (-l) and leaves them to the explicit runtime-package Depends.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS)
foreach(t IN LISTS targets)
  get_target_property(dir ${t} BINARY_DIR)
  list(APPEND CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${dir})
endforeach()

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME vkml-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)  # dpkg-shlibdeps: the libraries the executables load
if(BUILD_SHARED_LIBS)
  set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${runtime_package} (= ${PROJECT_VERSION})")
endif()
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "mesa-vulkan-drivers")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "vkml tools: upscale_demo (renderer + ML upscaler/denoiser), mlrun (ONNX models on Vulkan) and the shipped models")

include(CPack)
