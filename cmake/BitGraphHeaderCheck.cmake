# Header self-containment: every public header compiles on its own. One generated translation unit per
# header (`#include "<header>"` and nothing else) in the OBJECT library bitgraph_header_check, which is
# part of the default build when BITGRAPH_CHECK_HEADERS is ON (the host preset), so a header that
# leans on an include it does not make itself fails `cmake --build --preset host` (scripts/test.sh)
# naming its generated file, build/<flavour>/header_check/bitgraph/<module>/<header>.cpp.
# Covers everything under <include dir>/bitgraph/ of BITGRAPH_INCLUDE_DIRS except backends/cuda/include,
# whose headers need nvcc. Compiled at -O0 without BitGraph's warning flags: it checks includes only.
if(BITGRAPH_HAVE_CUDA)
  message(STATUS "BitGraph: BITGRAPH_CHECK_HEADERS is for the host flavour; skipped with the CUDA backend")
  return()
endif()

set(bitgraph_header_check_dir ${PROJECT_BINARY_DIR}/header_check)
set(bitgraph_header_check_sources "")
set(bitgraph_header_check_count 0)
foreach(dir IN LISTS BITGRAPH_INCLUDE_DIRS)
  if(dir STREQUAL "${PROJECT_SOURCE_DIR}/backends/cuda/include")
    continue()
  endif()
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE ${dir} ${dir}/bitgraph/*.hpp)
  list(SORT headers)
  if(NOT BITGRAPH_HAVE_KOKKOS_KERNELS)
    # The Kokkos Kernels adapter needs Kokkos Kernels' headers.
    list(REMOVE_ITEM headers bitgraph/formats/kokkos_kernels.hpp)
  endif()
  foreach(header IN LISTS headers)
    set(tu ${bitgraph_header_check_dir}/${header}.cpp)
    file(CONFIGURE OUTPUT ${tu} CONTENT "#include \"${header}\"\n" @ONLY)  # rewritten only on change
    list(APPEND bitgraph_header_check_sources ${tu})
    math(EXPR bitgraph_header_check_count "${bitgraph_header_check_count} + 1")
  endforeach()
endforeach()
# A translation unit whose header was removed: drop it, so the directory mirrors the headers.
file(GLOB_RECURSE stale ${bitgraph_header_check_dir}/*.cpp)
list(REMOVE_ITEM stale ${bitgraph_header_check_sources})
if(stale)
  file(REMOVE ${stale})
endif()

add_library(bitgraph_header_check OBJECT ${bitgraph_header_check_sources})
# bitgraph's usage requirements: its include directories, Kokkos, C++20.
target_link_libraries(bitgraph_header_check PRIVATE bitgraph)
if(BITGRAPH_HAVE_KOKKOS_KERNELS)
  target_link_libraries(bitgraph_header_check PRIVATE Kokkos::kokkoskernels)
endif()
target_compile_options(bitgraph_header_check PRIVATE -O0 -g0)
message(STATUS "BitGraph: header self-containment check over ${bitgraph_header_check_count} public headers")
