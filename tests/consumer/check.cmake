# ctest driver: builds and runs the consumer project in both modes.
#   cmake -DSOURCE_DIR=<bitgraph src> -DWORK_DIR=<scratch> -DPREFIX_PATH=<prefixes, ':'-separated> -P check.cmake
# Prefixes reach the configure steps through the environment variable CMAKE_PREFIX_PATH, which is
# ':'-separated; a ';' list would be split into separate arguments by run().
foreach(var SOURCE_DIR WORK_DIR PREFIX_PATH)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check.cmake needs -D${var}=...")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
set(gen -G Ninja -DCMAKE_BUILD_TYPE=Release)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

# 1. add_subdirectory.
run(${CMAKE_COMMAND} -E env "CMAKE_PREFIX_PATH=${PREFIX_PATH}"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/sub ${gen} -DBITGRAPH_CONSUMER_MODE=subdirectory
    -DBITGRAPH_SOURCE_DIR=${SOURCE_DIR})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/sub)
run(${WORK_DIR}/sub/consumer)

# 2. install BitGraph, then find_package.
run(${CMAKE_COMMAND} -E env "CMAKE_PREFIX_PATH=${PREFIX_PATH}"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib ${gen}
    -DBITGRAPH_ENABLE_TESTS=OFF -DBITGRAPH_ENABLE_EXAMPLES=OFF -DBITGRAPH_ENABLE_INSTALL=ON
    -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/lib)
run(${CMAKE_COMMAND} --install ${WORK_DIR}/lib)
run(${CMAKE_COMMAND} -E env "CMAKE_PREFIX_PATH=${WORK_DIR}/prefix:${PREFIX_PATH}"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/pkg ${gen} -DBITGRAPH_CONSUMER_MODE=package)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/pkg)
run(${WORK_DIR}/pkg/consumer)
