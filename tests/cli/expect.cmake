# Runs one command line of the `bitgraph` CLI and checks its exit code and, optionally, that its output
# (stdout and stderr together) matches a regular expression; ctest's own PASS_REGULAR_EXPRESSION would
# ignore the exit code; and, optionally, that it does not match another (NOMATCH). Optionally also: stdout alone
# matches STDOUT_MATCH (e.g. `--json -` writes only the JSON there); the output holds no carriage return (NO_CR,
# for progress lines in logs); the program runs with extra environment variables (ENV_VARS, a list of NAME=VALUE).
# Called as
#   cmake -DEXIT=N [-DMATCH=REGEX] [-DNOMATCH=REGEX] [-DSTDOUT_MATCH=REGEX] [-DNO_CR=ON] [-DENV_VARS=N=V;...]
#         -P expect.cmake -- PROGRAM ARG...
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
if(DEFINED ENV_VARS)
  set(cmd ${CMAKE_COMMAND} -E env ${ENV_VARS} ${cmd})
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
if(NOT "${code}" STREQUAL "${EXIT}")
  message(FATAL_ERROR "exit code ${code}, expected ${EXIT}\n--- output:\n${out}${err}")
endif()
if(DEFINED MATCH AND NOT "${out}${err}" MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'\n--- output:\n${out}${err}")
endif()
if(DEFINED NOMATCH AND "${out}${err}" MATCHES "${NOMATCH}")
  message(FATAL_ERROR "output matches '${NOMATCH}', which it must not\n--- output:\n${out}${err}")
endif()
if(DEFINED STDOUT_MATCH AND NOT "${out}" MATCHES "${STDOUT_MATCH}")
  message(FATAL_ERROR "stdout does not match '${STDOUT_MATCH}'\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
string(ASCII 13 carriage_return)
if(NO_CR AND "${out}${err}" MATCHES "${carriage_return}")
  message(FATAL_ERROR "output holds a carriage return, which it must not\n--- output:\n${out}${err}")
endif()
