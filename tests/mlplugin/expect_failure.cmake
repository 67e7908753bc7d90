# Runs CMD with ARGS ('|'-separated) and passes when it exits non-zero with output matching
# EXPECT: a bad command line must fail, and say why.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${CMD} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a failure, '${CMD}' exited 0:\n${out}${err}")
endif()
string(FIND "${out}${err}" "${EXPECT}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "exit ${rc}, but the output does not say '${EXPECT}':\n${out}${err}")
endif()
message(STATUS "exit ${rc}: ${err}")
