# vkml_targets_under(out dir): the targets defined in dir and in its subdirectories (for settings
# that apply to every target of a tree, such as the sanitizer defaults and the tests' shared
# precompiled header).
function(vkml_targets_under out dir)
  set(found)
  set(dirs ${dir})
  while(dirs)
    list(POP_FRONT dirs d)
    get_property(sub DIRECTORY ${d} PROPERTY SUBDIRECTORIES)
    list(APPEND dirs ${sub})
    get_property(targets DIRECTORY ${d} PROPERTY BUILDSYSTEM_TARGETS)
    list(APPEND found ${targets})
  endwhile()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
