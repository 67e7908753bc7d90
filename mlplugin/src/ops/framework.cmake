# The framework: device, tensors, binding tables, recorder, initializer, CPU reference dispatch.
list(APPEND MLP_SOURCES
  src/result.cpp
  src/tensor_desc.cpp
  src/operator_desc.cpp
  src/kernel_helpers.cpp
  src/cpu_reference.cpp
)
# Graph: values, shape inference, compilation.
list(APPEND MLP_SOURCES
  src/graph/node_tensors.cpp
  src/graph/graph_desc.cpp
)
