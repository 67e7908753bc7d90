# vkml_warnings(target): the project's warning set, applied per target (no global flags).
function(vkml_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow=local -Wnon-virtual-dtor -Wno-missing-field-initializers)
endfunction()
