# The framework: device, tensors, binding tables, recorder, initializer, CPU reference dispatch.
list(APPEND MLP_SOURCES
  src/result.cpp
  src/tensor_desc.cpp
  src/operator_desc.cpp
  src/kernel_helpers.cpp
  src/cpu_reference.cpp
  src/vulkan_functions.cpp
  src/device.cpp
  src/device_support.cpp
  src/pipelines.cpp
  src/pipeline_cache_data.cpp
  src/compiled_operator.cpp
  src/slot_names.cpp
  src/binding_table.cpp
  src/recorder.cpp
  src/command_bundle.cpp
  src/initializer.cpp
  src/tuning.cpp
)
# Graph: values, shape inference, compilation.
list(APPEND MLP_SOURCES
  src/graph/node_tensors.cpp
  src/graph/graph_desc.cpp
  src/graph/graph_permute.cpp
  src/graph/graph_pad.cpp
  src/graph/graph_plan.cpp
  src/graph/graph_fusion.cpp
  src/graph/graph_reference.cpp
  src/graph/graph_compile.cpp
  src/graph/graph_reshape.cpp
  src/graph/graph_builder.cpp
  src/half.cpp
)
