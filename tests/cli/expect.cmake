# Runs one command line of the `bitgraph` CLI and checks its exit code and, optionally, that its output
# (stdout and stderr together) matches a regular expression; ctest's own PASS_REGULAR_EXPRESSION would
# ignore the exit code. Called as
#   cmake -DEXIT=N [-DMATCH=REGEX] -P expect.cmake -- PROGRAM ARG...
set(cmd)
set(seen_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(seen_separator)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(seen_separator TRUE)
  endif()
endforeach()
if(NOT cmd)
  message(FATAL_ERROR "expect.cmake: no command after --")
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT "${code}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXIT}\n--- output:\n${out}${err}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'\n--- output:\n${out}${err}")
endif()
