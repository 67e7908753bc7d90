# The shipped networks (assets/*.onnx, trained by tools/train) through mlrun (the ONNX loader and
# the plugin's kernels, fp32, validation layer on) against PyTorch's output of the same weights on
# held-out crops (tests/data/models, written by tools/train/export.py with the assets). mlrun is
# given the model's name: it finds the file where the installed tool would, ../share/vkml/models
# from its executable (build/demos/share/vkml/models links to assets/).
if(TARGET mlrun AND TARGET npy_compare)
  set(data ${PROJECT_SOURCE_DIR}/tests/data/models)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/trained_models_out)
  set(upscaler_x2_inputs color)
  set(denoiser_inputs color albedo normal depth)
  foreach(model upscaler_x2 denoiser)
    set(args)
    foreach(input IN LISTS ${model}_inputs)
      list(APPEND args --input ${input}=${data}/${model}_${input}.npy)
    endforeach()
    add_test(NAME trained_${model}_mlrun
      COMMAND mlrun ${model} ${args} --output-dir ${out}/${model} --validation)
    set_tests_properties(trained_${model}_mlrun PROPERTIES FIXTURES_SETUP trained_${model})
    add_test(NAME trained_${model}_matches_pytorch
      COMMAND npy_compare ${out}/${model}/output.npy ${data}/${model}_output.npy 1e-4)
    set_tests_properties(trained_${model}_matches_pytorch PROPERTIES FIXTURES_REQUIRED trained_${model})
  endforeach()
endif()

# The temporal upscaler: its network runs between the effect's shaders, so the check is the whole
# effect in the engine against the PyTorch mirror that training unrolls (tools/train/temporal.py).
if(TARGET upscale_demo)
  add_test(NAME trained_upscaler_temporal_matches_pytorch
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/models/temporal_mirror_test.sh $<TARGET_FILE:upscale_demo> ${PROJECT_SOURCE_DIR})
  set_tests_properties(trained_upscaler_temporal_matches_pytorch PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 COST 16)
endif()

# The training pipeline of that network at a tiny size (scenes, plan, render, train, validate),
# and the plan's refusal of held-out content.
if(TARGET upscale_demo)
  add_test(NAME temporal_training_pipeline
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/models/temporal_training_test.sh $<TARGET_FILE:upscale_demo> ${PROJECT_SOURCE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/temporal_training)
  set_tests_properties(temporal_training_pipeline PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 COST 34)
endif()
