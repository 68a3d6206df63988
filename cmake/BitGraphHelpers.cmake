# Helpers shared by BitGraph's targets.

# Sources that include Kokkos must be compiled by nvcc when Kokkos has the CUDA backend: mark them as
# the CUDA language (so nvcc gets -std=c++20 and the architecture) and give them the flags Kokkos 3.4
# only exports for C++ sources.
function(bitgraph_kokkos_sources)
  if(BITGRAPH_HAVE_CUDA)
    set_source_files_properties(${ARGN} DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()

# A target whose sources use Kokkos: C++20 everywhere, CUDA runtime matched to Kokkos' CUDA::cudart.
function(bitgraph_kokkos_target target)
  target_compile_features(${target} PRIVATE cxx_std_20)
  if(BITGRAPH_HAVE_CUDA)
    set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
    target_compile_features(${target} PRIVATE cuda_std_20)
  endif()
  bitgraph_warnings(${target})
endfunction()

function(bitgraph_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>)
    if(BITGRAPH_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
    endif()
  endif()
endfunction()

# A module adds itself to the library: bitgraph_module(INCLUDE <dir>... SOURCES <file>...).
#  - INCLUDE: the module's public include directories (relative to the calling CMakeLists.txt). They
#    become build-time include directories of `bitgraph` (PUBLIC) and `bitgraph_host` (PRIVATE), and are
#    recorded in the global property BITGRAPH_INCLUDE_DIRS, which the top level reads into the variable
#    of that name once every module has been added (install rules, tests and the header checks use it).
#  - SOURCES: host-only sources (no Kokkos) compiled into `bitgraph_host`.
# Include directories of a module's private headers are not given here: its sources include them by a
# relative path (e.g. "internal.hpp" beside the .cpp), so they are never installed.
function(bitgraph_module)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "INCLUDE;SOURCES")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bitgraph_module: unexpected arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(dir IN LISTS arg_INCLUDE)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    target_include_directories(bitgraph PUBLIC $<BUILD_INTERFACE:${dir}>)
    target_include_directories(bitgraph_host PRIVATE ${dir})
    set_property(GLOBAL APPEND PROPERTY BITGRAPH_INCLUDE_DIRS "${dir}")
  endforeach()
  if(arg_SOURCES)
    target_sources(bitgraph_host PRIVATE ${arg_SOURCES})
  endif()
endfunction()
