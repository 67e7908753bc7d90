# ONNX loader: a separate library (mlplugin_onnx) so that mlplugin itself never depends on
# protobuf. Built only where Debian's libonnx-dev and libprotobuf-dev are installed (their CMake
# packages: ONNX's onnx_proto target links protobuf::libprotobuf).
find_package(Protobuf QUIET)
if(Protobuf_FOUND)
  find_package(ONNX CONFIG QUIET)
endif()
if(Protobuf_FOUND AND TARGET onnx_proto)
  add_library(mlplugin_onnx
    src/onnx/model.cpp
    src/onnx/loader.cpp
    src/onnx/external_data.cpp
    src/onnx/gelu_pattern.cpp
    src/onnx/depth_to_space_pattern.cpp
    src/onnx/converters_elementwise.cpp
    src/onnx/converters_network.cpp
    src/onnx/converters_shape.cpp
    src/onnx/converters_movement.cpp
    src/onnx/converters_host.cpp)
  # The ONNX protobuf classes (onnx-ml.pb.h, namespace onnx) for the loader and for tests that
  # craft models.
  add_library(mlplugin_onnx_proto INTERFACE)
  target_link_libraries(mlplugin_onnx_proto INTERFACE onnx_proto)
  target_include_directories(mlplugin_onnx PRIVATE src)
  target_link_libraries(mlplugin_onnx PUBLIC mlplugin PRIVATE onnx_proto)
  vkml_warnings(mlplugin_onnx)
else()
  message(STATUS "mlplugin_onnx: libonnx-dev / libprotobuf-dev not found; the ONNX loader is not built")
endif()

# .npy reading/writing for mlrun and the ONNX tests (no dependencies).
add_library(mlplugin_npy STATIC src/npy/npy.cpp)
target_include_directories(mlplugin_npy PUBLIC src/npy)
target_link_libraries(mlplugin_npy PUBLIC mlplugin)
vkml_warnings(mlplugin_npy)
