# The framework: device, tensors, binding tables, recorder, initializer, CPU reference dispatch.
list(APPEND MLP_SOURCES
)
