# ONNX loader: a separate static library (mlplugin_onnx) so that mlplugin itself never depends on
# protobuf. Built only where Debian's libonnx-dev and libprotobuf-dev are installed.
find_package(Protobuf QUIET)
find_library(ONNX_PROTO_LIBRARY onnx_proto)
find_path(ONNX_INCLUDE_DIR onnx/onnx_pb.h)
if(Protobuf_FOUND AND ONNX_PROTO_LIBRARY AND ONNX_INCLUDE_DIR)
  add_library(mlplugin_onnx STATIC
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
  target_include_directories(mlplugin_onnx_proto INTERFACE ${ONNX_INCLUDE_DIR})
  target_compile_definitions(mlplugin_onnx_proto INTERFACE ONNX_ML=1 ONNX_NAMESPACE=onnx)
  target_link_libraries(mlplugin_onnx_proto INTERFACE ${ONNX_PROTO_LIBRARY} protobuf::libprotobuf)
  target_include_directories(mlplugin_onnx PRIVATE src)
  target_link_libraries(mlplugin_onnx PUBLIC mlplugin PRIVATE mlplugin_onnx_proto)
  vkml_warnings(mlplugin_onnx)
else()
  message(STATUS "mlplugin_onnx: libonnx-dev / libprotobuf-dev not found; the ONNX loader is not built")
endif()

# .npy reading/writing for mlrun and the ONNX tests (no dependencies).
add_library(mlplugin_npy STATIC src/npy/npy.cpp)
target_include_directories(mlplugin_npy PUBLIC src/npy)
target_link_libraries(mlplugin_npy PUBLIC mlplugin)
vkml_warnings(mlplugin_npy)
