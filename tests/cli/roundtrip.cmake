# Round trip of `bitgraph convert` (issue 17): the per-vertex BFS levels and CC labels of `run --output` on a
# generator spec must equal those on the file `convert` wrote from it (the same graph after the round trip).
# Called as
#   cmake -DPROGRAM=path/to/bitgraph -DSPEC=kron:8 -DEXT=mtx [-DREAD_OPTIONS=:undirected] -DDIR=work/dir
#         -P roundtrip.cmake
cmake_minimum_required(VERSION 3.28)
string(MAKE_C_IDENTIFIER "${SPEC}.${EXT}" tag)
set(work "${DIR}/roundtrip-${tag}")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
function(run_program)
  execute_process(COMMAND ${PROGRAM} ${ARGN} --space serial RESULT_VARIABLE code OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 600)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "bitgraph ${ARGN}: exit code ${code}\n${out}${err}")
  endif()
endfunction()
run_program(convert --graph ${SPEC} --to "${work}/graph.${EXT}")
run_program(run --graph "file:${work}/graph.${EXT}${READ_OPTIONS}" --no-cache --algo bfs,cc --source 0 --no-parents
            --output "${work}/from_file.csv")
run_program(run --graph ${SPEC} --algo bfs,cc --source 0 --no-parents --output "${work}/generated.csv")
file(READ "${work}/generated.csv" a)
file(READ "${work}/from_file.csv" b)
if(NOT a STREQUAL b)
  message(FATAL_ERROR "${SPEC} -> graph.${EXT}: the results differ (${work}/generated.csv, ${work}/from_file.csv)")
endif()
string(LENGTH "${a}" bytes)
message(STATUS "${SPEC} -> graph.${EXT}: the same BFS levels and CC labels (${bytes} bytes of CSV)")
