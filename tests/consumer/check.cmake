# ctest driver: builds the quickstart (examples/quickstart, a standalone project) the two ways users get
# BitGraph, add_subdirectory on the source tree (under -Werror) and find_package after install, and runs
# each build on a generated grid and on a Matrix Market file, checking the numbers it prints; then
# configures tests/consumer/quiet, find_package(BitGraph QUIET) with and without Kokkos.
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
  set(out "${out}" PARENT_SCOPE)
endfunction()

# Runs a quickstart build on the default 64 x 64 grid and on Zachary's karate club (34 vertices, one
# component): BFS from 0 reaches every vertex; PageRank's ranks sum to 1.
function(run_quickstart exe)
  run(${exe})
  if(NOT out MATCHES "reached 4096 of 4096, depth 126, level of the last vertex 126"
     OR NOT out MATCHES "rank sum (1\\.0000|0\\.9999)")
    message(FATAL_ERROR "${exe}: unexpected output on the grid:\n${out}")
  endif()
  run(${exe} ${SOURCE_DIR}/tests/data/karate.mtx)
  if(NOT out MATCHES "graph: 34 vertices, 156 stored entries" OR NOT out MATCHES "reached 34 of 34"
     OR NOT out MATCHES "rank sum (1\\.0000|0\\.9999)")
    message(FATAL_ERROR "${exe}: unexpected output on karate.mtx:\n${out}")
  endif()
endfunction()

# 1. add_subdirectory, under a parent that makes warnings errors (compiler and CMake's developer warnings).
run(${CMAKE_COMMAND} -E env "CMAKE_PREFIX_PATH=${PREFIX_PATH}"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/quickstart -B ${WORK_DIR}/sub ${gen} -DBITGRAPH_SOURCE_DIR=${SOURCE_DIR}
    "-DCMAKE_CXX_FLAGS=-Wall -Werror" -Werror=dev)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/sub)
run_quickstart(${WORK_DIR}/sub/quickstart)

# 2. install BitGraph, then find_package.
run(${CMAKE_COMMAND} -E env "CMAKE_PREFIX_PATH=${PREFIX_PATH}"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib ${gen}
    -DBITGRAPH_ENABLE_TESTS=OFF -DBITGRAPH_ENABLE_EXAMPLES=OFF -DBITGRAPH_ENABLE_INSTALL=ON
    -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/lib)
run(${CMAKE_COMMAND} --install ${WORK_DIR}/lib)
# Public headers are installed, private ones (beside the sources) are not.
foreach(header algorithms/bfs.hpp core/version.hpp io/matrix_market.hpp)
  if(NOT EXISTS ${WORK_DIR}/prefix/include/bitgraph/${header})
    message(FATAL_ERROR "install: bitgraph/${header} is missing")
  endif()
endforeach()
if(EXISTS ${WORK_DIR}/prefix/include/bitgraph/generators/detail.hpp)
  message(FATAL_ERROR "install: the private bitgraph/generators/detail.hpp is installed")
endif()
# Only BitGraph's prefix on the path: the package finds Kokkos by the prefix it recorded.
run(${CMAKE_COMMAND} -E env "CMAKE_PREFIX_PATH=${WORK_DIR}/prefix"
    ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/quickstart -B ${WORK_DIR}/pkg ${gen})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/pkg)
run_quickstart(${WORK_DIR}/pkg/quickstart)

# 3. find_package(BitGraph QUIET) (tests/consumer/quiet): found, with no language, architecture or
# BITGRAPH_* variable added to the consumer; and without Kokkos, not found and no error.
function(check_quiet name expect_found)
  run(${CMAKE_COMMAND} -E env "CMAKE_PREFIX_PATH=${WORK_DIR}/prefix"
      ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer/quiet -B ${WORK_DIR}/${name} ${gen} ${ARGN})
  if(expect_found)
    set(found_re "BitGraph_FOUND=\\[(1|TRUE|ON)\\]")
  else()
    set(found_re "BitGraph_FOUND=\\[(0|FALSE|False|OFF|)\\]")
  endif()
  if(NOT out MATCHES "${found_re}" OR NOT out MATCHES "languages=\\[CXX\\]"
     OR NOT out MATCHES "CMAKE_CUDA_ARCHITECTURES=\\[\\]" OR NOT out MATCHES "leaked=\\[\\]")
    message(FATAL_ERROR "find_package(BitGraph QUIET) (${name}): unexpected report:\n${out}")
  endif()
endfunction()
check_quiet(quiet ON)
check_quiet(quiet-no-kokkos OFF -DCMAKE_DISABLE_FIND_PACKAGE_Kokkos=ON)
